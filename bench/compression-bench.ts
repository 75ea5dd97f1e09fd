/**
 * What response compression costs and saves, on a directory of BENCH_USERS seeded
 * users, against a second instance of the same build with COMPRESSION=off on the
 * same database, both sent the Accept-Encoding a browser sends
 * (`gzip, deflate, br`):
 *
 * - a read by key, `GET /users/username:x`: a few hundred bytes with a strong
 *   ETag, never compressed; the goal is no loss of throughput (ratio ≥ 0.97, the
 *   spread of two runs of one build);
 * - a search page of 100 users, `GET /users?limit=100`: its bytes identity, gzip
 *   and br, and its throughput compressed against uncompressed, asked as a
 *   browser asks (which the service answers with gzip) and asking br alone.
 *
 *   npm run bench:compression   (BENCH_STORES, BENCH_USERS, BENCH_DURATION_S, BENCH_ROUNDS,
 *                                BENCH_WARMUP_S, BENCH_WRK_CONNECTIONS as for npm run bench)
 *
 * Load comes from wrk (bench/wrk/reads.lua; `apt-get install wrk`), whose rounds
 * alternate between the two instances (alternate.ts). Both run the production
 * defaults but for load shedding, which is off on both. wrk does not decode bodies,
 * so a compressed answer costs the client nothing and the ratio is the server's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alternateWith } from './alternate.js';
import { loadBenchOptions } from './bench-options.js';
import { forEachStore } from './paired-services.js';
import type { RunningServer } from './processes.js';
import type { Comparison } from './results.js';
import { seededFields } from './seed-data.js';
import { seededDatabase } from './seeded-database.js';
import { makeCredentials, startService } from './servers.js';
import { runWrk } from './wrk-load.js';

const options = loadBenchOptions(process.cwd());
const BROWSER = 'gzip, deflate, br';
const PAGE = '/users?limit=100';
const LOOKUPS = 10_000;

/** The bytes of one answer as sent (undecoded), and its Content-Encoding. */
function bytesOf(server: RunningServer, path: string, headers: Record<string, string>): Promise<{ status: number; bytes: number; coding: string }> {
  const url = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: url.hostname, port: url.port, path, headers, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, coding: String(res.headers['content-encoding'] ?? 'identity') }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** Throughput and the server's CPU per answer, which a busy machine disturbs less than throughput. */
const line = (label: string, c: Comparison) =>
  `${label}: compression on ${c.service.rps.toFixed(0)}/s, ${c.service.cpuUsPerRequest.toFixed(0)} CPU µs/req (p99 ${c.service.p99.toFixed(2)} ms); off ${c.baseline.rps.toFixed(0)}/s, ${c.baseline.cpuUsPerRequest.toFixed(0)} CPU µs/req (p99 ${c.baseline.p99.toFixed(2)} ms): ${c.ratio.toFixed(2)}x`;

await forEachStore(options, async (store) => {
  const runDir = mkdtempSync(join(tmpdir(), `bench-compression-${store}-`));
  const db = await seededDatabase(options, store, runDir, 'compression');
  const servers: RunningServer[] = [];
  try {
    const { location } = db;
    const credentials = makeCredentials(runDir);
    // Load shedding off on both sides: a shed answer (503) is cheap and would count as a fast one.
    const side = (env: Record<string, string>) => ({ ...options, serviceEnv: { ...options.serviceEnv, OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', ...env } });
    const on = await startService(side({}), runDir, { store, location }, credentials, { name: `compression-on-${store}` });
    servers.push(on);
    const off = await startService(side({ COMPRESSION: 'off' }), runDir, { store, location }, credentials, { name: `compression-off-${store}` });
    servers.push(off);

    const lookupPaths = Array.from({ length: LOOKUPS }, () => `/users/username:${encodeURIComponent(seededFields(Math.floor(Math.random() * options.users)).username)}`);
    const lookups = join(runDir, 'lookups.paths');
    writeFileSync(lookups, `${lookupPaths.join('\n')}\n`);
    const pages = join(runDir, 'pages.paths');
    writeFileSync(pages, `${PAGE}\n`);

    const sizes: string[] = [];
    for (const [what, path] of [['read by key', lookupPaths[0] as string], ['search page', PAGE]] as const) {
      for (const coding of ['identity', 'gzip', 'br']) {
        const answer = await bytesOf(on, path, { ...credentials.headers, 'accept-encoding': coding });
        if (answer.status !== 200) throw new Error(`${what}: GET ${path} answered ${answer.status}`);
        sizes.push(`${what} asked ${coding}: ${answer.bytes} bytes sent (${answer.coding})`);
      }
    }
    for (const size of sizes) console.log(`${store}: ${size}`);

    const measure = (pathsFile: string, acceptEncoding: string) => (server: RunningServer, durationS: number) =>
      runWrk(server, {
        script: join(options.root, 'bench/wrk/reads.lua'),
        pathsFile,
        connections: options.wrkConnections,
        durationS,
        headers: { ...credentials.headers, 'accept-encoding': acceptEncoding },
        logPath: join(runDir, `wrk-${store}.log`),
        cwd: runDir,
      });
    const read = await alternateWith(on, off, measure(lookups, BROWSER), { options, label: `[${store}] read by key (wrk)` });
    const pageBrowser = await alternateWith(on, off, measure(pages, BROWSER), { options, label: `[${store}] search page, gzip (wrk)` });
    const pageBr = await alternateWith(on, off, measure(pages, 'br'), { options, label: `[${store}] search page, br (wrk)` });
    console.log(`${store}: ${line('read by key', read)} (goal >= 0.97)`);
    console.log(`${store}: ${line(`search page of 100, ${BROWSER} (gzip)`, pageBrowser)}`);
    console.log(`${store}: ${line('search page of 100, br', pageBr)}`);
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await db.drop();
    rmSync(runDir, { recursive: true, force: true });
  }
});
