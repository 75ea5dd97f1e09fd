/**
 * What erasing data at rest costs (docs/security.md, "Erasure"; docs/performance.md, "Erasure"):
 *
 * - SQLite: the store's writes with `secure_delete` ON (the default: deleted content is
 *   overwritten with zeros) against OFF, on the same workload, in alternating rounds: each
 *   round creates BENCH_ERASURE_USERS users, patches each twice and deletes each (every
 *   delete erasing its three earlier events), BENCH_ERASURE_CONCURRENCY writes in flight.
 * - PostgreSQL: the same workload once, then `VACUUM` of the tables a delete touches (what
 *   marks the deleted and erased row versions' space free): its duration against the
 *   workload's own.
 *
 *   npm run bench:erasure     (BENCH_ERASURE_USERS, default 2000; BENCH_ERASURE_ROUNDS, default 3;
 *                              BENCH_ERASURE_CONCURRENCY, default 32; BENCH_STORES=sqlite,postgres;
 *                              BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { openPostgresUserStore } from '../src/store/postgres/postgres-user-store.js';
import { openSqliteUserStore } from '../src/store/sqlite/sqlite-user-store.js';
import type { UserStore } from '../src/store/user-store.js';
import { newUid } from '../src/users/new-uid.js';
import { withDefaults, type User } from '../src/users/user.js';
import { createScratchDatabase } from './postgres-database.js';

const USERS = Number(process.env.BENCH_ERASURE_USERS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ERASURE_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_ERASURE_CONCURRENCY ?? 32);
const STORES = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',');
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let serial = 0;
function newUser(): User {
  const n = serial++;
  const now = new Date().toISOString();
  return {
    ...withDefaults({ username: `erase${process.pid}u${n}`, email_address: `erase${n}.${process.pid}@example.com`, display_name: `Person ${n}`, legacy_ids: [`crm:${n}`], attributes: { note: 'x'.repeat(200) } }),
    uid: newUid(),
    created_at: now,
    updated_at: now,
    version: 1,
  } as User;
}

/** Runs `work` on 0 … count-1 with `CONCURRENCY` in flight. */
async function pool(count: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) await work(next++);
  }));
}

/** Creates, patches twice and deletes USERS users; returns the seconds it took. */
async function workload(store: UserStore): Promise<number> {
  const started = performance.now();
  await pool(USERS, async () => {
    const user = await store.create(newUser());
    for (const title of ['a', 'b']) await store.replace(user.uid, (current) => ({ ...current, display_name: `${current.display_name} ${title}` }), new Date().toISOString());
    await store.delete(user.uid);
  });
  return (performance.now() - started) / 1000;
}

async function sqlite(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'erasure-bench-'));
  try {
    const seconds: Record<'ON' | 'OFF', number[]> = { ON: [], OFF: [] };
    const stores = {
      ON: openSqliteUserStore({ path: join(dir, 'on.db'), secureDelete: 'ON' }),
      OFF: openSqliteUserStore({ path: join(dir, 'off.db'), secureDelete: 'OFF' }),
    };
    for (const side of ['ON', 'OFF'] as const) await workload(stores[side]); // warm-up, unmeasured
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of ['ON', 'OFF'] as const) {
        const s = await workload(stores[side]);
        seconds[side].push(s);
        console.log(`sqlite secure_delete=${side} round ${round + 1}: ${((USERS * 4) / s).toFixed(0)} writes/s`);
      }
    }
    await Promise.all(Object.values(stores).map((store) => store.close()));
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
    const on = (USERS * 4) / median(seconds.ON);
    const off = (USERS * 4) / median(seconds.OFF);
    console.log(`sqlite: secure_delete=ON ${on.toFixed(0)} writes/s, OFF ${off.toFixed(0)} writes/s: ON/OFF ${(on / off).toFixed(2)}x (median of ${ROUNDS} rounds of ${USERS} users: create, 2 patches, delete; ${CONCURRENCY} in flight)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresVacuum(): Promise<void> {
  const scratch = await createScratchDatabase(POSTGRES_URL, 'erasure');
  try {
    const store = await openPostgresUserStore({ url: scratch.url, poolMax: 10, statementTimeoutMs: 60_000, connectTimeoutMs: 5_000 });
    await workload(store); // warm-up
    const writes = await workload(store);
    await store.close();
    const sql = postgres(scratch.url, { max: 1, onnotice: () => {} });
    const started = performance.now();
    await sql.unsafe('VACUUM users, user_keys, user_emails, events, idempotency_keys');
    const vacuum = (performance.now() - started) / 1000;
    await sql.end({ timeout: 5 });
    console.log(
      `postgres: ${USERS} users created, patched twice and deleted in ${writes.toFixed(2)} s (${((USERS * 4) / writes).toFixed(0)} writes/s); ` +
        `VACUUM of the tables afterwards ${(vacuum * 1000).toFixed(0)} ms: ${(vacuum / writes).toFixed(3)}x the writes' time`,
    );
  } finally {
    await scratch.drop();
  }
}

if (STORES.includes('sqlite')) await sqlite();
if (STORES.includes('postgres')) await postgresVacuum();
