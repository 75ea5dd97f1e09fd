/**
 * Everything measured for one store: seed, cold starts, every scenario against
 * the service and the baseline in alternation (the reads by key with wrk too),
 * page cost by depth, lookups at the scale size, what each feature costs, and
 * CPU profiles.
 */
import { join } from 'node:path';
import { alternate } from './alternate.js';
import type { BenchOptions, StoreKind } from './bench-options.js';
import { featuresSelected, measureFeatures } from './features-run.js';
import { depthPaths, fixedRequest } from './page-depth.js';
import { createScratchDatabase, durabilitySettings } from './postgres-database.js';
import type { RunningServer } from './processes.js';
import { profileStore } from './profile-run.js';
import { type FloorResult, type PageDepthResult, type ScaleResult, type ScenarioResult, type StoreResult } from './results.js';
import { nameSelected, SCENARIOS, selectScenarios, type Scenario } from './scenarios.js';
import { seedPostgres } from './seed-postgres.js';
import { seedSqlite, type SeedResult } from './seed-sqlite.js';
import { startBaseline, startService, type Credentials, type Database } from './servers.js';
import { GOALS, SCALE_SCENARIOS, targetRatio } from './targets.js';
import { measureWithWrk } from './wrk-run.js';

/** Cold starts measured for the time to ready (besides the main start). */
const COLD_STARTS = 5;
const MB = 1024 * 1024;

export interface StoreRunContext {
  options: Readonly<BenchOptions>;
  runDir: string;
  credentials: Credentials;
  /** Run at the end of the whole run, also after a failure (drops databases). */
  cleanups: (() => Promise<void>)[];
}

async function seededDatabase(store: StoreKind, users: number, { options, runDir, cleanups }: StoreRunContext): Promise<{ db: Database; seed: SeedResult }> {
  console.log(`[${store}] seeding ${users.toLocaleString('en')} users`);
  let db: Database;
  let seed: SeedResult;
  if (store === 'sqlite') {
    db = { store, location: join(runDir, `sqlite-${users}.db`) };
    seed = seedSqlite(db.location, users);
  } else {
    const scratch = await createScratchDatabase(options.postgresUrl, String(users));
    cleanups.push(() => scratch.drop());
    db = { store, location: scratch.url };
    seed = await seedPostgres(scratch.url, users);
  }
  const phases = Object.entries(seed.phases).map(([name, s]) => `${name} ${s.toFixed(1)} s`).join(', ');
  console.log(`[${store}] seeded in ${seed.seconds.toFixed(1)} s (${seed.usersPerSecond.toFixed(0)} users/s; ${phases}; ${seed.cpuSeconds.toFixed(1)} s CPU)`);
  return { db, seed };
}

async function coldStarts(db: Database, context: StoreRunContext): Promise<number[]> {
  const readyMs: number[] = [];
  for (let i = 0; i < COLD_STARTS; i++) {
    const service = await startService(context.options, context.runDir, db, context.credentials, { name: `${db.store}-start-${i}` });
    readyMs.push(service.readyMs);
    await service.stop();
  }
  return readyMs;
}

async function measureScenario(scenario: Scenario, store: StoreKind, service: RunningServer, baseline: RunningServer, context: StoreRunContext): Promise<ScenarioResult> {
  const users = context.options.users;
  const comparison = await alternate(service, baseline, (tag) => scenario.requests({ users, tag }), {
    options: context.options,
    headers: context.credentials.headers,
    label: `[${store}] ${scenario.name}`,
  });
  const target = targetRatio(store, scenario.name);
  // The reads by key, once more with wrk, right after their autocannon rounds.
  const wrk = scenario.path && context.options.wrk ? await measureWithWrk(scenario.name, scenario.path, store, service, baseline, context) : undefined;
  return {
    name: scenario.name, title: scenario.title, kind: scenario.kind, unit: scenario.unit, ...comparison,
    ...(target === undefined ? {} : { target }), ...(wrk === undefined ? {} : { wrk }),
  };
}

async function measurePageDepth(store: StoreKind, service: RunningServer, baseline: RunningServer, context: StoreRunContext): Promise<PageDepthResult> {
  const { headers } = context.credentials;
  const size = context.options.users;
  const [servicePaths, baselinePaths] = await Promise.all(
    [service, baseline].map((server) => depthPaths(server.baseUrl, headers, GOALS.depthPages, GOALS.depthPageSize, size)),
  );
  const pathsOf = (server: RunningServer) => (server === service ? servicePaths : baselinePaths) as NonNullable<typeof servicePaths>;
  const common = { options: context.options, headers };
  const first = await alternate(service, baseline, (_tag, server) => fixedRequest(pathsOf(server).first), { ...common, label: `[${store}] page at depth 1` });
  const depth = servicePaths?.depth ?? 1;
  const deep = await alternate(service, baseline, (_tag, server) => fixedRequest(pathsOf(server).deep), { ...common, label: `[${store}] page at depth ${depth}` });
  return { depth, pageSize: GOALS.depthPageSize, first, deep };
}

