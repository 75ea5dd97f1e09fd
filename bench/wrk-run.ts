/**
 * The wrk rounds of one read by key: a file of request paths drawn by the
 * scenario's own path function, then wrk (wrk-load.ts) against the service and
 * the baseline in alternation, as the autocannon rounds are (alternate.ts).
 * Both sides send the same file. The features measurement (features-run.ts)
 * uses the same two steps with servers of its own.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alternateWith } from './alternate.js';
import type { StoreKind } from './bench-options.js';
import type { RunningServer } from './processes.js';
import type { WrkComparison } from './results.js';
import type { Scenario } from './scenarios.js';
import type { StoreRunContext } from './store-run.js';
import { wrkTargets } from './targets.js';
import { runWrk, wrkSeconds, WRK_THREADS } from './wrk-load.js';

/**
 * Paths in the file: one per seeded user, within these bounds. At the default 100,000
 * users a round then reaches about as many distinct users as autocannon's fresh picks
 * do, and wrk formats them all at start in a fraction of a second.
 */
const MIN_PATHS = 20_000;
const MAX_PATHS = 100_000;

/** A file of request paths for wrk, which cycles through them. */
export interface WrkPaths {
  file: string;
  count: number;
}

/** Writes the file `wrk-<store>-<name>.paths` of fresh paths drawn by `path` from the seeded users. */
export function writeWrkPaths(store: StoreKind, name: string, path: NonNullable<Scenario['path']>, { options, runDir }: StoreRunContext): WrkPaths {
  const count = Math.max(MIN_PATHS, Math.min(options.users, MAX_PATHS));
  const file = join(runDir, `wrk-${store}-${name}.paths`);
  writeFileSync(file, Array.from({ length: count }, () => `${path(options.users)}\n`).join(''));
  return { file, count };
}

/** wrk rounds of the requests in `paths` against `a` and `b`: warm-ups, then alternating rounds (alternate.ts). No targets. */
export async function alternateWrk(a: RunningServer, b: RunningServer, paths: WrkPaths, label: string, store: StoreKind,
  { options, runDir, credentials }: StoreRunContext): Promise<WrkComparison> {
  const spec = {
    script: join(options.root, 'bench/wrk/reads.lua'),
    pathsFile: paths.file,
    connections: options.wrkConnections,
    headers: credentials.headers,
    logPath: join(runDir, `wrk-${store}.log`),
    cwd: runDir,
  };
  const comparison = await alternateWith(a, b, (server, durationS) => runWrk(server, { ...spec, durationS }), { options, label });
  return { ...comparison, threads: WRK_THREADS, connections: options.wrkConnections, durationS: wrkSeconds(options.durationS), paths: paths.count };
}

/** The wrk rounds of the scenario `name`, whose requests are GETs of `path(users)`, with its targets. */
export async function measureWithWrk(name: string, path: NonNullable<Scenario['path']>, store: StoreKind,
  service: RunningServer, baseline: RunningServer, context: StoreRunContext): Promise<WrkComparison> {
  const paths = writeWrkPaths(store, name, path, context);
  const comparison = await alternateWrk(service, baseline, paths, `[${store}] ${name} (wrk)`, store, context);
  const targets = wrkTargets(store, name);
  return { ...comparison, ...(targets === undefined ? {} : { target: targets.ratio, p99TargetMs: targets.p99Ms }) };
}
