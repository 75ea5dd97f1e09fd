/**
 * What one reader with a read-only key can do to everyone else (issue: "a reader must never
 * stall the service"): on a directory of BENCH_USERS seeded users, BENCH_ATTACKERS clients
 * (default 12) send the most expensive requests a reader may (a SCIM startIndex with no
 * remembered start, a broad `q` with count=true, three sort keys and limit=1000, sixteen
 * one-letter words) for BENCH_DURATION_S seconds, while one bystander reads users by uid one
 * after another. Reported per store: the bystander's latency (p50, p99, max) and statuses, and
 * how the expensive requests ended. The instance runs as `npm start` runs it (production
 * defaults: load shedding on, REQUEST_BUDGET_MS 5 s); the attackers run on a thread of their
 * own, so their work does not delay the bystander's client.
 *
 *   npm run bench:bystander      (BENCH_STORES, BENCH_USERS, BENCH_DURATION_S as for npm run bench; BENCH_ATTACKERS)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadBenchOptions } from './bench-options.js';
import { forEachStore } from './paired-services.js';
import { seededUid } from './seed-data.js';
import { seededDatabase } from './seeded-database.js';
import { makeCredentials, startService } from './servers.js';

const options = loadBenchOptions(process.cwd());
const attackers = Number(process.env.BENCH_ATTACKERS ?? 12);

/** The expensive requests, in turn: each attacker starts at another one. */
function expensivePaths(users: number): string[] {
  return [
    `/scim/v2/Users?startIndex=${Math.floor(users / 2)}&count=1`,
    `/scim/v2/Users?startIndex=9001&count=1&sortBy=name.familyName`,
    '/users?q=a&sort=-display_name,given_name,family_name&count=true&limit=1000',
    `/users?q=${[...'abcdefghijklmnop'].join('%20')}&count=true`,
  ];
}

/** The attackers' program, on a thread of its own: each sends the paths in turn until told to stop; it reports the statuses. */
const ATTACK = `
const { parentPort, workerData } = require('node:worker_threads');
const { baseUrl, headers, paths, attackers } = workerData;
let stop = false;
parentPort.on('message', () => (stop = true));
const counts = {};
Promise.all(Array.from({ length: attackers }, async (_, client) => {
  for (let i = client; !stop; i++) {
    const path = paths[i % paths.length];
    const response = await fetch(baseUrl + path, { headers });
    const body = await response.text();
    const type = response.status === 200 ? '' : ' ' + ((/"type":"([^"]+)"/.exec(body) || /"detail":"([^"]{0,40})/.exec(body) || [])[1] || '');
    const key = path.slice(0, 18) + '… ' + response.status + type;
    counts[key] = (counts[key] || 0) + 1;
  }
})).then(() => parentPort.postMessage(counts));
`;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;

await forEachStore(options, async (store) => {
  const runDir = mkdtempSync(join(tmpdir(), `bench-bystander-${store}-`));
  const db = await seededDatabase(options, store, runDir, 'bystander');
  try {
    const credentials = makeCredentials(runDir);
    const server = await startService(options, runDir, db, credentials, { name: `bystander-${store}` });
    try {
      const worker = new Worker(ATTACK, { eval: true, workerData: { baseUrl: server.baseUrl, headers: credentials.headers, paths: expensivePaths(options.users), attackers } });
      const attacked = new Promise<Record<string, number>>((resolve) => worker.once('message', resolve));
      const latencies: number[] = [];
      const statuses: Record<number, number> = {};
      const until = Date.now() + options.durationS * 1000;
      while (Date.now() < until) {
        const started = process.hrtime.bigint();
        const response = await fetch(`${server.baseUrl}/users/${seededUid(Math.floor(Math.random() * options.users))}`, { headers: credentials.headers });
        await response.arrayBuffer();
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      }
      worker.postMessage('stop');
      const counts = await attacked;
      await worker.terminate();
      latencies.sort((a, b) => a - b);
      console.log(
        `${store}: ${options.users.toLocaleString('en')} users, ${attackers} attackers for ${options.durationS} s: bystander ${latencies.length} reads by uid, ` +
          `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${percentile(latencies, 100).toFixed(1)} ms (target p99 <= 50), statuses ${JSON.stringify(statuses)}`,
      );
      for (const [what, n] of Object.entries(counts).sort()) console.log(`${store}:   expensive ${what}: ${n}`);
    } finally {
      await server.stop();
    }
  } finally {
    await db.drop();
    rmSync(runDir, { recursive: true, force: true });
  }
});
