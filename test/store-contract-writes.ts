/**
 * The UserStore contract of computed changes (PATCH) and Idempotency-Key
 * records, written once and run against every store (beside store-contract.ts):
 * a change computed inside the write, a change that writes nothing, keys claimed
 * with their write or not at all, expiry and purging.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { v7 as uuidv7 } from 'uuid';
import { IdempotencyKeyTaken, KeyConflictError } from '../src/store/store-errors.js';
import type { IdempotencyRecord, PendingIdempotency, UserStore } from '../src/store/user-store.js';
import { withDefaults, type User } from '../src/users/user.js';
import { withStore, type StoreHandle } from './store-contract.js';

let sequence = 0;
function newUser(overrides: Partial<User> = {}): User {
  sequence += 1;
  const now = new Date().toISOString();
  return withDefaults({ uid: uuidv7(), username: `writes${sequence}`, email_address: `writes${sequence}@example.com`, legacy_ids: [], display_name: null, attributes: {}, created_at: now, updated_at: now, version: 1, ...overrides });
}

function pending(name: string, overrides: Partial<PendingIdempotency> = {}): PendingIdempotency {
  return {
    scope: 'client-a',
    key: `${name}-${sequence++}`,
    fingerprint: 'f1',
    expiresAt: Date.now() + 60_000,
    respond: (user) => ({ status: 201, headers: { etag: `"${user.version}"` }, body: JSON.stringify(user) }),
    ...overrides,
  };
}

export function writeContractSuite(name: string, open: () => Promise<StoreHandle>): void {
  describe(`UserStore contract, computed changes and Idempotency-Keys: ${name}`, () => {
    let handle!: StoreHandle;
    let store!: UserStore;
    withStore(open, (opened) => ((handle = opened), (store = opened.store)));

    it('replace() with a function computes the change from the current user, inside the write', async () => {
      const user = await store.create(newUser({ display_name: 'Before' }));
      let seen: User | undefined;
      const outcome = await store.replace(user.uid, (current) => ((seen = current), { ...current, display_name: `${current.display_name} and after` }), new Date().toISOString());
      assert.deepEqual(seen, user);
      assert.equal(outcome.status, 'ok');
      assert.equal((await store.findByKey('uid', user.uid))?.display_name, 'Before and after');
      assert.equal((await store.findByKey('uid', user.uid))?.version, 2);
    });

    it('a change computing undefined writes nothing: same version, same updated_at', async () => {
      const user = await store.create(newUser());
      const outcome = await store.replace(user.uid, () => undefined, new Date(Date.now() + 5000).toISOString());
      assert.deepEqual(outcome, { status: 'ok', value: user });
      assert.deepEqual(await store.findByKey('uid', user.uid), user);
    });

    it('a change that throws abandons the write, and its error reaches the caller', async () => {
      const user = await store.create(newUser());
      const refusal = new Error('refused by the change');
      await assert.rejects(store.replace(user.uid, () => { throw refusal; }, new Date().toISOString()), (e: unknown) => e === refusal);
      assert.deepEqual(await store.findByKey('uid', user.uid), user);
    });

    it('create() with a key stores its answer in the same write; a second create with the key writes nothing', async () => {
      const key = pending('create');
      const user = await store.create(newUser(), key);
      const record = await store.findIdempotency(key.scope, key.key, Date.now());
      assert.deepEqual(record, { scope: key.scope, key: key.key, fingerprint: 'f1', expiresAt: key.expiresAt, response: key.respond(user) });
      const second = newUser();
      await assert.rejects(store.create(second, key), IdempotencyKeyTaken);
      assert.equal(await store.findByKey('uid', second.uid), undefined);
      assert.equal(await store.findByKey('username', second.username), undefined);
    });

    it('a create that conflicts on a user key keeps no record of its key', async () => {
      const holder = await store.create(newUser());
      const key = pending('conflict');
      await assert.rejects(store.create(newUser({ username: holder.username }), key), KeyConflictError);
      assert.equal(await store.findIdempotency(key.scope, key.key, Date.now()), undefined);
    });

    it('replace() with a key claims it before reading the user and stores the answer; not found or a refused precondition keeps no record', async () => {
      const user = await store.create(newUser());
      const key = pending('replace', { respond: (u) => ({ status: 200, headers: {}, body: String(u.version) }) });
      const outcome = await store.replace(user.uid, (current) => ({ ...current, display_name: 'Changed' }), new Date().toISOString(), undefined, key);
      assert.equal(outcome.status, 'ok');
      assert.equal((await store.findIdempotency(key.scope, key.key, Date.now()))?.response.body, '2');
      await assert.rejects(store.replace(user.uid, () => undefined, new Date().toISOString(), undefined, key), IdempotencyKeyTaken);

      const missing = pending('missing');
      assert.deepEqual(await store.replace(uuidv7(), () => undefined, new Date().toISOString(), undefined, missing), { status: 'not-found' });
      assert.equal(await store.findIdempotency(missing.scope, missing.key, Date.now()), undefined);
      const refused = pending('refused');
      assert.deepEqual(await store.replace(user.uid, () => undefined, new Date().toISOString(), () => false, refused), { status: 'precondition-failed' });
      assert.equal(await store.findIdempotency(refused.scope, refused.key, Date.now()), undefined);
    });

    it('keys are scoped: the same key under another scope is another key', async () => {
      const a = pending('scoped');
      await store.create(newUser(), a);
      await store.create(newUser(), { ...a, scope: 'client-b' });
      assert.equal((await store.findIdempotency('client-b', a.key, Date.now()))?.scope, 'client-b');
    });

    it('saveIdempotency() stores a record alone, refuses a key recorded and not expired, and replaces an expired one', async () => {
      const now = Date.now();
      const record: IdempotencyRecord = { scope: 'client-a', key: `saved-${sequence++}`, fingerprint: 'f', expiresAt: now + 1000, response: { status: 409, headers: { 'content-type': 'x' }, body: '{}' } };
      assert.equal(await store.saveIdempotency(record, now), true);
      assert.equal(await store.saveIdempotency({ ...record, fingerprint: 'other' }, now), false);
      assert.equal((await store.findIdempotency(record.scope, record.key, now))?.fingerprint, 'f');
      // Past its expiry the record is not found, and the key can be recorded again.
      assert.equal(await store.findIdempotency(record.scope, record.key, now + 1000), undefined);
      assert.equal(await store.saveIdempotency({ ...record, fingerprint: 'later', expiresAt: now + 5000 }, now + 1000), true);
      assert.equal((await store.findIdempotency(record.scope, record.key, now + 1000))?.fingerprint, 'later');
    });

    it('an expired key can be claimed by a write again', async () => {
      const now = Date.now();
      const key = pending('expired', { expiresAt: now - 1 });
      await store.create(newUser(), key);
      const again = newUser();
      await store.create(again, { ...key, fingerprint: 'f2', expiresAt: now + 60_000 });
      assert.equal((await store.findIdempotency(key.scope, key.key, Date.now()))?.fingerprint, 'f2');
    });

    it('purgeIdempotency() deletes expired records in batches of at most `limit`, and only those', async () => {
      const now = Date.now();
      const scope = `purge-${sequence++}`;
      for (let i = 0; i < 5; i++) await store.saveIdempotency({ scope, key: `old-${i}`, fingerprint: 'f', expiresAt: now - 10, response: { status: 201, headers: {}, body: '' } }, now - 20);
      await store.saveIdempotency({ scope, key: 'fresh', fingerprint: 'f', expiresAt: now + 60_000, response: { status: 201, headers: {}, body: '' } }, now);
      let purged = 0;
      for (let deleted = -1; deleted !== 0; purged += deleted) deleted = await store.purgeIdempotency(now, 2);
      assert.ok(purged >= 5, `purged ${purged}`);
      assert.ok(await store.findIdempotency(scope, 'fresh', now));
      assert.equal(await store.saveIdempotency({ scope, key: 'old-0', fingerprint: 'g', expiresAt: now + 1000, response: { status: 201, headers: {}, body: '' } }, now), true, 'a purged key is free');
    });

    it('records survive reopening the store', async () => {
      const key = pending('durable');
      await store.create(newUser(), key);
      store = await handle.reopen();
      assert.ok(await store.findIdempotency(key.scope, key.key, Date.now()));
    });
  });
}
