/**
 * Measuring two servers fairly on a shared machine: each gets an unmeasured
 * warm-up, then rounds alternate (A, B, A, B, …), so drift from other work on
 * the machine, caches or a growing table hits both sides alike.
 */
import type autocannon from 'autocannon';
import type { BenchOptions } from './bench-options.js';
import { runLoad, type Measurement } from './load.js';
import type { RunningServer } from './processes.js';
import { compare, type Comparison } from './results.js';

let tags = 0;
const runTag = Date.now().toString(36);

/** A string never used before in this run (created users' names include it). */
export function uniqueTag(): string {
  return `${runTag}${(tags++).toString(36)}`;
}

/** The requests of one measured run; `server` tells which side they are for. */
export type RequestsFor = (tag: string, server: RunningServer) => autocannon.Request[];

export interface AlternateOptions {
  options: Readonly<BenchOptions>;
  headers: Record<string, string>;
  /** Printed before each measurement. */
  label: string;
}

function describe(m: Measurement): string {
  const failed = m.errors + Object.values(m.failures).reduce((a, b) => a + b, 0);
  return `${m.rps.toFixed(0).padStart(7)} /s  p50 ${m.p50.toFixed(2)} ms  p99 ${m.p99.toFixed(2)} ms  cpu ${m.serverCpu.toFixed(2)}+${m.clientCpu.toFixed(2)}${failed ? `  FAILED ${failed} ${JSON.stringify(m.failures)}` : ''}`;
}

/** One measurement of `durationS` seconds against `server`, by whichever load generator. */
export type Measure = (server: RunningServer, durationS: number) => Promise<Measurement>;

/** Warm-ups, then the alternating rounds, each measured by `measure`. */
export async function alternateWith(a: RunningServer, b: RunningServer, measure: Measure, { options, label }: Omit<AlternateOptions, 'headers'>): Promise<Comparison> {
  if (options.warmupS > 0) for (const server of [a, b]) await measure(server, options.warmupS);
  const rounds: { a: Measurement[]; b: Measurement[] } = { a: [], b: [] };
  for (let round = 0; round < options.rounds; round++) {
    for (const [side, server] of [['a', a], ['b', b]] as const) {
      const measurement = await measure(server, options.durationS);
      rounds[side].push(measurement);
      console.log(`  ${label.padEnd(34)} ${server.name.padEnd(20)} ${describe(measurement)}`);
    }
  }
  return compare(rounds.a, rounds.b);
}

/** The rounds driven by autocannon (load.ts), each with fresh `requests`. */
export async function alternate(a: RunningServer, b: RunningServer, requests: RequestsFor, { options, headers, label }: AlternateOptions): Promise<Comparison> {
  const load: Measure = (server, durationS) =>
    runLoad(server, { requests: requests(uniqueTag(), server), connections: options.connections, durationS, headers });
  return alternateWith(a, b, load, { options, label });
}
