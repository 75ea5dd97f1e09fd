/**
 * The UserStore contract suite: written once, run against every store adapter.
 * It checks the invariants stated in src/store/user-store.ts.
 */
import assert from 'node:assert/strict';
import { queryWords } from '../src/users/search-words.js';
import { after, before, describe, it } from 'node:test';
import { v7 as uuidv7 } from 'uuid';
import { canon } from '../src/users/canonical.js';
import { KeyConflictError, StoreUnavailableError } from '../src/store/store-errors.js';
import type { UserStore } from '../src/store/user-store.js';
import { keysOf, withDefaults, WRITABLE_KEYS, type LookupKey, type User, type UserFields } from '../src/users/user.js';
import { representationOf } from '../src/users/user-representation.js';
import { MARK_TTL_MS } from '../src/store/page-marks.js';

export interface StoreHandle {
  store: UserStore;
  /** Closes the store and opens a new one over the same data. */
  reopen(): Promise<UserStore>;
  /** Closes what is open and removes the data. */
  cleanup(): Promise<void>;
}

let sequence = 0;
function fields(overrides: Partial<UserFields> = {}): UserFields {
  sequence += 1;
  return withDefaults({
    username: `contract${sequence}`,
    email_address: `contract${sequence}@example.com`,
    legacy_ids: [],
    display_name: null,
    attributes: {},
    ...overrides,
  });
}

function newUser(overrides: Partial<UserFields> = {}): User {
  const now = new Date().toISOString();
  return { uid: uuidv7(), ...fields(overrides), created_at: now, updated_at: now, version: 1 };
}

async function rejectsWithKey(promise: Promise<unknown>, key: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => error instanceof KeyConflictError && error.key === key);
}

/** Opens the store before a suite's tests (handing it to `use`) and cleans it up after them. */
export function withStore(open: () => Promise<StoreHandle>, use: (handle: StoreHandle) => void): void {
  let handle: StoreHandle | undefined;
  before(async () => {
    handle = await open();
    use(handle);
  });
  after(async () => handle?.cleanup());
}

