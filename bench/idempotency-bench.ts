/**
 * What an Idempotency-Key costs a create (issue 14's goal: at most 1.2× a create
 * without one, at full durability): two instances of the service, each on a
 * database of its own, take creates in alternating rounds; one with a new key on
 * every request, the other with none.
 *
 *   npm run bench:idempotency     (BENCH_STORES, BENCH_DURATION_S, BENCH_ROUNDS as for npm run bench;
 *                                  BENCH_IDEMPOTENCY_KEYS=v7 sends time-ordered keys)
 */
import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type autocannon from 'autocannon';
import { alternate } from './alternate.js';
import { loadBenchOptions } from './bench-options.js';
import { forEachStore, withPairedServices } from './paired-services.js';

const options = loadBenchOptions(process.cwd());
/** BENCH_IDEMPOTENCY_KEYS=v7: time-ordered keys (UUIDv7) instead of random ones (UUIDv4, the default). */
const newKey = process.env.BENCH_IDEMPOTENCY_KEYS === 'v7' ? uuidv7 : randomUUID;

function creates(tag: string, withKey: boolean): autocannon.Request[] {
  let n = 0;
  return [
    {
      method: 'POST',
      path: '/users',
      setupRequest: (request) => {
        const name = `idem.${tag}.${n++}`;
        const headers: Record<string, string> = { 'content-type': 'application/json', ...(withKey ? { 'idempotency-key': `"${newKey()}"` } : {}) };
        return { ...request, headers: { ...request.headers, ...headers }, body: JSON.stringify({ username: name, email_address: `${name}@bench.example`, display_name: 'Bench User' }) };
      },
    },
  ];
}

await forEachStore(options, (store) =>
  withPairedServices(options, store, { names: ['with-key', 'without-key'] }, async ({ a: keyed, b: plain, credentials }) => {
    const result = await alternate(keyed, plain, (tag, server) => creates(tag, server === keyed), { options, headers: credentials.headers, label: `${store} creates, key vs none` });
    const cost = result.baseline.rps / result.service.rps;
    console.log(`${store}: creates with an Idempotency-Key ${result.service.rps.toFixed(0)}/s, without ${result.baseline.rps.toFixed(0)}/s: a keyed create costs ${cost.toFixed(2)}x (target <= 1.20)`);
  }),
);
