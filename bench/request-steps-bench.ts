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
 *    service built with one step left out at a time (bench/request-steps-server.ts), and for
 *    the steps off by default (rate limit, CORS) with it turned on; the framework floor (bare
 *    Fastify over the raw store) closes the table. A step's cost is the CPU µs per request it
 *    adds to its row's base.
 *
 *   npm run bench:request-steps     (BENCH_USERS, BENCH_DURATION_S, BENCH_ROUNDS, BENCH_WARMUP_S as for npm run bench; BENCH_STEPS, BENCH_ONLY)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBenchOptions } from './bench-options.js';
import { freePort, killAll, startServer, type RunningServer } from './processes.js';
import type { WrkComparison } from './results.js';
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
  /** The row whose CPU per request this one is compared with. */
  base: string;
  /** The row turns a step on that the defaults leave off: its cost is its CPU minus its base's. */
  on?: boolean;
}

const RATE_LIMIT = { RATE_LIMIT_MAX: '1000000000', RATE_LIMIT_WINDOW_S: '60' };

const ROWS: readonly StepRow[] = [
  { id: 'all', step: 'every step (production defaults)', leaveOut: [], base: 'all' },
  { id: 'admission', step: 'admission (request id, one Host and Authorization, closing)', leaveOut: ['admission'], base: 'all' },
  { id: 'shedding', step: 'load shedding (event-loop delay)', leaveOut: ['shedding'], base: 'all' },
  { id: 'authentication', step: 'authentication (API key, SHA-256)', leaveOut: ['authentication'], base: 'all' },
  { id: 'rate-limit', step: 'rate limit (off by default; here on, in-process counters)', leaveOut: [], env: RATE_LIMIT, base: 'all', on: true },
  { id: 'access-log', step: 'access log line (info)', leaveOut: ['access-log'], base: 'all' },
  { id: 'metrics', step: 'metrics (request histogram, store timing)', leaveOut: ['metrics'], base: 'all' },
  { id: 'cors', step: 'CORS (off by default; here on, request without Origin)', leaveOut: [], env: { CORS_ORIGINS: 'https://console.example.test' }, base: 'all', on: true },
  { id: 'compression', step: 'compression decision', leaveOut: ['compression'], base: 'all' },
  { id: 'scim-error-format', step: "SCIM's error format (onSend)", leaveOut: ['scim-error-format'], base: 'all' },
  { id: 'representation-headers', step: 'conditional headers and ETag (If-None-Match, ETag, Content-Location, Cache-Control, Feed-Position)', leaveOut: ['metrics', 'representation-headers'], base: 'metrics' },
  { id: 'response-schema', step: 'serialisation (response schemas)', leaveOut: ['response-schema'], base: 'all' },
  { id: 'store-call', step: 'the store call (lookup, SQLite)', leaveOut: ['store-call'], base: 'all' },
  { id: 'everything', step: 'all of the above left out', leaveOut: ['admission', 'shedding', 'authentication', 'access-log', 'metrics', 'compression', 'scim-error-format', 'representation-headers', 'response-schema', 'store-call'], base: 'all' },
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
const line = (name: string, c: WrkComparison, extra = '') =>
  `| ${name} | ${Math.round(c.service.rps).toLocaleString('en')} | ${Math.round(c.baseline.rps).toLocaleString('en')} | **${c.ratio.toFixed(2)}** | ${us(c.service.cpuUsPerRequest)} | ${us(c.baseline.cpuUsPerRequest)} |${extra}`;

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
      out.push('', '| step | row req/s | raw req/s | ratio | row CPU µs/req | raw CPU µs/req | step costs µs/req |', '|---|---|---|---|---|---|---|');
      const cpu = new Map<string, number>();
      for (const row of ROWS) {
        if (only.length > 0 && row.id !== 'all' && row.id !== row.base && !only.some((id) => row.id.includes(id))) continue;
        if (only.length > 0 && row.base !== 'all' && !cpu.has(row.base)) continue;
        const server = await startStepServer(runDir, db.location, credentials, row);
        let c: WrkComparison;
        try {
          c = await alternateWrk(server, baseline, usernames, `[sqlite] ${row.id}`, 'sqlite', context);
        } finally {
          await server.stop();
        }
        cpu.set(row.id, c.service.cpuUsPerRequest);
        const base = cpu.get(row.base) ?? c.service.cpuUsPerRequest;
        const cost = row.id === row.base ? '' : us(row.on ? c.service.cpuUsPerRequest - base : base - c.service.cpuUsPerRequest);
        out.push(line(`${row.step}${row.id === row.base ? '' : row.on ? ' (on)' : ' (left out)'}`, c, ` ${cost} |`));
      }
      const floor = await startBaseline(options, runDir, db, { floor: true, name: 'fastify-floor-sqlite' });
      try {
        // The floor answers GET /users/{uid} only: compared on reads by uid.
        out.push(line('framework floor: bare Fastify route over the raw store (GET /users/{uid})', await alternateWrk(floor, baseline, uids, '[sqlite] floor', 'sqlite', context), ' |'));
      } finally {
        await floor.stop();
      }
    }
  } finally {
    await baseline.stop();
  }
  console.log(`\n${options.users.toLocaleString('en')} users, wrk -t1 -c${options.wrkConnections}, ${options.rounds} rounds of ${options.durationS} s per side after ${options.warmupS} s warm-ups, alternating with the raw read server:\n`);
  console.log(out.join('\n'));
} catch (error) {
  killAll();
  throw error;
} finally {
  rmSync(runDir, { recursive: true, force: true });
}
