/**
 * What a read by key costs, step by step (issue 35, point 4). On a SQLite directory of
 * BENCH_USERS seeded people, wrk (1 thread, BENCH_WRK_CONNECTIONS connections, default 50)
 * sends reads by key to a service and to the raw read server (bench/baselines: node:http +
 * better-sqlite3, the store's own lookup SQL, the stored text written back) in alternation,
 * in the same run, and reports each side's throughput, the ratio and the server's CPU µs per
 * request (which holds steady when other work on the machine takes cores away).
 *
 * 1. `GET /users/username:<name>` and `GET /users/{uid}` against the service as `npm start`
 *    runs it (the bundle, production defaults: logging at info to a file, load shedding on),
 *    with API-key authentication on as a deployment has it.
 * 2. With BENCH_STEPS=1 (the default; 0 skips it), the lookup by username against the same
 *    service built with one of its plugins left out at a time (SERVICE_PLUGINS in src/app.ts
 *    minus that plugin: bench/request-steps-server.ts), or a step the plugins cannot leave
 *    out removed by the bench server itself, or, for the steps off by default (rate limit,
 *    CORS), turned on. Each such server is measured in
 *    alternation with its base (the service with every step, built the same way), not with the
 *    raw server: on a machine whose load changes by the minute, only rounds that alternate
 *    compare, and a step's cost is the difference of the pair's CPU µs per request: the
 *    median over the rounds of each round's difference with the base round next to it, and
 *    the smallest and largest of those differences (the spread: what the run can resolve). The
 *    service with every step left out, and the framework floor (bare Fastify over the raw
 *    store), are measured against the raw server.
 *
 *   npm run bench:request-steps     (BENCH_USERS, BENCH_DURATION_S, BENCH_ROUNDS, BENCH_WARMUP_S as for npm run bench; BENCH_STEPS, BENCH_ONLY)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBenchOptions } from './bench-options.js';
import { freePort, killAll, startServer, type RunningServer } from './processes.js';
import type { Measurement } from './load.js';
import { median, type WrkComparison } from './results.js';
import { SCENARIOS } from './scenarios.js';
import { seededDatabase } from './seeded-database.js';
import { makeCredentials, startBaseline, startService, type Credentials } from './servers.js';
import type { StoreRunContext } from './store-run.js';
import { alternateWrk, writeWrkPaths } from './wrk-run.js';

const options = loadBenchOptions(process.cwd());
const stepsMode = (process.env.BENCH_STEPS ?? '1') !== '0';
/** Only the rows whose id contains one of these (comma-separated); all when unset. */
const only = (process.env.BENCH_ONLY ?? '').split(',').filter((id) => id !== '');

interface StepRow {
  id: string;
  /** What the row measures, as the table names it. */
  step: string;
  leaveOut: readonly string[];
  env?: Record<string, string>;
  /** What the row's base leaves out (the base is measured in alternation with the row): nothing by default. */
  baseLeaveOut?: readonly string[];
  /** The row is measured against the raw server instead of a base. */
  againstRaw?: boolean;
  /** The row turns a step on that the defaults leave off: its cost is its CPU minus its base's. */
  on?: boolean;
}

const RATE_LIMIT = { RATE_LIMIT_MAX: '1000000000', RATE_LIMIT_WINDOW_S: '60' };

const ROWS: readonly StepRow[] = [
  { id: 'admission', step: 'admission (request id, one Host and Authorization, closing)', leaveOut: ['admission'] },
  { id: 'shedding', step: 'load shedding (event-loop delay)', leaveOut: ['load-shedding'] },
  { id: 'authentication', step: 'authentication (API key)', leaveOut: ['access-control'] },
  { id: 'rate-limit', step: 'rate limit (off by default; here on, in-process counters)', leaveOut: [], env: RATE_LIMIT, on: true },
  { id: 'access-log', step: 'access log line (info)', leaveOut: ['access-log'] },
  { id: 'turn-buffered-log', step: "the access line written through pino's default destination (SonicBoom), as before", leaveOut: ['turn-buffered-log'], on: true },
  { id: 'metrics', step: 'metrics (request histogram, store timing)', leaveOut: ['metrics'] },
  { id: 'cors', step: 'CORS (off by default; here on, request without Origin)', leaveOut: [], env: { CORS_ORIGINS: 'https://console.example.test' }, on: true },
  { id: 'compression', step: 'compression decision', leaveOut: ['compression'] },
  { id: 'scim-error-format', step: "SCIM's error format (onSend)", leaveOut: ['scim-error-format'] },
  { id: 'representation-headers', step: 'conditional headers and ETag (If-None-Match, ETag, Content-Location, Cache-Control, Feed-Position)', leaveOut: ['metrics', 'representation-headers'], baseLeaveOut: ['metrics'] },
  { id: 'response-schema', step: 'serialisation (response schemas)', leaveOut: ['response-schema'] },
  { id: 'store-call', step: 'the store call (lookup, SQLite)', leaveOut: ['store-call'] },
  { id: 'everything', step: 'all of the above left out', leaveOut: ['admission', 'load-shedding', 'access-control', 'access-log', 'metrics', 'compression', 'scim-error-format', 'representation-headers', 'response-schema', 'store-call'], againstRaw: true },
];

function startStepServer(runDir: string, location: string, credentials: Credentials, row: StepRow): Promise<RunningServer> {
  return freePort().then((port) =>
    startServer(
      {
        name: `steps-${row.id}`,
        args: [join(options.root, 'dist/bench/request-steps-server.js')],
        env: { HOST: '127.0.0.1', DATABASE_URL: `sqlite:${location}`, LOG_LEVEL: 'info', AUTH_MODE: 'api-key', API_KEYS_FILE: credentials.keysFile, BENCH_LEAVE_OUT: row.leaveOut.join(','), ...row.env },
        cwd: runDir,
        logPath: join(runDir, `steps-${row.id}.log`),
        readyPath: '/readyz',
      },
      port,
    ),
  );
}