/** The framework floor against the raw baseline on read by uid: how much of the gap Fastify itself explains. */
async function measureFloor(store: StoreKind, db: Database, baseline: RunningServer, context: StoreRunContext): Promise<FloorResult> {
  const floor = await startBaseline(context.options, context.runDir, db, { floor: true });
  try {
    const scenario = SCENARIOS.find((s) => s.name === 'read-uid') as Scenario;
    const users = context.options.users;
    const comparison = await alternate(floor, baseline, (tag) => scenario.requests({ users, tag }), {
      options: context.options,
      headers: context.credentials.headers,
      label: `[${store}] read-uid (framework floor)`,
    });
    return { scenario: scenario.title, ...comparison };
  } finally {
    await floor.stop();
  }
}

/**
 * Lookups against two fresh services, one on the main database and one on a
 * database of `scaleUsers`, in alternation: both processes have served exactly
 * the same requests, so only the table size differs.
 */
async function measureScale(store: StoreKind, smallDb: Database, context: StoreRunContext): Promise<ScaleResult> {
  const { options } = context;
  const { db, seed } = await seededDatabase(store, options.scaleUsers, context);
  const small = await startService(options, context.runDir, smallDb, context.credentials, { name: `${store}-service-${options.users}` });
  const large = await startService(options, context.runDir, db, context.credentials, { name: `${store}-service-${options.scaleUsers}` });
  try {
    const lookups: ScaleResult['lookups'] = [];
    for (const name of SCALE_SCENARIOS) {
      const scenario = SCENARIOS.find((s) => s.name === name) as Scenario;
      const comparison = await alternate(
        small,
        large,
        (tag, server) => scenario.requests({ users: server === large ? options.scaleUsers : options.users, tag }),
        { options, headers: context.credentials.headers, label: `[${store}] ${name} (scale)` },
      );
      lookups.push({ name, title: scenario.title, small: comparison.service, large: comparison.baseline });
    }
    return { users: options.scaleUsers, seed, readyMs: large.readyMs, peakRssMB: large.peakRssBytes() / MB, lookups };
  } finally {
    await small.stop();
    await large.stop();
  }
}

export async function runStore(store: StoreKind, context: StoreRunContext): Promise<StoreResult> {
  const { options } = context;
  const { db, seed } = await seededDatabase(store, options.users, context);
  const durability = store === 'postgres'
    ? await durabilitySettings(options.postgresUrl)
    : { journal_mode: 'WAL', synchronous: 'FULL (the service default, set on every open)', filesystem: 'see the machine section' };
  const scenarios = selectScenarios(options.scenarios);
  const pageDepth = nameSelected('page-depth', options.scenarios);
  const floor = nameSelected('framework-floor', options.scenarios);
  const features = featuresSelected(options);
  // The features start a service per row: measured alone, they need no main service nor its cold starts.
  const onlyFeatures = features && scenarios.length === 0 && !pageDepth && !floor;
  const readyMs = onlyFeatures ? [] : await coldStarts(db, context);
  const service = onlyFeatures ? undefined : await startService(options, context.runDir, db, context.credentials, { name: `${store}-service` });
  const baseline = await startBaseline(options, context.runDir, db);
  const result: StoreResult = {
    store, users: options.users, seed, durability, readyMs: service ? [service.readyMs, ...readyMs] : [], baselineReadyMs: baseline.readyMs,
    servicePeakRssMB: 0, baselinePeakRssMB: 0, scenarios: [], profiles: [],
  };
  try {
    if (service) {
      for (const scenario of scenarios.filter((s) => s.kind === 'read')) result.scenarios.push(await measureScenario(scenario, store, service, baseline, context));
      // Before any write, so depth 10,000 is the same rows on both sides.
      if (pageDepth) result.pageDepth = await measurePageDepth(store, service, baseline, context);
    }
    if (floor) result.floor = await measureFloor(store, db, baseline, context);
    if (options.scale) result.scale = await measureScale(store, db, context);
    if (service) {
      for (const scenario of scenarios.filter((s) => s.kind !== 'read')) result.scenarios.push(await measureScenario(scenario, store, service, baseline, context));
      result.servicePeakRssMB = service.peakRssBytes() / MB;
      // The features' rows start services of their own: this one is done.
      await service.stop();
    }
    // The peaks are those of the scenarios: taken before the features' rounds add to the baseline's.
    result.baselinePeakRssMB = baseline.peakRssBytes() / MB;
    if (features) result.features = await measureFeatures(store, db, baseline, context);
  } finally {
    // stop() on a process that has already exited returns at once.
    await service?.stop();
    await baseline.stop();
  }
  if (options.profile) result.profiles = await profileStore(store, db, context);
  return result;
}
