/**
 * The harness's settings: read once from the environment into a frozen, typed
 * object. Nothing else in bench/ reads process.env for its own settings.
 */
import { resolve } from 'node:path';

export const STORES = ['sqlite', 'postgres'] as const;
export type StoreKind = (typeof STORES)[number];

export interface BenchOptions {
  /** Users seeded before the scenarios run (BENCH_USERS). */
  users: number;
  /** Seconds each measured round of a scenario lasts (BENCH_DURATION_S). */
  durationS: number;
  /** Unmeasured seconds before a target's first round of each scenario (BENCH_WARMUP_S). */
  warmupS: number;
  /** Rounds per target; rounds alternate service, baseline, service, baseline… (BENCH_ROUNDS). */
  rounds: number;
  /** Concurrent keep-alive connections of the load generator (BENCH_CONNECTIONS). */
  connections: number;
  /**
   * Also measure the reads by key with wrk, in rounds of their own (BENCH_WRK, default on; a
   * run that needs wrk and cannot find it fails at the start). wrk runs whole seconds, so
   * its rounds and warm-ups are durationS and warmupS rounded (at least 1 s).
   */
  wrk: boolean;
  /** wrk's connections, on its one thread (BENCH_WRK_CONNECTIONS). */
  wrkConnections: number;
  stores: readonly StoreKind[];
  /**
   * Only scenarios whose name contains one of these (BENCH_SCENARIOS, comma-separated); all
   * HTTP scenarios when empty. The import scenarios run only when a filter starting with
   * `import` names them (`import` selects all three).
   */
  scenarios: readonly string[];
  /**
   * Also measure what each of the service's features costs (BENCH_FEATURES=1, features-run.ts):
   * read by uid with wrk, whatever `wrk` says, after the other scenarios. It runs when
   * `scenarios` selects `features` too (as it does when empty); `BENCH_SCENARIOS=features`
   * runs it alone.
   */
  features: boolean;
  /** Users in the files of the import scenarios (BENCH_IMPORT_USERS). */
  importUsers: number;
  /** Also seed 1,000,000 users and compare lookups (BENCH_SCALE=1). */
  scale: boolean;
  scaleUsers: number;
  /** Run read-by-uid and create under `node --cpu-prof` (BENCH_PROFILE=1). */
  profile: boolean;
  /** Where the service's log lines go: a file in the output folder, or /dev/null (BENCH_LOG). */
  log: 'file' | 'null';
  /**
   * Settings laid over the service's production defaults (BENCH_SERVICE_ENV, e.g.
   * `LOG_LEVEL=warn,AUTH_MODE=none`): for measuring what one setting costs. Empty by default.
   */
  serviceEnv: Readonly<Record<string, string>>;
  /** Write docs/performance.md and docs/performance.svg (BENCH_DOCS=0 to skip). */
  writeDocs: boolean;
  /** The PostgreSQL server; each run creates its own database there and drops it (BENCH_POSTGRES_URL). */
  postgresUrl: string;
  /** Output folder: databases, logs, profiles, results (BENCH_OUT). */
  outDir: string;
  /** The repository root (the folder holding dist/ and docs/). */
  root: string;
}

type Env = Record<string, string | undefined>;

function positive(env: Env, name: string, fallback: number, min = Number.MIN_VALUE): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number of at least ${min === Number.MIN_VALUE ? 'just above 0' : min}, got ${JSON.stringify(raw)}`);
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!['0', '1', 'true', 'false'].includes(raw)) throw new Error(`${name} must be 0 or 1, got ${JSON.stringify(raw)}`);
  return raw === '1' || raw === 'true';
}

function assignments(env: Env, name: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const pair of list(env, name)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`${name}: ${JSON.stringify(pair)} is not NAME=VALUE`);
    result[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return result;
}

function list(env: Env, name: string): string[] {
  return (env[name] ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
}

export function loadBenchOptions(root: string, env: Env = process.env): Readonly<BenchOptions> {
  const stores = list(env, 'BENCH_STORES');
  for (const store of stores) {
    if (!(STORES as readonly string[]).includes(store)) throw new Error(`BENCH_STORES: unknown store ${JSON.stringify(store)}; use ${STORES.join(', ')}`);
  }
  const log = env.BENCH_LOG || 'file';
  if (log !== 'file' && log !== 'null') throw new Error('BENCH_LOG must be file or null');
  const scenarios = list(env, 'BENCH_SCENARIOS');
  const features = flag(env, 'BENCH_FEATURES', false);
  // Naming the measurement while it is off would seed and measure nothing: say so before the seeding.
  if (scenarios.includes('features') && !features) throw new Error('BENCH_SCENARIOS=features selects the features measurement, which runs only with BENCH_FEATURES=1');
  return Object.freeze({
    users: Math.floor(positive(env, 'BENCH_USERS', 100_000, 1)),
    durationS: positive(env, 'BENCH_DURATION_S', 5),
    warmupS: positive(env, 'BENCH_WARMUP_S', 1, 0),
    rounds: Math.floor(positive(env, 'BENCH_ROUNDS', 2, 1)),
    connections: Math.floor(positive(env, 'BENCH_CONNECTIONS', 32, 1)),
    wrk: flag(env, 'BENCH_WRK', true),
    wrkConnections: Math.floor(positive(env, 'BENCH_WRK_CONNECTIONS', 50, 1)),
    stores: Object.freeze(stores.length > 0 ? (stores as StoreKind[]) : [...STORES]),
    scenarios: Object.freeze(scenarios),
    features,
    importUsers: Math.floor(positive(env, 'BENCH_IMPORT_USERS', 100_000, 1)),
    scale: flag(env, 'BENCH_SCALE', false),
    scaleUsers: Math.floor(positive(env, 'BENCH_SCALE_USERS', 1_000_000, 1)),
    profile: flag(env, 'BENCH_PROFILE', false),
    log,
    serviceEnv: Object.freeze(assignments(env, 'BENCH_SERVICE_ENV')),
    writeDocs: flag(env, 'BENCH_DOCS', true),
    postgresUrl: env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    outDir: resolve(root, env.BENCH_OUT || 'bench/.out'),
    root,
  });
}
