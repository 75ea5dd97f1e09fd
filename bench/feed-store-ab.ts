/**
 * What the change feed costs a create in the store itself, without HTTP: creates of
 * HR-shaped people (seed-data.ts) through `store.create`, BENCH_AB_CONCURRENCY in flight
 * (SQLite: group commit, `synchronous=FULL`; PostgreSQL with BENCH_AB_STORE=postgres: a
 * database of its own per side on BENCH_POSTGRES_URL), on a store with the feed on and one with it off, in
 * alternating rounds after a warm-up of each; the ratio of the medians. With BENCH_BEFORE_DIST
 * (the `dist` folder of another build, e.g. the commit before a change, built with
 * `npx tsc -p . --outDir dist-before`), that build's store is measured the same way in the
 * same rounds, so both ratios share the machine's moment.
 *
 *   npx tsc -p . && node dist/bench/feed-store-ab.js
 *   (BENCH_AB_USERS per round, default 2000; BENCH_AB_ROUNDS, default 5; BENCH_AB_CONCURRENCY, default 64;
 *    BENCH_AB_STORE, sqlite (default) or postgres; BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PostgresStoreOptions } from '../src/store/postgres/postgres-user-store.js';
import { openPostgresUserStore } from '../src/store/postgres/postgres-user-store.js';
import type { SqliteStoreOptions } from '../src/store/sqlite/sqlite-user-store.js';
import { openSqliteUserStore } from '../src/store/sqlite/sqlite-user-store.js';
import { createScratchDatabase, type ScratchDatabase } from './postgres-database.js';
import type { UserStore } from '../src/store/user-store.js';
import { newUid } from '../src/users/new-uid.js';
import { withDefaults } from '../src/users/user.js';
import { seededFields } from './seed-data.js';

const USERS = Number(process.env.BENCH_AB_USERS ?? 2000);
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_AB_CONCURRENCY ?? 64);
const BEFORE_DIST = process.env.BENCH_BEFORE_DIST;
const POSTGRES = process.env.BENCH_AB_STORE === 'postgres';
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Opens one side's store: `name` its file or database, `changeFeed` the feed on or off. */
type Open = (name: string, changeFeed: boolean) => Promise<UserStore>;
type OpenSqlite = (options: SqliteStoreOptions) => UserStore;
type OpenPostgres = (options: PostgresStoreOptions) => Promise<UserStore>;

const dir = mkdtempSync(join(tmpdir(), 'feed-store-ab-'));
const databases: ScratchDatabase[] = [];

/** The opener of a build's store (its module `src/store/<store>/<store>-user-store.js`). */
function opener(sqlite: OpenSqlite, pg: OpenPostgres): Open {
  if (!POSTGRES) return async (name, changeFeed) => sqlite({ path: join(dir, `${name}.db`), changeFeed });
  return async (name, changeFeed) => {
    const database = await createScratchDatabase(POSTGRES_URL, `feed_ab_${name}`);
    databases.push(database);
    return pg({ url: database.url, changeFeed });
  };
}

let serial = 0;

/** Creates USERS people; returns creates per second. */
async function round(store: UserStore): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < USERS) {
      const now = new Date().toISOString();
      await store.create(withDefaults({ ...seededFields(serial++), uid: newUid(), created_at: now, updated_at: now, version: 1 }));
    }
  }));
  return USERS / ((performance.now() - started) / 1000);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const builds: { name: string; open: Open }[] = [{ name: 'this build', open: opener(openSqliteUserStore, openPostgresUserStore) }];
if (BEFORE_DIST !== undefined) {
  const sqlite = (await import(pathToFileURL(resolve(BEFORE_DIST, 'src/store/sqlite/sqlite-user-store.js')).href)) as { openSqliteUserStore: OpenSqlite };
  const pg = (await import(pathToFileURL(resolve(BEFORE_DIST, 'src/store/postgres/postgres-user-store.js')).href)) as { openPostgresUserStore: OpenPostgres };
  builds.unshift({ name: `before (${BEFORE_DIST})`, open: opener(sqlite.openSqliteUserStore, pg.openPostgresUserStore) });
}

try {
  const sides: { label: string; store: UserStore; rates: number[] }[] = [];
  for (const [b, build] of builds.entries()) {
    for (const changeFeed of [true, false]) {
      sides.push({ label: `${build.name}, feed ${changeFeed ? 'on' : 'off'}`, store: await build.open(`${b}_${changeFeed}`, changeFeed), rates: [] });
    }
  }
  for (const side of sides) await round(side.store); // warm-up, unmeasured
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of sides) {
      side.rates.push(await round(side.store));
      console.log(`round ${r + 1}: ${side.label}: ${(side.rates[r] as number).toFixed(0)} creates/s`);
    }
  }
  for (const side of sides) await side.store.close();
  for (let i = 0; i < sides.length; i += 2) {
    const on = median((sides[i] as (typeof sides)[number]).rates);
    const off = median((sides[i + 1] as (typeof sides)[number]).rates);
    console.log(`${(sides[i] as (typeof sides)[number]).label.replace(', feed on', '')}: feed on ${on.toFixed(0)}/s, off ${off.toFixed(0)}/s: on/off ${(on / off).toFixed(2)} (median of ${ROUNDS} rounds of ${USERS} creates, ${CONCURRENCY} in flight)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  for (const database of databases) await database.drop();
}
