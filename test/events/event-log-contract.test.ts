/**
 * The change feed's storage contract (src/events/event-log.ts), on both stores:
 * one event per committed write, in the write's transaction, with positions that
 * only grow; reads that tell the position they reflect; retention; relay progress;
 * leadership; CHANGE_FEED=off.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { v7 as uuidv7 } from 'uuid';
import type { StoredEvent } from '../../src/events/event-log.js';
import { openPostgresUserStore } from '../../src/store/postgres/postgres-user-store.js';
import { KeyConflictError } from '../../src/store/store-errors.js';
import { openSqliteUserStore } from '../../src/store/sqlite/sqlite-user-store.js';
import type { UserStore } from '../../src/store/user-store.js';
import type { User, UserFields } from '../../src/users/user.js';
import { edit } from './feed-fixtures.js';
import { createTestDatabaseUrl, describeEachStore, openTestStoreAt, type StoreKind, type TestDatabaseUrl } from '../helpers/stores.js';
import { erasedEventData } from '../../src/store/erasure.js';
import { newUser as newUserNamed } from '../helpers/new-user.js';

let sequence = 0;
function newUser(overrides: Partial<UserFields> = {}): User {
  sequence += 1;
  return newUserNamed(`feed${sequence}`, undefined, overrides);
}

/** Every readable event after `after`, read in pages of `page`. */
async function readAll(store: UserStore, after = 0, page = 3): Promise<StoredEvent[]> {
  await store.events.settle();
  const events: StoredEvent[] = [];
  for (let position = after; ; ) {
    const { events: batch } = await store.events.read(position, page);
    events.push(...batch);
    if (batch.length < page) return events;
    position = batch[batch.length - 1]!.position;
  }
}

const openWithFeed = (kind: StoreKind, url: string, changeFeed: boolean): Promise<UserStore> | UserStore =>
  kind === 'postgres' ? openPostgresUserStore({ url, changeFeed }) : openSqliteUserStore({ path: url.slice('sqlite:'.length), changeFeed });