const us = (n: number) => n.toFixed(1);
/**
 * Medians over the rounds, not means: on a shared machine one round in a few is taken by another
 * program's burst, and a mean would carry it into the row.
 */
const medianOf = (rounds: readonly Measurement[], of: (m: Measurement) => number) => median(rounds.map(of));
const rps = (rounds: readonly Measurement[]) => medianOf(rounds, (m) => m.rps);
const cpuUs = (rounds: readonly Measurement[]) => medianOf(rounds, (m) => (m.rps === 0 ? 0 : (m.serverCpu / m.rps) * 1e6));
/** Each round's CPU µs per request minus that of the other side's round run next to it: the step's cost as each pair of rounds saw it. */
const pairDifferences = (c: WrkComparison, sign: number) =>
  c.rounds.service.map((m, i) => {
    const other = c.rounds.baseline[i];
    return other === undefined ? undefined : sign * (cpuUs([other]) - cpuUs([m]));
  }).filter((d): d is number => d !== undefined);
const stepCost = (c: WrkComparison, on: boolean) => {
  const diffs = pairDifferences(c, on ? -1 : 1);
  return ` ${us(median(diffs))} | ${us(Math.min(...diffs))} … ${us(Math.max(...diffs))} |`;
};
const line = (name: string, c: WrkComparison, extra = '') =>
  `| ${name} | ${Math.round(rps(c.rounds.service)).toLocaleString('en')} | ${Math.round(rps(c.rounds.baseline)).toLocaleString('en')} | **${(rps(c.rounds.service) / rps(c.rounds.baseline)).toFixed(2)}** | ${us(cpuUs(c.rounds.service))} | ${us(cpuUs(c.rounds.baseline))} |${extra}`;

const runDir = mkdtempSync(join(tmpdir(), 'bench-request-steps-'));
try {
  const db = await seededDatabase(options, 'sqlite', runDir, 'request-steps');
  const credentials = makeCredentials(runDir);
  const context: StoreRunContext = { options, runDir, credentials, cleanups: [] };
  const baseline = await startBaseline(options, runDir, db);
  const scenario = (name: string) => SCENARIOS.find((s) => s.name === name)?.path ?? (() => { throw new Error(`no scenario ${name}`); })();
  const usernames = writeWrkPaths('sqlite', 'lookup-username', scenario('lookup-username'), context);
  const uids = writeWrkPaths('sqlite', 'read-uid', scenario('read-uid'), context);
  const out: string[] = [];
  try {
    const service = await startService(options, runDir, db, credentials, { name: 'service-sqlite' });
    try {
      out.push('| read | service req/s | raw req/s | ratio | service CPU µs/req | raw CPU µs/req |', '|---|---|---|---|---|---|');
      for (const [name, paths] of [['GET /users/username:{name}', usernames], ['GET /users/{uid}', uids]] as const) {
        out.push(line(name, await alternateWrk(service, baseline, paths, `[sqlite] ${name}`, 'sqlite', context)));
      }
    } finally {
      await service.stop();
    }
    if (stepsMode) {
      out.push('', '| step | row req/s | base req/s | ratio | row CPU µs/req | base CPU µs/req | step costs µs/req (median of round pairs) | spread of round pairs |', '|---|---|---|---|---|---|---|---|');
      const bases = new Map<string, RunningServer>();
      const baseFor = async (leaveOut: readonly string[]) => {
        const key = leaveOut.join(',');
        let base = bases.get(key);
        if (base === undefined) {
          base = await startStepServer(runDir, db.location, credentials, { id: `base${key === '' ? '' : `-${key}`}`, step: 'base', leaveOut });
          bases.set(key, base);
        }
        return base;
      };
      try {
        for (const row of ROWS) {
          if (only.length > 0 && !only.some((id) => row.id.includes(id))) continue;
          const other = row.againstRaw ? baseline : await baseFor(row.baseLeaveOut ?? []);
          const server = await startStepServer(runDir, db.location, credentials, row);
          let c: WrkComparison;
          try {
            c = await alternateWrk(server, other, usernames, `[sqlite] ${row.id}`, 'sqlite', context);
          } finally {
            await server.stop();
          }
          const name = `${row.step}${row.on ? ' (on)' : ' (left out)'}${row.againstRaw ? ', against the raw server' : ''}${row.baseLeaveOut ? `, against the service without ${row.baseLeaveOut.join(', ')}` : ''}`;
          out.push(line(name, c, row.againstRaw ? ' | |' : stepCost(c, row.on === true)));
        }
      } finally {
        for (const base of bases.values()) await base.stop();
      }
      const floor = await startBaseline(options, runDir, db, { floor: true, name: 'fastify-floor-sqlite' });
      try {
        // The floor answers GET /users/{uid} only: compared on reads by uid.
        out.push(line('framework floor: bare Fastify route over the raw store (GET /users/{uid}), against the raw server', await alternateWrk(floor, baseline, uids, '[sqlite] floor', 'sqlite', context), ' | |'));
      } finally {
        await floor.stop();
      }
    }
  } finally {
    await baseline.stop();
  }
  console.log(`\n${options.users.toLocaleString('en')} users, wrk -t1 -c${options.wrkConnections}, ${options.rounds} rounds of ${options.durationS} s per side after ${options.warmupS} s warm-ups, alternating; medians of the rounds:\n`);
  console.log(out.join('\n'));
} catch (error) {
  killAll();
  throw error;
} finally {
  rmSync(runDir, { recursive: true, force: true });
}