export function storeContractSuite(name: string, open: () => Promise<StoreHandle>): void {
  describe(`UserStore contract: ${name}`, () => {
    let handle!: StoreHandle;
    let store!: UserStore;
    withStore(open, (opened) => ((handle = opened), (store = opened.store)));

    it('create(user) returns the user and get(uid) reads it back unchanged', async () => {
      const user = newUser({ legacy_ids: ['L-1', 'crm:77'], display_name: 'Ann', attributes: { deep: { list: [1, 'two', null] } } });
      assert.deepEqual(await store.create(user), user);
      assert.deepEqual(await store.findByKey('uid', user.uid), user);
    });

    it('keeps attributes exactly as written, member order included', async () => {
      const user = await store.create(newUser({ attributes: { zeta: 1, alpha: { y: [true, null], b: 'two' }, mid: 1.5 } }));
      const read = await store.findByKey('uid', user.uid);
      assert.equal(JSON.stringify(read?.attributes), JSON.stringify(user.attributes));
    });

    it('get(uid) and findByKey() return undefined when nothing matches', async () => {
      assert.equal(await store.findByKey('uid', uuidv7()), undefined);
      assert.equal(await store.findByKey('username', 'nobody-here'), undefined);
      assert.equal(await store.findByKey('legacy_id', 'nothing'), undefined);
    });

    it('findByKey finds a user by every key in its compared form', async () => {
      const user = await store.create(newUser({ username: 'Zoë.K', email_address: 'Zoe.K+x@Example.COM', legacy_ids: ['A:1', 'a:1 '.trim()] }));
      assert.equal((await store.findByKey('uid', user.uid))?.uid, user.uid);
      assert.equal((await store.findByKey('username', canon('ZOË.k')))?.uid, user.uid);
      assert.equal((await store.findByKey('email_address', canon('zoe.k+X@example.com')))?.uid, user.uid);
      assert.equal((await store.findByKey('legacy_id', 'A:1'))?.uid, user.uid);
      assert.equal((await store.findByKey('legacy_id', 'a:1'))?.uid, user.uid);
      assert.equal(await store.findByKey('legacy_id', 'A:1 '), undefined, 'legacy ids match exactly');
    });

    it('create() with a taken username (in any case) throws KeyConflictError(username) and writes nothing', async () => {
      const first = await store.create(newUser({ username: 'Taken' }));
      const second = newUser({ username: 'tAKEN', legacy_ids: ['only-in-second'] });
      await rejectsWithKey(store.create(second), 'username');
      assert.equal(await store.findByKey('uid', second.uid), undefined);
      assert.equal(await store.findByKey('email_address', canon(second.email_address)), undefined);
      assert.equal(await store.findByKey('legacy_id', 'only-in-second'), undefined);
      assert.deepEqual(await store.findByKey('uid', first.uid), first);
    });

    it('create() with a taken email address or legacy id names that key', async () => {
      const first = await store.create(newUser({ email_address: 'Shared@Example.com', legacy_ids: ['dup-1'] }));
      await rejectsWithKey(store.create(newUser({ email_address: 'shared@example.COM' })), 'email_address');
      await rejectsWithKey(store.create(newUser({ legacy_ids: ['x-free', 'dup-1'] })), 'legacy_id');
      assert.equal(await store.findByKey('legacy_id', 'x-free'), undefined);
      assert.deepEqual(await store.findByKey('uid', first.uid), first);
    });

    it('concurrent writes: each conflicting write fails alone, every other one is committed', async () => {
      const base = await store.create(newUser({ username: 'burst-taken' }));
      const burst = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? newUser({ username: `BURST-TAKEN` }) : newUser({ legacy_ids: [`burst:${i}`] })));
      const settled = await Promise.allSettled([
        ...burst.map((user) => store.create(user)),
        store.replace(base.uid, fields({ username: 'burst-taken', display_name: 'during the burst' }), new Date().toISOString()),
        store.delete(uuidv7()),
      ]);
      burst.forEach((user, i) => {
        const result = settled[i]!;
        if (i % 4 === 0) assert.ok(result.status === 'rejected' && result.reason instanceof KeyConflictError && result.reason.key === 'username', `write ${i}`);
        else assert.equal(result.status, 'fulfilled', `write ${i}`);
      });
      assert.equal(settled[40]!.status, 'fulfilled');
      assert.deepEqual((settled[41] as PromiseFulfilledResult<unknown>).value, { status: 'not-found' });
      for (const [i, user] of burst.entries()) {
        const stored = await store.findByKey('uid', user.uid);
        if (i % 4 === 0) assert.equal(stored, undefined);
        else assert.deepEqual(stored, user);
      }
      assert.equal((await store.findByKey('uid', base.uid))?.display_name, 'during the burst');
    });

    it('values of different keys may overlap: the key decides', async () => {
      const a = await store.create(newUser({ username: 'overlap', legacy_ids: ['someone'] }));
      const b = await store.create(newUser({ username: 'someone', legacy_ids: ['overlap'] }));
      assert.equal((await store.findByKey('username', 'overlap'))?.uid, a.uid);
      assert.equal((await store.findByKey('legacy_id', 'overlap'))?.uid, b.uid);
      assert.equal((await store.findByKey('username', 'someone'))?.uid, b.uid);
      assert.equal((await store.findByKey('legacy_id', 'someone'))?.uid, a.uid);
    });

    it('replace() swaps the writable fields, keeps created_at, bumps version and frees the old keys', async () => {
      const user = await store.create(newUser({ username: 'before', legacy_ids: ['old-1', 'keep-1'] }));
      const next = fields({ username: 'after', legacy_ids: ['keep-1', 'new-1'], display_name: 'D', attributes: { k: true } });
      const now = new Date(Date.now() + 1000).toISOString();
      const outcome = await store.replace(user.uid, next, now);
      assert.equal(outcome.status, 'ok');
      const expected: User = { ...user, ...next, updated_at: now, version: 2 };
      assert.deepEqual(outcome.status === 'ok' && outcome.value, expected);
      assert.deepEqual(await store.findByKey('uid', user.uid), expected);
      assert.equal(await store.findByKey('username', 'before'), undefined);
      assert.equal(await store.findByKey('legacy_id', 'old-1'), undefined);
      assert.equal((await store.findByKey('legacy_id', 'new-1'))?.uid, user.uid);
      // A freed key can be taken by another user at once.
      await store.create(newUser({ username: 'BEFORE', legacy_ids: ['old-1'] }));
    });

    it('replace() keeps the addresses the user keeps, drops those it drops and adds the new (the email filter finds exactly those)', async () => {
      const emails = (...values: string[]) => values.map((value, i) => ({ value, type: 'work', primary: i === 0 }));
      const user = await store.create(newUser({ emails: emails('Kept@example.com', 'gone@example.com') }));
      const holders = async (address: string) => (await store.search({ filter: { email: canon(address) }, limit: 10 })).value.map((u) => u.uid);
      const outcome = await store.replace(user.uid, fields({ email_address: user.email_address, username: user.username, emails: emails('kept@example.com', 'new@example.com') }), user.updated_at);
      assert.equal(outcome.status, 'ok');
      assert.deepEqual(await holders('kept@example.com'), [user.uid]);
      assert.deepEqual(await holders('new@example.com'), [user.uid]);
      assert.deepEqual(await holders('gone@example.com'), []);
      assert.deepEqual(await holders(user.email_address), [user.uid], 'the primary address is among them, as before');
    });

    it('a change keeps the words and facets it keeps, drops those it drops and adds the new, by a replace and by an import merge (search finds exactly those)', async () => {
      const tag = `t${Date.now().toString(36)}`;
      const uids = async (filter: Parameters<UserStore['search']>[0]['filter']) => (await store.search({ filter, limit: 10 })).value.map((u) => u.uid);
      const user = await store.create(newUser({ display_name: `${tag}kept ${tag}old`, department: `${tag}Dept1`, title: `${tag}Title` }));
      await store.replace(user.uid, (current) => ({ ...current, display_name: `${tag}kept ${tag}new`, department: `${tag}Dept2` }), new Date().toISOString());
      assert.deepEqual(await uids({ words: [`${tag}kept`] }), [user.uid], 'a kept word');
      assert.deepEqual(await uids({ words: [`${tag}old`] }), [], 'a dropped word');
      assert.deepEqual(await uids({ words: [`${tag}new`] }), [user.uid], 'a new word');
      assert.deepEqual(await uids({ facets: { department: canon(`${tag}Dept1`) } }), [], 'a dropped facet');
      assert.deepEqual(await uids({ facets: { department: canon(`${tag}Dept2`) } }), [user.uid], 'a new facet');
      assert.deepEqual(await uids({ facets: { title: canon(`${tag}Title`) } }), [user.uid], 'a kept facet');
      const [current] = (await store.search({ filter: { words: [`${tag}kept`] }, limit: 1 })).value;
      const merged = { ...current!, display_name: `${tag}other ${tag}new` };
      const [outcome] = await store.importUsers([merged], 'merge', new Date().toISOString());
      assert.equal(outcome?.status, 'updated');
      assert.deepEqual(await uids({ words: [`${tag}kept`] }), [], 'dropped by the merge');
      assert.deepEqual(await uids({ words: [`${tag}other`] }), [user.uid], 'added by the merge');
      assert.deepEqual(await uids({ words: [`${tag}new`] }), [user.uid], 'kept by the merge');
    });

    it('replace() that keeps the same keys does not conflict with itself', async () => {
      const user = await store.create(newUser({ legacy_ids: ['self-1'] }));
      const outcome = await store.replace(user.uid, { ...fields(), username: user.username.toUpperCase(), email_address: user.email_address, legacy_ids: ['self-1'] }, user.updated_at);
      assert.equal(outcome.status, 'ok');
    });

    it('replace() onto a key held by another user throws KeyConflictError and changes nothing', async () => {
      const holder = await store.create(newUser({ legacy_ids: ['held'] }));
      const user = await store.create(newUser({ legacy_ids: ['mine'] }));
      await rejectsWithKey(store.replace(user.uid, fields({ legacy_ids: ['mine', 'held'] }), user.updated_at), 'legacy_id');
      await rejectsWithKey(store.replace(user.uid, fields({ username: holder.username.toUpperCase() }), user.updated_at), 'username');
      assert.deepEqual(await store.findByKey('uid', user.uid), user);
      assert.equal((await store.findByKey('legacy_id', 'mine'))?.uid, user.uid);
      assert.equal((await store.findByKey('username', canon(user.username)))?.uid, user.uid);
    });

    it('replace() and delete() report not-found for an unknown uid', async () => {
      assert.deepEqual(await store.replace(uuidv7(), fields(), new Date().toISOString()), { status: 'not-found' });
      assert.deepEqual(await store.delete(uuidv7()), { status: 'not-found' });
    });

    it('a refused precondition leaves the user as it was', async () => {
      const user = await store.create(newUser());
      let seen: User | undefined;
      const refuse = (current: User) => {
        seen = current;
        return false;
      };
      assert.deepEqual(await store.replace(user.uid, fields(), new Date().toISOString(), refuse), { status: 'precondition-failed' });
      assert.deepEqual(seen, user, 'the precondition sees the current user');
      assert.deepEqual(await store.delete(user.uid, refuse), { status: 'precondition-failed' });
      assert.deepEqual(await store.findByKey('uid', user.uid), user);
      assert.equal((await store.delete(user.uid, () => true)).status, 'ok');
    });

    it('delete() removes the user and frees every key for reuse', async () => {
      const user = await store.create(newUser({ username: 'gone', email_address: 'gone@example.com', legacy_ids: ['gone-1'] }));
      assert.deepEqual(await store.delete(user.uid), { status: 'ok', value: undefined });
      assert.equal(await store.findByKey('uid', user.uid), undefined);
      assert.equal(await store.findByKey('username', 'gone'), undefined);
      assert.deepEqual(await store.delete(user.uid), { status: 'not-found' });
      const again = await store.create(newUser({ username: 'GONE', email_address: 'Gone@Example.com', legacy_ids: ['gone-1'] }));
      assert.equal((await store.findByKey('legacy_id', 'gone-1'))?.uid, again.uid);
    });

    it('pageMark() answers the mark savePageMark() kept under its key until MARK_TTL_MS later; a later save replaces it', async () => {
      const key = `contract-walk-${sequence++}@11`;
      const uid = newUser().uid;
      assert.equal(await store.pageMark(key, 1_000), undefined);
      await store.savePageMark(key, { after: uid, total: 3 }, 1_000);
      assert.deepEqual(await store.pageMark(key, 1_000 + MARK_TTL_MS - 1), { after: uid, total: 3 });
      assert.equal(await store.pageMark(key, 1_000 + MARK_TTL_MS), undefined, 'expired');
      const other = newUser().uid;
      await store.savePageMark(key, { after: other, total: 4 }, 5_000);
      assert.deepEqual(await store.pageMark(key, 5_001), { after: other, total: 4 });
    });

    describe('importUsers', () => {
      const now = () => new Date().toISOString();

      it('creates every new user with its given uid and timestamps, each readable by every key', async () => {
        const users = [newUser({ legacy_ids: ['imp:1'] }), newUser(), newUser({ display_name: 'Imp' })];
        const outcomes = await store.importUsers(users, 'skip', now());
        assert.deepEqual(outcomes, users.map((u) => ({ status: 'created', uid: u.uid })));
        for (const user of users) assert.deepEqual(await store.findByKey('uid', user.uid), user);
        assert.equal((await store.findByKey('legacy_id', 'imp:1'))?.uid, users[0]!.uid);
      });

      it('skip: a record whose key (or uid) is held, also earlier in the same batch, is a conflict naming it; the rest are written', async () => {
        const holder = await store.create(newUser({ legacy_ids: ['imp:held'] }));
        const fresh = newUser();
        const batch = [
          newUser({ username: holder.username.toUpperCase() }),
          fresh,
          newUser({ legacy_ids: ['imp:held'] }),
          newUser({ email_address: fresh.email_address.toUpperCase() }),
          { ...newUser(), uid: holder.uid },
        ];
        const outcomes = await store.importUsers(batch, 'skip', now());
        assert.deepEqual(outcomes.map((o) => (o.status === 'conflict' ? `conflict:${o.key}` : o.status)), ['conflict:username', 'created', 'conflict:legacy_id', 'conflict:email_address', 'conflict:uid']);
        assert.equal(await store.findByKey('uid', batch[0]!.uid), undefined, 'a conflicting record writes nothing');
        assert.equal(await store.findByKey('email_address', canon(batch[0]!.email_address)), undefined);
        assert.deepEqual(await store.findByKey('uid', holder.uid), holder);
      });

      it('fail: stops at the first conflict; records after it are not attempted', async () => {
        const holder = await store.create(newUser());
        const batch = [newUser(), newUser({ username: holder.username }), newUser()];
        const outcomes = await store.importUsers(batch, 'fail', now());
        assert.deepEqual(outcomes.map((o) => o.status), ['created', 'conflict']);
        assert.ok(await store.findByKey('uid', batch[0]!.uid));
        assert.equal(await store.findByKey('uid', batch[2]!.uid), undefined);
      });

      it('update: replaces the one user holding the keys, leaves an equal one unchanged, refuses keys of two users', async () => {
        const a = await store.create(newUser({ legacy_ids: ['imp:a'] }));
        const b = await store.create(newUser({ legacy_ids: ['imp:b'] }));
        const at = now();
        const changed = newUser({ username: a.username, email_address: a.email_address, legacy_ids: ['imp:a', 'imp:a2'], display_name: 'New' });
        const same = { ...b, uid: newUser().uid };
        const spanning = newUser({ username: a.username, legacy_ids: ['imp:b'] });
        const outcomes = await store.importUsers([changed, same, spanning], 'replace', at);
        assert.deepEqual(outcomes, [{ status: 'updated', uid: a.uid }, { status: 'unchanged', uid: b.uid }, { status: 'conflict', key: 'legacy_id' }]);
        const updated = await store.findByKey('uid', a.uid);
        assert.deepEqual(updated, { ...a, legacy_ids: ['imp:a', 'imp:a2'], display_name: 'New', updated_at: at, version: 2 });
        assert.equal((await store.findByKey('legacy_id', 'imp:a2'))?.uid, a.uid);
        assert.deepEqual(await store.findByKey('uid', b.uid), b);
      });
      describe('within one batch, records see the writes of the records before them', () => {
        const statuses = (outcomes: Awaited<ReturnType<UserStore['importUsers']>>) => outcomes.map((o) => (o.status === 'conflict' ? `conflict:${o.key}` : o.status));

        it('skip: two records of the batch with the same key (in another case) or the same uid: the first is created, the second is a conflict', async () => {
          const first = newUser({ legacy_ids: ['intra:dup'] });
          const batch = [first, newUser({ username: first.username.toUpperCase() }), newUser({ legacy_ids: ['intra:dup'] }), { ...newUser(), uid: first.uid }];
          assert.deepEqual(statuses(await store.importUsers(batch, 'skip', now())), ['created', 'conflict:username', 'conflict:legacy_id', 'conflict:uid']);
          assert.deepEqual(await store.findByKey('uid', first.uid), first);
          for (const user of batch.slice(1, 3)) assert.equal(await store.findByKey('uid', user.uid), undefined);
        });

        it('fail: stops at a conflict with an earlier record of the same batch; the records before it are written', async () => {
          const first = newUser();
          const last = newUser();
          const outcomes = await store.importUsers([first, newUser({ email_address: first.email_address }), last], 'fail', now());
          assert.deepEqual(statuses(outcomes), ['created', 'conflict:email_address']);
          assert.ok(await store.findByKey('uid', first.uid));
          assert.equal(await store.findByKey('uid', last.uid), undefined);
        });

        it('update: a key freed by an update earlier in the batch can be taken by a later record', async () => {
          const holder = await store.create(newUser({ username: 'intra.old', legacy_ids: ['intra:old-id'] }));
          const at = now();
          const renamed = { ...newUser({ username: 'intra.new', email_address: holder.email_address, legacy_ids: ['intra:new-id'] }), uid: holder.uid };
          const taker = newUser({ username: 'INTRA.OLD', legacy_ids: ['intra:old-id'] });
          assert.deepEqual(statuses(await store.importUsers([renamed, taker], 'replace', at)), ['updated', 'created']);
          assert.deepEqual(await store.findByKey('uid', holder.uid), { ...holder, username: 'intra.new', legacy_ids: ['intra:new-id'], updated_at: at, version: 2 });
          assert.equal((await store.findByKey('username', 'intra.old'))?.uid, taker.uid);
          assert.equal((await store.findByKey('legacy_id', 'intra:old-id'))?.uid, taker.uid);
          assert.equal((await store.findByKey('legacy_id', 'intra:new-id'))?.uid, holder.uid);
        });

        it('update: a key handed from one existing user to another, and the freed key to a new user, in one batch', async () => {
          const a = await store.create(newUser({ legacy_ids: ['swap:a'] }));
          const b = await store.create(newUser({ legacy_ids: ['swap:b'] }));
          const at = now();
          const batch = [
            { ...a, legacy_ids: ['swap:c'] }, // frees swap:a
            { ...b, legacy_ids: ['swap:a'] }, // frees swap:b, takes swap:a from a
            newUser({ legacy_ids: ['swap:b'] }),
          ];
          const outcomes = await store.importUsers(batch, 'replace', at);
          assert.deepEqual(statuses(outcomes), ['updated', 'updated', 'created']);
          assert.equal((await store.findByKey('legacy_id', 'swap:c'))?.uid, a.uid);
          assert.equal((await store.findByKey('legacy_id', 'swap:a'))?.uid, b.uid);
          assert.equal((await store.findByKey('legacy_id', 'swap:b'))?.uid, batch[2]!.uid);
          assert.deepEqual((await store.findByKey('uid', b.uid))?.legacy_ids, ['swap:a']);
        });

        it('update: a user created earlier in the batch is updated (version 2) or left unchanged by later records', async () => {
          const created = newUser({ legacy_ids: ['intra:fresh'] });
          const at = now();
          const batch = [created, { ...created, uid: uuidv7(), display_name: 'Changed' }, { ...created, uid: uuidv7(), display_name: 'Changed' }];
          assert.deepEqual(await store.importUsers(batch, 'replace', at), [
            { status: 'created', uid: created.uid },
            { status: 'updated', uid: created.uid },
            { status: 'unchanged', uid: created.uid },
          ]);
          assert.deepEqual(await store.findByKey('uid', created.uid), { ...created, display_name: 'Changed', updated_at: at, version: 2 });
          assert.equal(await store.findByKey('uid', batch[1]!.uid), undefined);
        });

        it('update: the same existing user changed twice in one batch ends at version + 2 with the last record\'s fields', async () => {
          const user = await store.create(newUser({ display_name: 'v1' }));
          const at = now();
          const outcomes = await store.importUsers([{ ...user, display_name: 'v2' }, { ...user, display_name: 'v3', legacy_ids: ['intra:twice'] }], 'replace', at);
          assert.deepEqual(statuses(outcomes), ['updated', 'updated']);
          assert.deepEqual(await store.findByKey('uid', user.uid), { ...user, display_name: 'v3', legacy_ids: ['intra:twice'], updated_at: at, version: 3 });
        });

        it('update: a record whose keys span a user of the store and one created earlier in the batch is a conflict and writes nothing', async () => {
          const existing = await store.create(newUser());
          const fresh = newUser();
          const spanning = newUser({ username: existing.username, email_address: fresh.email_address });
          assert.deepEqual(statuses(await store.importUsers([fresh, spanning], 'replace', now())), ['created', 'conflict:email_address']);
          assert.deepEqual(await store.findByKey('uid', existing.uid), existing);
          assert.deepEqual(await store.findByKey('uid', fresh.uid), fresh);
        });

        it('a large batch (2,500 users, with a conflict every 100th) gives one outcome per record, in order', async () => {
          const holder = await store.create(newUser());
          const batch = Array.from({ length: 2500 }, (_, i) => (i % 100 === 99 ? newUser({ username: holder.username }) : newUser({ legacy_ids: [`large:${i}`, `large:${i}:b`] })));
          const outcomes = await store.importUsers(batch, 'skip', now());
          assert.deepEqual(statuses(outcomes), batch.map((_, i) => (i % 100 === 99 ? 'conflict:username' : 'created')));
          assert.deepEqual(await store.findByKey('legacy_id', 'large:2498:b'), batch[2498]);
        });
      });
    });

    describe('search', () => {
      const tag = `s${Date.now().toString(36)}`;
      let users: User[];
      before(async () => {
        users = [];
        for (let i = 0; i < 7; i++) {
          users.push(
            await store.create(
              newUser({
                username: `${tag}-user${i}`,
                email_address: `${tag}.mail${i}@example.com`,
                legacy_ids: [`${tag}:L${i}`],
                display_name: i === 3 ? `Émile ${tag}` : null,
              }),
            ),
          );
        }
      });

      it('returns users in ascending uid order, at most limit, strictly after `after`', async () => {
        const page = (await store.search({ filter: { words: queryWords(tag) }, limit: 3 })).value;
        assert.deepEqual(page.map((u) => u.uid), users.slice(0, 3).map((u) => u.uid));
        const rest = (await store.search({ filter: { words: queryWords(tag) }, after: users[2]!.uid, limit: 100 })).value;
        assert.deepEqual(rest.map((u) => u.uid), users.slice(3).map((u) => u.uid));
        const all = (await store.search({ filter: {}, limit: 1000 })).value;
        assert.deepEqual(all.map((u) => u.uid), [...all.map((u) => u.uid)].sort());
      });

      it('filters by username, email address and legacy id, combined with AND', async () => {
        const target = users[4]!;
        assert.deepEqual((await store.search({ filter: { username: canon(target.username) }, limit: 10 })).value.map((u) => u.uid), [target.uid]);
        assert.deepEqual((await store.search({ filter: { email_address: canon(target.email_address) }, limit: 10 })).value.map((u) => u.uid), [target.uid]);
        assert.deepEqual((await store.search({ filter: { legacy_id: `${tag}:L4` }, limit: 10 })).value.map((u) => u.uid), [target.uid]);
        assert.deepEqual((await store.search({ filter: { legacy_id: `${tag}:L4`, username: canon(users[5]!.username) }, limit: 10 })).value, []);
      });

      it('words match the start of a word of the username, the email local part or the display name, accents folded', async () => {
        const byMail = (await store.search({ filter: { words: queryWords(`${tag}.mail5`) }, limit: 10 })).value;
        assert.deepEqual(byMail.map((u) => u.uid), [users[5]!.uid]);
        const byName = (await store.search({ filter: { words: queryWords('EMILE') }, limit: 100 })).value;
        assert.ok(byName.some((u) => u.uid === users[3]!.uid));
        assert.deepEqual((await store.search({ filter: { words: queryWords(`${tag}-nomatch`) }, limit: 10 })).value, []);
      });
    });

    describe('stored representations: lookup() answers the text and ETag the last write stored', () => {
      /** The representation every read of `uid` must answer: made from a copy, so no cached text is reused. */
      async function expectStored(uid: string): Promise<void> {
        const user = (await store.findByKey('uid', uid)) as User;
        const expected = representationOf(structuredClone(user));
        for (const [key, value] of [['uid', uid], ...keysOf(user).map((entry) => [entry.key, entry.value])] as [LookupKey, string][]) {
          assert.deepEqual((await store.lookup(key, value)).value, expected, `${key} ${value}`);
        }
        // The user's latest event: among the last few (each step of the test writes one user).
        const latest = await store.events.settle();
        const own = (await store.events.read(Math.max(0, latest - 20), 20)).events.filter((event) => event.subject === uid);
        assert.ok(own.length > 0, 'the write appended an event');
        assert.equal(own[own.length - 1]?.data, expected.json, 'the event carries the same text');
      }

      it('after a create, a replace, a change computed in the write and an import create and update', async () => {
        const user = await store.create(newUser({ legacy_ids: ['rep-1'], display_name: 'Ré', attributes: { b: 1, a: { z: [true, null] } } }));
        await expectStored(user.uid);
        await store.replace(user.uid, fields({ legacy_ids: ['rep-2', 'rep-3'], attributes: { emoji: '\u{1F600}', line: 'a\u2028b' } }), new Date().toISOString());
        await expectStored(user.uid);
        await store.replace(user.uid, (current) => ({ ...current, display_name: null }), new Date().toISOString());
        await expectStored(user.uid);
        const imported = newUser({ legacy_ids: ['rep-4'] });
        await store.importUsers([imported], 'replace', new Date().toISOString());
        await expectStored(imported.uid);
        await store.importUsers([{ ...imported, display_name: 'Changed' }], 'replace', new Date().toISOString());
        await expectStored(imported.uid);
        assert.equal(((await store.lookup('uid', imported.uid)).value as { json: string }).json.includes('"version":2'), true);
      });

      it('members in the order of the User schema, whatever the order the user object was built in', async () => {
        const base = newUser();
        const shuffled = { version: base.version, attributes: { y: 1, x: 2 }, updated_at: base.updated_at, created_at: base.created_at, display_name: 'S', legacy_ids: [], email_address: base.email_address, username: base.username, uid: base.uid, manager: null, active: true, external_id: null, emails: base.emails, name: null, nick_name: null,
          title: null, user_type: null, preferred_language: null, locale: null, timezone: null, phone_numbers: [], addresses: [], employee_number: null,
          cost_center: null, organization: null, division: null, department: null } as User;
        await store.create(shuffled);
        const json = ((await store.lookup('uid', base.uid)).value as { json: string }).json;
        assert.deepEqual(Object.keys(JSON.parse(json)), ['uid', ...WRITABLE_KEYS, 'created_at', 'updated_at', 'version']);
        assert.deepEqual(WRITABLE_KEYS.slice(0, 6), ['username', 'email_address', 'legacy_ids', 'external_id', 'active', 'display_name']);
        assert.equal(WRITABLE_KEYS[WRITABLE_KEYS.length - 1], 'attributes');
        assert.deepEqual(Object.keys(JSON.parse(json).attributes), ['y', 'x'], 'attributes keep the order they were written in');
      });
    });

    it('a reopened store holds every write that was returned', async () => {
      const user = await store.create(newUser({ legacy_ids: ['durable-1'] }));
      store = await handle.reopen();
      assert.deepEqual(await store.findByKey('uid', user.uid), user);
      assert.equal((await store.findByKey('legacy_id', 'durable-1'))?.uid, user.uid);
    });

    it('cursorKey() is 32 bytes, the same on every call and after reopening', async () => {
      const key = await store.cursorKey();
      assert.equal(key.length, 32);
      assert.deepEqual(await store.cursorKey(), key);
      store = await handle.reopen();
      assert.deepEqual(await store.cursorKey(), key);
    });

    it('ping() resolves while open; after close() every call rejects with StoreUnavailableError', async () => {
      await store.ping();
      const closing = await handle.reopen();
      await closing.close();
      await assert.rejects(closing.ping(), StoreUnavailableError);
      await assert.rejects(closing.findByKey('uid', uuidv7()), StoreUnavailableError);
      store = await handle.reopen();
    });
  });
}