describeEachStore('change feed storage', (kind) => {
  let database: TestDatabaseUrl;
  let store: UserStore;
  before(async () => {
    database = await createTestDatabaseUrl(kind);
    store = await openTestStoreAt(kind, database.databaseUrl);
  });
  after(async () => {
    await store.close();
    await database.remove();
  });

  it('create, replace, patch and delete each append one event, in order, with the user as data', async () => {
    const start = await store.events.settle();
    const user = await store.create(newUser({ legacy_ids: ['crm:1'], attributes: { dept: 'ops' } }));
    const replaced = await store.replace(user.uid, edit(user, { display_name: 'Ada' }), new Date().toISOString());
    assert.equal(replaced.status, 'ok');
    const patched = await store.replace(user.uid, (current) => edit(current, { attributes: { ...current.attributes, floor: 3 } }), new Date().toISOString());
    assert.equal(patched.status, 'ok');
    const before = await readAll(store, start);
    assert.deepEqual(JSON.parse(before[0]!.data), user);
    assert.deepEqual(JSON.parse(before[1]!.data), replaced.status === 'ok' && replaced.value);
    assert.deepEqual(JSON.parse(before[2]!.data), patched.status === 'ok' && patched.value);
    assert.equal((await store.delete(user.uid)).status, 'ok');

    const events = await readAll(store, start);
    assert.deepEqual(events.map((e) => e.type), ['user.created', 'user.updated', 'user.updated', 'user.deleted']);
    assert.ok(events.every((e) => e.subject === user.uid));
    assert.deepEqual(events.map((e) => e.position), [start + 1, start + 2, start + 3, start + 4], 'positions follow one another');
    // The delete erased the earlier events in its own transaction: each keeps its version, nothing personal.
    assert.deepEqual(events.slice(0, 3).map((e) => e.data), [1, 2, 3].map((version) => erasedEventData(user.uid, version)));
    assert.deepEqual(events.map((e) => e.time), before.map((e) => e.time).concat(events[3]!.time), 'times are kept');
    assert.deepEqual(JSON.parse(events[3]!.data), { uid: user.uid, version: 3 });
    assert.equal(events[0]!.time, user.created_at);
    assert.ok(events.every((e) => e.origin === undefined), 'a write without an origin stores none');
    assert.equal(events[1]!.time, replaced.status === 'ok' ? replaced.value.updated_at : '');
    assert.ok(events.every((e) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(e.time)), 'RFC 3339 UTC with milliseconds');
  });

  it('every write keeps its origin with its event; an import without one is an import', async () => {
    const start = await store.events.settle();
    const rest = { interface: 'rest', credential: 'svc-a' } as const;
    const scim = { interface: 'scim', credential: 'okta-sub', client: 'okta-app' } as const;
    const user = await store.create(newUser(), undefined, rest);
    await store.replace(user.uid, edit(user, { display_name: 'By SCIM' }), new Date().toISOString(), undefined, undefined, scim);
    await store.importUsers([newUser()], 'fail', new Date().toISOString());
    await store.importUsers([newUser()], 'fail', new Date().toISOString(), undefined, { interface: 'import', credential: 'ops' });
    await store.delete(user.uid, undefined, rest);
    const events = await readAll(store, start);
    assert.deepEqual(
      events.map((e) => e.origin),
      [rest, scim, { interface: 'import' }, { interface: 'import', credential: 'ops' }, rest],
    );
  });

  it('a delete erases only its own user\'s events', async () => {
    const start = await store.events.settle();
    const kept = await store.create(newUser());
    const gone = await store.create(newUser());
    await store.delete(gone.uid);
    const events = await readAll(store, start);
    assert.deepEqual(JSON.parse(events[0]!.data), kept);
    assert.equal(events[1]!.data, erasedEventData(gone.uid, 1));
  });

  it('one user\'s history keeps every version through imports and single writes; a delete erases them all; an import of its uid again continues it', async () => {
    const user = newUser({ display_name: 'One' });
    const history = async () => {
      await store.events.settle();
      return (await store.events.read(0, 20, user.uid)).events;
    };
    const shown = async () => (await history()).map((e) => [e.type, (JSON.parse(e.data) as User).display_name ?? null, (JSON.parse(e.data) as User).version]);
    assert.equal((await store.importUsers([user], 'fail', new Date().toISOString()))[0]?.status, 'created');
    assert.equal((await store.importUsers([{ ...user, display_name: 'Two' }], 'merge', new Date().toISOString()))[0]?.status, 'updated');
    assert.equal((await store.replace(user.uid, (current) => edit(current, { display_name: 'Three' }), new Date().toISOString())).status, 'ok');
    assert.equal((await store.importUsers([{ ...user, display_name: 'Four' }], 'replace', new Date().toISOString()))[0]?.status, 'updated');
    assert.deepEqual(await shown(), [['user.created', 'One', 1], ['user.updated', 'Two', 2], ['user.updated', 'Three', 3], ['user.updated', 'Four', 4]]);
    const all = await readAll(store);
    assert.deepEqual(all.filter((e) => e.subject === user.uid).map((e) => e.data), (await history()).map((e) => e.data), 'the feed and the history agree');
    const second = (await history())[1]!.position;
    assert.deepEqual((await store.events.read(second, 20, user.uid)).events.map((e) => (JSON.parse(e.data) as User).version), [3, 4], 'a page after a position');

    assert.equal((await store.delete(user.uid)).status, 'ok');
    assert.deepEqual((await history()).map((e) => e.data), [1, 2, 3, 4].map((version) => erasedEventData(user.uid, version)).concat(JSON.stringify({ uid: user.uid, version: 4 })));
    assert.equal((await store.importUsers([{ ...user, display_name: 'Again' }], 'fail', new Date().toISOString()))[0]?.status, 'created');
    const again = await history();
    assert.deepEqual(again.slice(0, 5).map((e) => e.type), ['user.created', 'user.updated', 'user.updated', 'user.updated', 'user.deleted']);
    assert.deepEqual(again.slice(5).map((e) => [e.type, (JSON.parse(e.data) as User).display_name]), [['user.created', 'Again']]);
    assert.equal((await store.delete(user.uid)).status, 'ok');
    assert.equal((await history()).filter((e) => e.type !== 'user.deleted').every((e) => JSON.parse(e.data).erased === true), true, 'the second delete erases the first life too');
  });

  it('a write that changes nothing or fails appends nothing', async () => {
    const user = await store.create(newUser());
    const start = await store.events.settle();
    assert.equal((await store.replace(user.uid, () => undefined, new Date().toISOString())).status, 'ok', 'an empty patch');
    await assert.rejects(store.create(newUser({ username: user.username })), KeyConflictError);
    assert.equal((await store.replace(user.uid, edit(user, { display_name: 'x' }), new Date().toISOString(), () => false)).status, 'precondition-failed');
    assert.equal((await store.replace(uuidv7(), edit(user, { display_name: 'x' }), new Date().toISOString())).status, 'not-found');
    assert.equal((await store.delete(uuidv7())).status, 'not-found');
    assert.deepEqual(await readAll(store, start), []);
  });

  it('an import appends one event per user it creates or updates, none for unchanged, skipped or conflicting ones', async () => {
    const existing = await store.create(newUser({ display_name: 'Before' }));
    const same = await store.create(newUser());
    const start = await store.events.settle();
    const fresh = newUser();
    const now = new Date().toISOString();
    const outcomes = await store.importUsers(
      [fresh, { ...newUser({ username: existing.username, email_address: existing.email_address }), display_name: 'After' }, { ...newUser({ username: same.username, email_address: same.email_address }) }],
      'replace',
      now,
    );
    assert.deepEqual(outcomes.map((o) => o.status), ['created', 'updated', 'unchanged']);
    const events = await readAll(store, start);
    assert.deepEqual(events.map((e) => [e.type, e.subject]).sort(), [['user.created', fresh.uid], ['user.updated', existing.uid]].sort());
    const updated = JSON.parse(events.find((e) => e.type === 'user.updated')!.data) as User;
    assert.equal(updated.display_name, 'After');
    assert.equal(updated.version, 2);
    assert.ok(events.every((e) => e.time === now));
    const skipped = await store.importUsers([newUser({ username: fresh.username })], 'skip', new Date().toISOString());
    assert.equal(skipped[0]!.status, 'conflict');
    assert.equal((await readAll(store, start)).length, 2);
  });

  it('reads tell the position they reflect: every event at or below it is in the answer', async () => {
    const user = await store.create(newUser());
    const position = await store.events.settle();
    const looked = await store.lookup('uid', user.uid);
    assert.equal(looked.position, position);
    assert.deepEqual(JSON.parse(looked.value?.json ?? 'null'), user);
    const missing = await store.lookup('username', 'nobody-feed');
    assert.equal(missing.value, undefined);
    assert.equal(missing.position, position);
    const page = await store.search({ filter: { username: user.username }, limit: 10 });
    assert.equal(page.position, position);
    assert.deepEqual(page.value, [user]);
  });

  it('reads page by position, report the latest position, and never return an event twice', async () => {
    const start = await store.events.settle();
    for (let i = 0; i < 7; i++) await store.create(newUser());
    const latest = await store.events.settle();
    assert.equal(latest, start + 7);
    const first = await store.events.read(start, 5);
    assert.equal(first.latest, latest);
    assert.deepEqual(first.events.map((e) => e.position), [1, 2, 3, 4, 5].map((i) => start + i));
    const rest = await store.events.read(start + 5, 5);
    assert.deepEqual(rest.events.map((e) => e.position), [start + 6, start + 7]);
    assert.deepEqual((await store.events.read(latest, 5)).events, []);
  });

  it('watchers hear of this process\'s writes with a position at or beyond them', async () => {
    const heard: number[] = [];
    let resolve!: () => void;
    const reached = new Promise<void>((r) => (resolve = r));
    const target = (await store.events.settle()) + 1;
    const stop = store.events.watch((position) => {
      heard.push(position);
      if (position >= target) resolve();
    });
    try {
      await store.create(newUser());
      await reached;
      assert.ok(heard.every((p, i) => i === 0 || p >= heard[i - 1]!), 'announced positions never go back');
    } finally {
      stop();
    }
  });

  it('retention deletes the oldest events by count or age, remembers the horizon, and never passes notAfter', async () => {
    for (let i = 0; i < 5; i++) await store.create(newUser());
    const latest = await store.events.settle();
    // Keep the newest 3, but never beyond latest - 4: the bound wins.
    let deleted = 0;
    for (let n; (n = await store.events.prune({ keep: 3, notAfter: latest - 4 }, 2)) > 0; ) deleted += n;
    let page = await store.events.read(0, 1000);
    assert.equal(page.prunedThrough, latest - 4);
    assert.equal(page.events[0]!.position, latest - 3);
    assert.ok(deleted > 0);
    // Without the bound, only the newest 3 stay.
    while ((await store.events.prune({ keep: 3 }, 2)) > 0);
    page = await store.events.read(0, 1000);
    assert.deepEqual(page.events.map((e) => e.position), [latest - 2, latest - 1, latest]);
    assert.equal(page.prunedThrough, latest - 3);
    // By age: everything older than a time after the last event.
    while ((await store.events.prune({ before: new Date(Date.now() + 60_000).toISOString() }, 1000)) > 0);
    page = await store.events.read(0, 1000);
    assert.deepEqual(page.events, []);
    assert.equal(page.prunedThrough, latest);
    assert.equal(await store.events.latest(), latest, 'the latest position survives retention');
    // Positions are never reused once pruned.
    await store.create(newUser());
    assert.equal(await store.events.settle(), latest + 1);
  });

  it('retention by age deletes the oldest events older than the cutoff, oldest first, and keeps the rest', async () => {
    while ((await store.events.prune({ before: new Date(Date.now() + 60_000).toISOString() }, 1000)) > 0);
    const start = await store.events.settle();
    const at = (minute: number) => new Date(Date.UTC(2020, 0, 1, 0, minute)).toISOString();
    // Imports at chosen times: the events carry them. The third is written with a later time than the fourth.
    for (const minute of [0, 1, 5, 2]) {
      const user = { ...newUser(), created_at: at(minute), updated_at: at(minute) };
      await store.importUsers([user], 'skip', at(minute));
    }
    assert.equal(await store.events.settle(), start + 4);
    assert.equal(await store.events.prune({ before: at(3) }, 1000), 2, 'the two oldest; the later-time third stops the run');
    let page = await store.events.read(0, 1000);
    assert.deepEqual(page.events.map((e) => e.time), [at(5), at(2)]);
    assert.equal(page.prunedThrough, start + 2);
    // Batches: at most `limit` per call, oldest first.
    assert.equal(await store.events.prune({ before: at(10) }, 1), 1);
    page = await store.events.read(0, 1000);
    assert.deepEqual(page.events.map((e) => e.time), [at(2)]);
  });

  it('relay progress is kept per relay name', async () => {
    assert.equal(await store.events.relayPosition('nats'), 0);
    await store.events.setRelayPosition('nats', 41);
    await store.events.setRelayPosition('other', 7);
    assert.equal(await store.events.relayPosition('nats'), 41);
    assert.equal(await store.events.relayPosition('other'), 7);
  });

  it('one leader at a time among processes sharing the store; another takes over once it lets go', async () => {
    const other = await openTestStoreAt(kind, database.databaseUrl);
    const mine = store.leadership('relay-test');
    const theirs = other.leadership('relay-test');
    try {
      assert.equal(await mine.tryAcquire(), true);
      assert.equal(mine.isLeader(), true);
      assert.equal(await theirs.tryAcquire(), false);
      assert.equal(await mine.tryAcquire(), true, 'the leader keeps its leadership');
      await mine.release();
      assert.equal(mine.isLeader(), false);
      assert.equal(await theirs.tryAcquire(), true);
      assert.equal(await mine.tryAcquire(), false);
    } finally {
      await mine.release();
      await theirs.release();
      await other.close();
    }
  });

  it('with CHANGE_FEED=off writes append nothing (for measuring the feed\'s cost only)', async () => {
    const off = await openWithFeed(kind, database.databaseUrl, false);
    try {
      const start = await store.events.settle();
      const user = await off.create(newUser());
      await off.replace(user.uid, edit(user, { display_name: 'x' }), new Date().toISOString());
      await off.importUsers([newUser()], 'skip', new Date().toISOString());
      await off.delete(user.uid);
      assert.deepEqual(await readAll(store, start), []);
    } finally {
      await off.close();
    }
  });
});
