/**
 * What each of the service's per-request features costs (BENCH_FEATURES=1):
 * read by uid, driven by wrk, against one service process per entry of
 * FEATURE_SETTINGS (its settings laid over the production defaults), then
 * against the framework floor (bare Fastify). Each is measured in alternation
 * with the store's raw baseline, already running, as the other wrk rounds are,
 * so every row has its own same-run ratio to raw and rows stay comparable while
 * the machine drifts between them.
 *
 * BENCH_SERVICE_ENV does not apply here: each row's settings take its place, so
 * the first row is the production defaults whatever it says.
 */
import type { BenchOptions, StoreKind } from './bench-options.js';
import type { RunningServer } from './processes.js';
import type { FeatureCost, FeaturesResult } from './results.js';
import { nameSelected, SCENARIOS } from './scenarios.js';
import { startBaseline, startService, type Database } from './servers.js';
import type { StoreRunContext } from './store-run.js';
import { alternateWrk, writeWrkPaths } from './wrk-run.js';

interface FeatureSetting {
  /** Part of the process's name (and so of its log file). */
  id: string;
  settings: Record<string, string>;
  /** What the settings turn off, where their names do not say it. */
  note?: string;
}

/** The service's rows, in the report's order: the defaults, each feature off alone, then all of them off. */
const FEATURE_SETTINGS: readonly FeatureSetting[] = [
  { id: 'defaults', settings: {} },
  { id: 'log-warn', settings: { LOG_LEVEL: 'warn' }, note: 'no access line' },
  { id: 'auth-none', settings: { AUTH_MODE: 'none' } },
  { id: 'overload-off', settings: { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' } },
  { id: 'all-off', settings: { LOG_LEVEL: 'warn', AUTH_MODE: 'none', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' }, note: 'all three off' },
];

/** Whether the run measures the features: BENCH_FEATURES=1 and BENCH_SCENARIOS selects `features` (an empty one does). */
export function featuresSelected(options: Readonly<BenchOptions>): boolean {
  return options.features && nameSelected('features', options.scenarios);
}

/**
 * The rows for one store. `baseline` is the raw baseline on `db`; it stays up.
 * Each row's server is started here and stopped before the next one starts.
 */
export async function measureFeatures(store: StoreKind, db: Database, baseline: RunningServer, context: StoreRunContext): Promise<FeaturesResult> {
  const { options, runDir, credentials } = context;
  const scenario = SCENARIOS.find((s) => s.name === 'read-uid');
  if (scenario?.path === undefined) throw new Error('the read-uid scenario has no path function to draw wrk paths from');
  // One file for every row: each sends the same requests in the same order.
  const paths = writeWrkPaths(store, 'features', scenario.path, context);
  const rows: FeatureCost[] = [];
  const measure = async (server: RunningServer, row: Pick<FeatureCost, 'server' | 'settings' | 'note'>) => {
    try {
      const comparison = await alternateWrk(server, baseline, paths, `[${store}] features (wrk)`, store, context);
      rows.push({ ...row, ...comparison });
    } finally {
      await server.stop();
    }
  };
  for (const { id, settings, note } of FEATURE_SETTINGS) {
    const service = await startService({ ...options, serviceEnv: settings }, runDir, db, credentials, { name: `${store}-features-${id}` });
    await measure(service, { server: 'service', settings, ...(note === undefined ? {} : { note }) });
  }
  const floor = await startBaseline(options, runDir, db, { floor: true, name: `${store}-features-floor` });
  await measure(floor, { server: 'framework-floor', settings: {} });
  return { scenario: scenario.title, rows };
}
