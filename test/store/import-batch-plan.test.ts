/**
 * planBatch() against its contract, property-tested: over random stores and
 * random batches drawn from a small set of names (so records collide with the
 * store and with each other), its outcomes are those of importing the records
 * one at a time, and its writes, applied to the store, give the same users and
 * keys. The oracle below is a plain in-memory store driven by planImport().
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { planBatch, type BatchWrites } from '../../src/store/import-batch-plan.js';
import { planImport, updatedUser, updateOutcome, type ImportOutcome, type ImportUser, type OnConflict } from '../../src/store/import-plan.js';
import { withDefaults, keysOf, type User } from '../../src/users/user.js';

const NOW = '2026-01-01T00:00:00.000Z';
const UIDS = Array.from({ length: 6 }, (_, i) => `0190a7e4-0000-7000-8000-00000000000${i}`);

/** Users with fields from tiny alphabets: many share a key. */
const userArb = fc.record({
  uid: fc.constantFrom(...UIDS),
  username: fc.constantFrom('ann', 'ANN', 'bob', 'cy'),
  email_address: fc.constantFrom('a@x.io', 'b@x.io', 'B@X.io'),
  legacy_ids: fc.uniqueArray(fc.constantFrom('L1', 'L2', 'L3'), { maxLength: 2 }),
  display_name: fc.constantFrom(null, 'Ann', 'Bob'),
  attributes: fc.constantFrom({}, { a: 1 }),
  created_at: fc.constant('2025-01-01T00:00:00.000Z'),
  updated_at: fc.constant('2025-01-01T00:00:00.000Z'),
  version: fc.constantFrom(1, 2),
  external_id: fc.constantFrom(null, 'X1', 'X2'),
}).map((user) => withDefaults(user));

/** A record of a merge: a user and the members of it the record carried (always its username and email address, as an import requires). */
const mergeRecordArb = fc
  .tuple(userArb, fc.subarray(['legacy_ids', 'display_name', 'attributes', 'external_id'] as const))
  .map(([user, carried]): ImportUser => ({ ...user, given: Object.fromEntries(['username', 'email_address', ...carried].map((key) => [key, user[key as keyof User]])) }));

/** The users and key owners of a store. */
interface Store {
  users: Map<string, User>;
  owners: Map<string, string>;
}

const slot = (key: string, value: string) => `${key}\u0000${value}`;

/** A consistent store: users added while none of their uid and keys is taken. */
function storeOf(candidates: User[]): Store {
  const store: Store = { users: new Map(), owners: new Map() };
  for (const user of candidates) {
    const keys = keysOf(user).map((k) => slot(k.key, k.value));
    if (store.users.has(user.uid) || keys.some((k) => store.owners.has(k))) continue;
    store.users.set(user.uid, user);
    for (const k of keys) store.owners.set(k, user.uid);
  }
  return store;
}

function clone(store: Store): Store {
  return { users: new Map(store.users), owners: new Map(store.owners) };
}

function put(store: Store, user: User): void {
  const previous = store.users.get(user.uid);
  if (previous) for (const k of keysOf(previous)) store.owners.delete(slot(k.key, k.value));
  store.users.set(user.uid, user);
  for (const k of keysOf(user)) store.owners.set(slot(k.key, k.value), user.uid);
}

/** The oracle: one record at a time, each seeing the writes before it. */
function oneByOne(store: Store, users: ImportUser[], onConflict: OnConflict): ImportOutcome[] {
  const outcomes: ImportOutcome[] = [];
  for (const user of users) {
    const holders = [
      ...(store.users.has(user.uid) ? [{ key: 'uid' as const, uid: user.uid }] : []),
      ...keysOf(user).flatMap((k) => {
        const uid = store.owners.get(slot(k.key, k.value));
        return uid === undefined ? [] : [{ key: k.key, uid }];
      }),
    ];
    const plan = planImport(holders, onConflict);
    if (plan.action === 'conflict') {
      outcomes.push({ status: 'conflict', key: plan.key });
      if (onConflict === 'fail') break;
    } else if (plan.action === 'create') {
      put(store, user);
      outcomes.push({ status: 'created', uid: user.uid });
    } else {
      const update = updatedUser(user, store.users.get(plan.uid)!, NOW, onConflict);
      if ('next' in update && update.next) put(store, update.next);
      outcomes.push(updateOutcome(plan.uid, update));
    }
  }
  return outcomes;
}

