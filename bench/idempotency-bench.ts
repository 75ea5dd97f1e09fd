/**
 * What an Idempotency-Key costs a create (issue 14's goal: at most 1.2× a create
 * without one, at full durability): two instances of the service, each on a
 * database of its own, take creates in alternating rounds; one with a new key on
 * every request, the other with none.
 *
 *   npm run bench:idempotency     (BENCH_STORES, BENCH_DURATION_S, BENCH_ROUNDS as for npm run bench;
 *                                  BENCH_IDEMPOTENCY_KEYS=v7 sends time-ordered keys;
 *                                  BENCH_IDEMPOTENCY_USERNAMES=random gives each user a username
 *                                  that sorts anywhere among the others, as real ones do;
 *                                  BENCH_PROFILE=1 then profiles a keyed and a plain instance
 *                                  under node --cpu-prof, each on a fresh database)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import type autocannon from 'autocannon';
import { alternate } from './alternate.js';
import { loadBenchOptions, type StoreKind } from './bench-options.js';
import { runLoad } from './load.js';
import { forEachStore, withPairedServices, type PairedServices } from './paired-services.js';
import { formatProfileSummary, summariseProfile } from './profile-summary.js';
import { startService } from './servers.js';

const options = loadBenchOptions(process.cwd());
/** BENCH_IDEMPOTENCY_KEYS=v7: time-ordered keys (UUIDv7) instead of random ones (UUIDv4, the default). */
const newKey = process.env.BENCH_IDEMPOTENCY_KEYS === 'v7' ? uuidv7 : randomUUID;
/**
 * Usernames (and the email addresses made from them) in creation order by default
 * (`idem.<tag>.<n>`: each lands beside the last in SQLite's key index, which makes a
 * plain create write fewer pages than real creates do); BENCH_IDEMPOTENCY_USERNAMES=random
 * puts a random prefix first, so each lands on a page of its own, like a directory's real names.
 */
const usernames = process.env.BENCH_IDEMPOTENCY_USERNAMES ?? 'consecutive';
if (usernames !== 'consecutive' && usernames !== 'random') throw new Error('BENCH_IDEMPOTENCY_USERNAMES must be consecutive or random');
const prefix = usernames === 'random' ? () => `${randomBytes(5).toString('hex')}.` : () => '';

function creates(tag: string, withKey: boolean): autocannon.Request[] {
  let n = 0;
  return [
    {
      method: 'POST',
      path: '/users',
      setupRequest: (request) => {
        const name = `${prefix()}idem.${tag}.${n++}`;
        const headers: Record<string, string> = { 'content-type': 'application/json', ...(withKey ? { 'idempotency-key': `"${newKey()}"` } : {}) };
        return { ...request, headers: { ...request.headers, ...headers }, body: JSON.stringify({ username: name, email_address: `${name}@bench.example`, display_name: 'Bench User' }) };
      },
    },
  ];
}

/** A keyed and a plain instance in turn under node --cpu-prof (unbundled, so files are named); prints each profile's summary with its CPU per request. */
async function profileBoth(store: StoreKind, pair: PairedServices): Promise<void> {
  if (store !== 'sqlite') {
    // A fresh database per profiled instance is simple only for files.
    console.log(`${store}: BENCH_PROFILE profiles SQLite only`);
    return;
  }
  for (const withKey of [true, false]) {
    const label = `${store}-${withKey ? 'with' : 'without'}-key`;
    const dir = join(pair.runDir, 'profiles', label);
    mkdirSync(dir, { recursive: true });
    const server = await startService(options, pair.runDir, { store, location: join(pair.runDir, `${label}.db`) }, pair.credentials, { name: label, unbundled: true, nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
    const measurement = await runLoad(server, { requests: creates(label, withKey), connections: options.connections, durationS: options.durationS, headers: pair.credentials.headers });
    await server.stop(); // the profile is written as the process exits
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no .cpuprofile was written to ${dir}`);
    const perRequest = (measurement.serverCpu / measurement.rps) * 1e6;
    console.log(formatProfileSummary(`[${label}] ${measurement.rps.toFixed(0)} creates/s under the profiler, ${perRequest.toFixed(0)} µs CPU per create`, summariseProfile(join(dir, file), options.root, 15)));
  }
}

await forEachStore(options, (store) =>
  withPairedServices(options, store, { names: ['with-key', 'without-key'] }, async (pair) => {
    const { a: keyed, b: plain, credentials } = pair;
    const result = await alternate(keyed, plain, (tag, server) => creates(tag, server === keyed), { options, headers: credentials.headers, label: `${store} creates, key vs none` });
    const cost = result.baseline.rps / result.service.rps;
    console.log(`${store}: creates with an Idempotency-Key ${result.service.rps.toFixed(0)}/s, without ${result.baseline.rps.toFixed(0)}/s: a keyed create costs ${cost.toFixed(2)}x (target <= 1.20)`);
    if (options.profile) await profileBoth(store, pair);
  }),
);
