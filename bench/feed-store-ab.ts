/**
 * What the change feed costs a create in the SQLite store itself, without HTTP: creates of
 * HR-shaped people (seed-data.ts) through `store.create`, BENCH_AB_CONCURRENCY in flight
 * (group commit, `synchronous=FULL`), on a store with the feed on and one with it off, in
 * alternating rounds after a warm-up of each; the ratio of the medians. With BENCH_BEFORE_DIST
 * (the `dist` folder of another build, e.g. the commit before a change, built with
 * `npx tsc -p . --outDir dist-before`), that build's store is measured the same way in the
 * same rounds, so both ratios share the machine's moment.
 *
 *   npx tsc -p . && node dist/bench/feed-store-ab.js
 *   (BENCH_AB_USERS per round, default 2000; BENCH_AB_ROUNDS, default 5; BENCH_AB_CONCURRENCY, default 64)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SqliteStoreOptions } from '../src/store/sqlite/sqlite-user-store.js';
import { openSqliteUserStore } from '../src/store/sqlite/sqlite-user-store.js';
import type { UserStore } from '../src/store/user-store.js';
import { newUid } from '../src/users/new-uid.js';
import { withDefaults } from '../src/users/user.js';
import { seededFields } from './seed-data.js';

const USERS = Number(process.env.BENCH_AB_USERS ?? 2000);
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_AB_CONCURRENCY ?? 64);
const BEFORE_DIST = process.env.BENCH_BEFORE_DIST;

type Open = (options: SqliteStoreOptions) => UserStore;

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

const builds: { name: string; open: Open }[] = [{ name: 'this build', open: openSqliteUserStore }];
if (BEFORE_DIST !== undefined) {
  const module = (await import(pathToFileURL(resolve(BEFORE_DIST, 'src/store/sqlite/sqlite-user-store.js')).href)) as { openSqliteUserStore: Open };
  builds.unshift({ name: `before (${BEFORE_DIST})`, open: module.openSqliteUserStore });
}

const dir = mkdtempSync(join(tmpdir(), 'feed-store-ab-'));
try {
  const sides = builds.flatMap((build, b) =>
    ([true, false] as const).map((changeFeed) => ({
      label: `${build.name}, feed ${changeFeed ? 'on' : 'off'}`,
      store: build.open({ path: join(dir, `${b}-${changeFeed}.db`), changeFeed }),
      rates: [] as number[],
    })),
  );
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
}
