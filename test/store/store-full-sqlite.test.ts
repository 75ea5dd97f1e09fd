/**
 * A SQLite store out of space (issue 24, point 6): a write that meets a full
 * database fails with StoreFullError and changes nothing, a group commit that
 * fails fails every write in it, no write acknowledged before is lost, the write
 * probe fails while there is no room, and writes succeed again once there is.
 * The database is capped with max_page_count (store-full-helpers.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { v7 as uuidv7 } from 'uuid';
import type BetterSqlite3 from 'better-sqlite3';
import { StoreFullError } from '../../src/store/store-errors.js';
import { openSqliteUserStore } from '../../src/store/sqlite/sqlite-user-store.js';
import type { UserStore } from '../../src/store/user-store.js';
import { withDefaults, type User } from '../../src/users/user.js';
import { capGrowth, freeSpace, openedWithConnection } from './store-full-helpers.js';

let sequence = 0;
/** A user whose write takes several pages when `big` (its attributes are stored, and repeated in its representation and event). */
function newUser(big: boolean): User {
  sequence += 1;
  const now = new Date().toISOString();
  const attributes = big ? { filler: `${sequence}`.padEnd(6000, 'x') } : {};
  return { uid: uuidv7(), ...withDefaults({ username: `full${sequence}`, email_address: `full${sequence}@example.com`, legacy_ids: [], display_name: null, attributes }), created_at: now, updated_at: now, version: 1 };
}

const isStoreFull = (error: unknown) => error instanceof StoreFullError && (error.cause as { code?: string }).code === 'SQLITE_FULL';

let dir: string;
let path: string;
let store: UserStore;
let db: BetterSqlite3.Database;
/** Every write the store acknowledged. */
const acknowledged: User[] = [];
/** Every write the store refused. */
const refused: User[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'store-full-'));
  path = join(dir, 'users.db');
  ({ value: store, db } = await openedWithConnection(async () => openSqliteUserStore({ path }), () => path));
});
after(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function absent(user: User): Promise<void> {
  assert.equal(await store.findByKey('uid', user.uid), undefined, `refused user ${user.username} is absent`);
  assert.equal(await store.findByKey('username', user.username), undefined);
}

async function eventSubjects(): Promise<Set<string>> {
  const subjects = new Set<string>();
  for (let after = 0; ; ) {
    const page = await store.events.read(after, 1000);
    for (const event of page.events) subjects.add(event.subject);
    if (page.events.length === 0) return subjects;
    after = page.events.at(-1)!.position;
  }
}

it('a write that meets a full database fails with StoreFullError and changes nothing', async () => {
  for (let i = 0; i < 3; i++) acknowledged.push(await store.create(newUser(true)));
  capGrowth(db, 12);
  for (let i = 0; i < 200 && refused.length === 0; i++) {
    const user = newUser(true);
    try {
      acknowledged.push(await store.create(user));
    } catch (error) {
      assert.ok(isStoreFull(error), `a StoreFullError caused by SQLITE_FULL: ${String(error)}`);
      assert.equal((error as Error).message, 'the store is out of space');
      refused.push(user);
    }
  }
  assert.equal(refused.length, 1, 'the capped database filled up');
  await absent(refused[0]!);
  assert.equal(db.inTransaction, false);
});

it('a group commit whose transaction fails fails every write in it; a write rolled back alone is not in the database', async () => {
  const batch = [newUser(false), newUser(true), newUser(false), newUser(true)];
  // Queued in one turn: they share one transaction (group-commit.ts).
  const results = await Promise.allSettled(batch.map((user) => store.create(user)));
  results.forEach((result, i) => {
    if (result.status === 'fulfilled') acknowledged.push(batch[i]!);
    else {
      assert.ok(isStoreFull(result.reason), String(result.reason));
      refused.push(batch[i]!);
    }
  });
  assert.equal(results[1]!.status, 'rejected', 'a write of several pages finds no room');
  assert.equal(results[3]!.status, 'rejected');
  for (const user of refused) await absent(user);
  for (const user of acknowledged) assert.equal((await store.findByKey('uid', user.uid))?.username, user.username);
  assert.equal(db.inTransaction, false);
});

it('the write probe fails with StoreFullError while there is no room, and changes nothing', async () => {
  const pages = db.pragma('page_count', { simple: true });
  await assert.rejects(store.probeWrite(), isStoreFull);
  assert.equal(db.pragma('page_count', { simple: true }), pages);
  assert.equal(db.prepare("SELECT count(*) AS n FROM service_keys WHERE name = 'space-probe'").pluck().get(), 0);
});

it('no refused write left an event, and every acknowledged write has its own', async () => {
  const subjects = await eventSubjects();
  for (const user of refused) assert.equal(subjects.has(user.uid), false, `no event for refused ${user.username}`);
  for (const user of acknowledged) assert.ok(subjects.has(user.uid), `the event of ${user.username}`);
});

it('once space is freed the probe and writes succeed, and every acknowledged write is still there after a reopen', async () => {
  freeSpace(db);
  await store.probeWrite();
  assert.equal(db.prepare("SELECT count(*) AS n FROM service_keys WHERE name = 'space-probe'").pluck().get(), 0, 'the probe leaves nothing behind');
  const later = newUser(true);
  acknowledged.push(await store.create(later));
  // The same user as a refused one is written now: nothing of its refused write was left to conflict with.
  const retried = refused[0]!;
  await store.create(retried);
  acknowledged.push(retried);
  await store.close();
  store = openSqliteUserStore({ path });
  for (const user of acknowledged) assert.equal((await store.findByKey('uid', user.uid))?.username, user.username, `${user.username} survived`);
  for (const user of refused.slice(1)) await absent(user);
});
