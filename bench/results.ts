/**
 * What a run produces, as plain data: written to results.json and rendered by
 * report.ts. Rounds are kept; the summary of a side is the mean of its rounds.
 */
import type { BenchOptions, StoreKind } from './bench-options.js';
import type { Measurement } from './load.js';
import type { MachineInfo } from './machine.js';
import type { ProfileSummary } from './profile-summary.js';
import type { ScenarioKind } from './scenarios.js';
import type { SeedResult } from './seed-sqlite.js';

export interface Summary {
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx responses and connection errors, over all rounds. */
  failed: number;
  /** Mean CPU of the server and of the load generator, in cores. */
  serverCpu: number;
  clientCpu: number;
  /** Server CPU time per 2xx response, in microseconds: what a request costs, whatever else runs on the machine. */
  cpuUsPerRequest: number;
}

export interface Comparison {
  service: Summary;
  baseline: Summary;
  /** service.rps / baseline.rps */
  ratio: number;
  rounds: { service: Measurement[]; baseline: Measurement[] };
}

/** A scenario measured with wrk instead of autocannon (wrk-run.ts): its own alternating rounds. */
export interface WrkComparison extends Comparison {
  threads: number;
  connections: number;
  /** Seconds per measured round (wrk runs whole seconds). */
  durationS: number;
  /** How many request paths the file wrk cycles through holds. */
  paths: number;
  /** The ratio and the service's p99 in ms that must be reached under wrk, if any. */
  target?: number;
  p99TargetMs?: number;
}

export interface ScenarioResult extends Comparison {
  name: string;
  title: string;
  kind: ScenarioKind;
  unit: string;
  /** The ratio the issue asks for, if any. */
  target?: number;
  /** The reads by key measured with wrk as well (BENCH_WRK=1); absent from older results. */
  wrk?: WrkComparison;
}

export interface PageDepthResult {
  depth: number;
  pageSize: number;
  first: Comparison;
  deep: Comparison;
}

/** Read by uid on the framework floor (bare Fastify) against the raw baseline, in alternation. */
export interface FloorResult extends Comparison {
  scenario: string;
}

/** One row of the features measurement (features-run.ts): one server process, in alternation with the raw baseline. */
export interface FeatureCost extends WrkComparison {
  /** `service`: the service with `settings` laid over its production defaults; `framework-floor`: bare Fastify. */
  server: 'service' | 'framework-floor';
  /** Empty for the production defaults and for the framework floor. */
  settings: Record<string, string>;
  /** What the settings turn off, where their names do not say it. */
  note?: string;
}

/** What each feature costs (BENCH_FEATURES=1): read by uid under wrk, one row per server process. */
export interface FeaturesResult {
  /** The scenario's title. */
  scenario: string;
  rows: FeatureCost[];
}

export interface ScaleResult {
  users: number;
  seed: SeedResult;
  readyMs: number;
  peakRssMB: number;
  /** Per lookup scenario: the service at the main size (`small`) and at `users` (`large`), alternating. */
  lookups: { name: string; title: string; small: Summary; large: Summary }[];
}

export interface ProfileResult {
  scenario: string;
  /** What was profiled and how it went. */
  note: string;
  file: string;
  summary: ProfileSummary;
}

export interface StoreResult {
  store: StoreKind;
  users: number;
  seed: SeedResult;
  /** Settings that decide the cost of a durable commit. */
  durability: Record<string, string>;
  /**
   * Spawn to first 200 on /readyz, in ms: each cold start. Empty, and servicePeakRssMB 0, when the
   * run measured only the features (BENCH_SCENARIOS=features), which start no main service.
   */
  readyMs: number[];
  /** The same for the baseline server: the floor of Node.js, the driver and node:http. */
  baselineReadyMs: number;
  servicePeakRssMB: number;
  baselinePeakRssMB: number;
  scenarios: ScenarioResult[];
  pageDepth?: PageDepthResult;
  floor?: FloorResult;
  /** With BENCH_FEATURES=1; absent from older results. */
  features?: FeaturesResult;
  scale?: ScaleResult;
  profiles: ProfileResult[];
}

export interface ImportMeasurement {
  name: string;
  title: string;
  users: number;
  /** Spawn of the CLI to its exit. */
  seconds: number;
  usersPerSecond: number;
  peakRssMB: number;
  /** The CLI's summary line. */
  summary: string;
  /** With BENCH_PROFILE=1: the CPU profile of the CLI. */
  profile?: { file: string; summary: ProfileSummary };
}

export interface ImportStoreResult {
  store: StoreKind;
  users: number;
  measurements: ImportMeasurement[];
}

export interface RunResult {
  startedAt: string;
  command: string;
  options: Readonly<BenchOptions>;
  machine: MachineInfo;
  /** 1-minute load average before and after: other work on the machine. */
  loadBefore: number;
  loadAfter: number;
  seconds: number;
  stores: StoreResult[];
  /** The import scenarios, when BENCH_SCENARIOS selects them. */
  imports: ImportStoreResult[];
}

const mean = (values: number[]) => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);

export function summarise(rounds: Measurement[]): Summary {
  return {
    rps: mean(rounds.map((m) => m.rps)),
    p50: mean(rounds.map((m) => m.p50)),
    p99: mean(rounds.map((m) => m.p99)),
    failed: rounds.reduce((n, m) => n + m.errors + Object.values(m.failures).reduce((a, b) => a + b, 0), 0),
    serverCpu: mean(rounds.map((m) => m.serverCpu)),
    clientCpu: mean(rounds.map((m) => m.clientCpu)),
    cpuUsPerRequest: mean(rounds.map((m) => (m.rps === 0 ? 0 : (m.serverCpu / m.rps) * 1e6))),
  };
}

export function compare(service: Measurement[], baseline: Measurement[]): Comparison {
  const s = summarise(service);
  const b = summarise(baseline);
  return { service: s, baseline: b, ratio: b.rps === 0 ? 0 : s.rps / b.rps, rounds: { service, baseline } };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? 0 : sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
