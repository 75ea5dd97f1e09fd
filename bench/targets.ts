/**
 * The goals issue 5 sets, in one place, so the report can say for each whether
 * it was met.
 */
import type { StoreKind } from './bench-options.js';

/** Throughput ratio to the matching baseline that a scenario must reach, if any. */
export function targetRatio(store: StoreKind, scenario: string): number | undefined {
  if (scenario === 'read-uid' || scenario.startsWith('lookup-')) return store === 'sqlite' ? 0.9 : 0.85;
  if (scenario === 'create') return 1.0;
  return undefined;
}

/**
 * What a read by key must reach when wrk drives it (one thread, 50 connections), if
 * anything: a throughput ratio to the baseline, and the service's p99 in ms.
 */
export function wrkTargets(store: StoreKind, scenario: string): { ratio: number; p99Ms: number } | undefined {
  if (scenario === 'read-uid' || scenario.startsWith('lookup-')) return { ratio: store === 'sqlite' ? 0.65 : 0.85, p99Ms: 10 };
  return undefined;
}

export const GOALS = {
  /** Seeding 1,000,000 users into SQLite, in seconds. */
  seedMillionS: 30,
  /** Lookup latency (p50) at 1,000,000 users over 100,000. */
  scaleLatencyRatio: 1.2,
  /** Peak resident set size of the service, in MB. */
  peakRssMB: 200,
  /** Spawn to first 200 on /readyz, in ms. */
  readyMs: 300,
  /** A page at depth 10,000 over the first page (p50 latency): "the same cost". */
  depthLatencyRatio: 1.2,
  /** The page depth measured, and its page size. */
  depthPages: 10_000,
  depthPageSize: 10,
} as const;

/** The goals issue 11 sets for the import (the CLI, end to end). */
export const IMPORT_GOALS = {
  /** Users per second into an empty database, by store. */
  emptyPerSecond: { postgres: 20_000 } as Partial<Record<StoreKind, number>>,
  /** Users per second with --on-conflict replace (an update before merge) over a full table, by store. */
  updatePerSecond: { postgres: 5_000 } as Partial<Record<StoreKind, number>>,
  /** --on-conflict merge over a full table against replace, same run (issue 25). */
  mergeRatio: 0.8,
  /** Seconds for 1,000,000 users into an empty database, by store. */
  millionSeconds: { postgres: 60, sqlite: 30 } as Record<StoreKind, number>,
  peakRssMB: 200,
} as const;

/** The scenarios compared at the main size and at the scale size. */
export const SCALE_SCENARIOS = ['read-uid', 'lookup-username', 'lookup-email', 'lookup-legacy-id'];

/** The scenarios run under the CPU profiler with BENCH_PROFILE=1. */
export const PROFILED_SCENARIOS = ['read-uid', 'create'];
