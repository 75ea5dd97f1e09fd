/**
 * Renders a run of search-bench.ts as Markdown: per store,
 * each shape's reach, its latency at one connection and its throughput at 50
 * connections against the lookup by key of the same rounds, with the targets.
 */
import type { MachineInfo } from './machine.js';
import type { OneConnectionResult } from './one-connection.js';
import { runHeader } from './report.js';
import type { Comparison } from './results.js';
import type { SeedResult } from './seed-clock.js';
import { LOOKUP, SEARCH_TARGETS } from './search-shapes.js';

export interface SearchShapeResult {
  name: string;
  title: string;
  path: string;
  /** Total-Count of the shape's request with count=true (`10000; at-least` beyond the bound). */
  matches: string;
  pageSize: number;
  one: OneConnectionResult;
  /** service: the shape's wrk rounds; baseline: the lookup by key's, alternating with them. */
  wrk: Comparison;
}

export interface SearchStoreResult {
  store: 'sqlite' | 'postgres';
  users: number;
  /** Absent when the run measured a database an earlier run seeded (BENCH_SEARCH_SQLITE, BENCH_SEARCH_POSTGRES). */
  seed?: SeedResult;
  lookupOne: OneConnectionResult;
  shapes: SearchShapeResult[];
  peakRssMB: number;
}

export interface SearchRun {
  startedAt: string;
  command: string;
  machine: MachineInfo;
  loadBefore: number;
  loadAfter: number;
  seconds: number;
  requests: number;
  maxSeconds: number;
  warmupRequests: number;
  wrk: { threads: number; connections: number; durationS: number; rounds: number; warmupS: number };
  stores: SearchStoreResult[];
}

const STORE_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;
const int = (n: number) => Math.round(n).toLocaleString('en');
const ms = (n: number) => (n >= 10 ? n.toFixed(1) : n.toFixed(2));
const verdict = (met: boolean) => (met ? '**met**' : '**not met**');
const failed = (failures: Record<string, number>) => {
  const n = Object.values(failures).reduce((a, b) => a + b, 0);
  return n > 0 ? ` ⚠ ${n} of the one-connection requests answered ${Object.keys(failures).join('/')}` : '';
};

function storeSection(run: SearchRun, store: SearchStoreResult): string[] {
  const seed = store.seed;
  const seeding = seed === undefined
    ? 'The database was seeded by an earlier run (kept with BENCH_SEARCH_KEEP=1).'
    : `Seeded in ${seed.seconds.toFixed(1)} s (${int(seed.usersPerSecond)} users/s; ${Object.entries(seed.phases).map(([name, s]) => `${name} ${s.toFixed(1)} s`).join(', ')}).`;
  const lines = [
    `### ${STORE_NAMES[store.store]}, ${int(store.users)} users`,
    '',
    `${seeding} The service peaked at ${int(store.peakRssMB)} MB RSS.`,
    '',
    `| shape | matches | n | 1 conn p50 ms | 1 conn p99 ms | CPU µs/req | p99 ≤ ${SEARCH_TARGETS.p99Ms} ms | 50 conn req/s | p99 ms | lookup req/s | ratio | ≥ ${SEARCH_TARGETS.ratio}× lookup |`,
    '|---|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|---|',
    `| ${LOOKUP.title} | 1 | ${int(store.lookupOne.requests)} | ${ms(store.lookupOne.p50)} | ${ms(store.lookupOne.p99)} | ${int(store.lookupOne.cpuUsPerRequest)} | ${verdict(store.lookupOne.p99 <= SEARCH_TARGETS.p99Ms)} | (each row's) | | | 1.00 | |`,
  ];
  for (const shape of store.shapes) {
    const { one, wrk } = shape;
    lines.push(
      `| ${shape.title}${failed(one.failures)}${wrk.service.failed > 0 ? ` ⚠ ${int(wrk.service.failed)} answered ≥ 400 under load (not counted)` : ''} | ${shape.matches} | ${int(one.requests)} | ${ms(one.p50)} | ${ms(one.p99)} | ${int(one.cpuUsPerRequest)} | ${verdict(one.requests > 0 && one.p99 <= SEARCH_TARGETS.p99Ms)} ` +
        `| ${int(wrk.service.rps)} | ${ms(wrk.service.p99)} | ${int(wrk.baseline.rps)} | **${wrk.ratio.toFixed(2)}** | ${verdict(wrk.ratio >= SEARCH_TARGETS.ratio)} |`,
    );
  }
  lines.push('', 'Requests:', '', ...store.shapes.map((shape) => `- ${shape.name}: \`GET ${shape.path}\``), '');
  return lines;
}

export function renderSearchReport(run: SearchRun): string {
  return [
    ...runHeader(run),
    `Each shape against one service process (production defaults: logging at info to a file, API-key authentication, load shedding, metrics). ` +
      `**1 conn**: ${int(run.requests)} requests (or as many as ${run.maxSeconds} s allow: **n** says how many answered 200) one after the other on one keep-alive connection after ${run.warmupRequests} unmeasured ones; ` +
      `a 503 (load shed after a request held the event loop) is counted apart and followed by a 1.1 s pause; `+
      `CPU µs/req is the server's CPU time over them. **50 conn**: wrk (${run.wrk.threads} thread, ${run.wrk.connections} connections), ` +
      `${run.wrk.rounds} rounds of ${run.wrk.durationS} s of the shape alternating with ${run.wrk.rounds} of the lookup by key (random seeded usernames) ` +
      `after a ${run.wrk.warmupS} s warm-up of each, each round followed by a pause until the requests left in flight are answered and 1.5 s more; **ratio** is the shape's req/s over the lookup's of the same rounds; wrk counts responses below 400 and its p99 is of all responses. ` +
      `**matches** is the Total-Count the same request answers with count=true (\`; estimate\` marks an estimate from a sample: docs/api.md, "Counting").`,
    '',
    ...run.stores.flatMap((store) => storeSection(run, store)),
  ].join('\n');
}