/** Applies planned writes as one statement would: no key row touched twice, no write that breaks uniqueness or misses its row. */
function apply(store: Store, writes: BatchWrites): void {
  const touched = [...writes.keyInserts, ...writes.keyDeletes, ...writes.keyMoves].map((row) => slot(row.key, row.value));
  assert.equal(new Set(touched).size, touched.length, 'a key row is inserted, deleted or moved, never two of these');
  for (const user of writes.inserts) {
    assert.ok(!store.users.has(user.uid), `insert of an existing uid ${user.uid}`);
    store.users.set(user.uid, user);
  }
  for (const user of writes.updates) {
    assert.ok(store.users.has(user.uid), `update of a missing uid ${user.uid}`);
    store.users.set(user.uid, user);
  }
  for (const row of writes.keyDeletes) {
    assert.equal(store.owners.get(slot(row.key, row.value)), row.uid, 'a deleted key row exists');
    store.owners.delete(slot(row.key, row.value));
  }
  for (const row of writes.keyMoves) {
    assert.ok(store.owners.has(slot(row.key, row.value)), 'a moved key row exists');
    store.owners.set(slot(row.key, row.value), row.uid);
  }
  for (const row of writes.keyInserts) {
    assert.ok(!store.owners.has(slot(row.key, row.value)), `key ${row.key}=${row.value} inserted twice`);
    store.owners.set(slot(row.key, row.value), row.uid);
  }
}

/** What the store's holders query returns for the batch, and with `merge` or `replace` the holders' rows. */
function snapshotOf(store: Store, users: ImportUser[], onConflict: OnConflict) {
  const holders = [
    ...users.filter((u) => store.users.has(u.uid)).map((u) => ({ key: 'uid' as const, value: u.uid, uid: u.uid })),
    ...users.flatMap((u) => keysOf(u)).flatMap((k) => {
      const uid = store.owners.get(slot(k.key, k.value));
      return uid === undefined ? [] : [{ key: k.key, value: k.value, uid }];
    }),
  ];
  const rows = onConflict === 'merge' || onConflict === 'replace' ? [...new Set(holders.map((h) => h.uid))].map((uid) => store.users.get(uid)!) : [];
  return { holders, users: rows };
}

describe('planBatch', () => {
  it('gives the outcomes and the end state of importing the records one by one, for skip, fail, merge and replace', () => {
    const caseArb = fc.oneof(
      fc.tuple(fc.array(userArb, { minLength: 1, maxLength: 8 }), fc.constantFrom<OnConflict>('skip', 'fail', 'replace')),
      fc.tuple(fc.array(mergeRecordArb, { minLength: 1, maxLength: 8 }), fc.constant<OnConflict>('merge')),
    );
    fc.assert(
      fc.property(fc.array(userArb, { maxLength: 5 }), caseArb, (existing, [batch, onConflict]) => {
        const start = storeOf(existing);
        const expected = clone(start);
        const expectedOutcomes = oneByOne(expected, batch, onConflict);
        const plan = planBatch(batch, onConflict, NOW, snapshotOf(start, batch, onConflict));
        assert.deepEqual(plan.outcomes, expectedOutcomes);
        const actual = clone(start);
        apply(actual, plan.writes);
        assert.deepEqual(actual.users, expected.users);
        assert.deepEqual(actual.owners, expected.owners);
      }),
      { numRuns: 3000, seed: 20261122 },
    );
  });
});
