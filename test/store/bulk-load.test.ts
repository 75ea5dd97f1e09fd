/**
 * Load then index (src/store/deferred-indexes.ts), on both stores: a bulk load into an
 * empty directory sets the deferred indexes aside and builds them at its end, exactly
 * as the migrations made them; a directory that holds a user keeps them; every write
 * and read stays correct while they are aside (uniqueness, lookups, words, sorted pages);
 * and a load that stops before its end leaves nothing missing once the store opens again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { DeferredBuildError } from '../../src/store/deferred-indexes.js';
import { describeOpenError } from '../../src/store/open-store-errors.js';
import type { StoreConfig } from '../../src/config.js';
import { KeyConflictError } from '../../src/store/store-errors.js';
import type { SearchFilter, UserStore } from '../../src/store/user-store.js';
import type { ImportUser } from '../../src/store/import-plan.js';
import { SQLITE_DEFERRED_INDEXES } from '../../src/store/sqlite/sqlite-bulk-load.js';
import { queryWords } from '../../src/users/search-words.js';
import { fieldsOf, type User } from '../../src/users/user.js';
import { newUser } from '../helpers/new-user.js';
import { createTestDatabaseUrl, describeEachStore, openTestStoreAt, type TestDatabaseUrl } from '../helpers/stores.js';
import { indexDefinitions, missingIndexes as missing } from '../helpers/index-definitions.js';

const DEFERRED = SQLITE_DEFERRED_INDEXES.map((index) => index.name).sort();

let sequence = 0;
/** A person of the department Loading, its family name `family`, a legacy id of its own. */
function person(family: string): User {
  sequence += 1;
  return newUser(`bulk${sequence}`, new Date().toISOString(), { legacy_ids: [`L-${sequence}`], display_name: `Ada ${family}`, name: { family_name: family }, department: 'Loading' });
}

describeEachStore('load then index: a bulk load into an empty directory', (kind) => {
  let database: TestDatabaseUrl;
  let store: UserStore;
  let migrated: Map<string, string>;
  before(async () => {
    database = await createTestDatabaseUrl(kind);
    store = await openTestStoreAt(kind, database.databaseUrl);
    migrated = await indexDefinitions(kind, database.databaseUrl);
  });
  after(async () => {
    await store.close();
    await database.remove();
  });

  it('sets the deferred indexes aside, keeps every write correct meanwhile, and builds them and the words as the migrations and writes make them', async () => {
    assert.ok(DEFERRED.every((name) => migrated.has(name)), 'every deferred index is one the migrations make');
    assert.equal(await store.beginBulkLoad(), true);
    assert.deepEqual(missing(migrated, await indexDefinitions(kind, database.databaseUrl)), DEFERRED);

    const users = ['Zed', 'Abel', 'Moss', 'Bray'].map(person);
    const [zed, abel, moss, bray] = users as [User, User, User, User];
    const outcomes = await store.importUsers(users, 'skip', new Date().toISOString());
    assert.deepEqual(outcomes.map((o) => o.status), ['created', 'created', 'created', 'created']);
    // Uniqueness is kept: the keys' primary key stays.
    assert.deepEqual((await store.importUsers([{ ...person('Taken'), username: zed.username }], 'skip', new Date().toISOString())).map((o) => o.status), ['conflict']);
    await assert.rejects(store.create({ ...person('Again'), email_address: abel.email_address }), KeyConflictError);
    // Lookups by every key, and a sorted page (read without its index).
    assert.equal((await store.findByKey('legacy_id', moss.legacy_ids[0] as string))?.uid, moss.uid);
    assert.equal((await store.findByKey('email_address', bray.email_address))?.uid, bray.uid);
    const sorted = await store.search({ filter: {}, sort: [{ field: 'family_name', descending: false }], limit: 10 });
    assert.deepEqual(sorted.value.map((u) => u.name?.family_name), ['Abel', 'Bray', 'Moss', 'Zed']);
    // Writes of another writer meanwhile (a service's create, change and delete), and a change by a later batch.
    const created = await store.create(person('Crane'));
    const moved = await store.replace(bray.uid, (current) => ({ ...fieldsOf(current), username: 'bulk-moved', legacy_ids: [], department: 'Moved' }), new Date().toISOString());
    assert.equal(moved.status, 'ok');
    assert.equal((await store.delete(zed.uid)).status, 'ok');
    assert.equal(await store.findByKey('username', zed.username), undefined);
    const merged = await store.importUsers([{ ...abel, department: 'Merged', given: { username: abel.username, department: 'Merged' } } as ImportUser], 'merge', new Date().toISOString());
    assert.deepEqual(merged.map((o) => o.status), ['updated']);

    assert.deepEqual(await store.finishBulkLoad(), { indexes: DEFERRED.length, words: true });
    assert.deepEqual(await indexDefinitions(kind, database.databaseUrl), migrated);
    assert.deepEqual(await store.finishBulkLoad(), { indexes: 0, words: false }, 'nothing is left to build');
    const after = await store.search({ filter: {}, sort: [{ field: 'family_name', descending: true }], limit: 10 });
    assert.deepEqual(after.value.map((u) => u.name?.family_name), ['Moss', 'Crane', 'Bray', 'Abel']);
    assert.equal((await store.findByKey('username', 'bulk-moved'))?.uid, bray.uid);
    // Every user found by each of its words and its department, and no one else: the entries are those its writes make.
    const found = async (filter: SearchFilter) => (await store.search({ filter, limit: 10 })).value.map((u) => u.uid).sort();
    assert.deepEqual(await found({ words: queryWords('moss') }), [moss.uid]);
    assert.deepEqual(await found({ words: queryWords('crane') }), [created.uid]);
    assert.deepEqual(await found({ words: queryWords('zed') }), []);
    assert.deepEqual(await found({ words: queryWords('ada') }), [abel.uid, moss.uid, bray.uid, created.uid].sort());
    assert.deepEqual(await found({ facets: { department: 'loading' } }), [moss.uid, created.uid].sort());
    assert.deepEqual(await found({ facets: { department: 'moved' } }), [bray.uid]);
    assert.deepEqual(await found({ facets: { department: 'merged' } }), [abel.uid]);
  });

  it('a directory that holds a user keeps its indexes', async () => {
    assert.equal(await store.beginBulkLoad(), false);
    assert.deepEqual(await indexDefinitions(kind, database.databaseUrl), migrated);
  });
});

describeEachStore('load then index: a load that stops, and a rebuild beside a writer', (kind) => {
  /** An empty database of its own for the test, removed after it. */
  const emptyDatabase = async (t: TestContext) => {
    const database = await createTestDatabaseUrl(kind);
    t.after(() => database.remove());
    return database;
  };

  it('leaves no deferred index and no word missing once the store opens again, and its users found by every index', async (t) => {
    const database = await emptyDatabase(t);
    const first = await openTestStoreAt(kind, database.databaseUrl);
    const migrated = await indexDefinitions(kind, database.databaseUrl);
    assert.equal(await first.beginBulkLoad(), true);
    const users = ['Quill', 'Emery'].map(person);
    await first.importUsers(users, 'skip', new Date().toISOString());
    // Before the end, the loaded users are not found by their words yet.
    assert.deepEqual((await first.search({ filter: { words: queryWords('quill') }, limit: 10 })).value, []);
    await first.close(); // as a process killed here would leave it: the batch committed, the indexes aside
    assert.deepEqual(missing(migrated, await indexDefinitions(kind, database.databaseUrl)), DEFERRED);

    const reopened = await openTestStoreAt(kind, database.databaseUrl);
    try {
      assert.deepEqual(await indexDefinitions(kind, database.databaseUrl), migrated);
      const sorted = await reopened.search({ filter: {}, sort: [{ field: 'family_name', descending: false }], limit: 10 });
      assert.deepEqual(sorted.value.map((u) => u.name?.family_name), ['Emery', 'Quill']);
      // The words the load left to its end were rebuilt by the open.
      for (const user of users) {
        const found = await reopened.search({ filter: { words: queryWords(user.name?.family_name ?? '') }, limit: 10 });
        assert.deepEqual(found.value.map((u) => u.uid), [user.uid]);
      }
      assert.equal((await reopened.search({ filter: { facets: { department: 'loading' } }, limit: 10 })).value.length, 2);
    } finally {
      await reopened.close();
    }
  });

  it('changes another store commits while the word index is rebuilt leave every user found by exactly its own facets', async (t) => {
    const database = await emptyDatabase(t);
    const loader = await openTestStoreAt(kind, database.databaseUrl);
    const service = await openTestStoreAt(kind, database.databaseUrl);
    try {
      assert.equal(await loader.beginBulkLoad(), true);
      const users = Array.from({ length: 400 }, (_, i) => person(`Rebuild${i}`));
      await loader.importUsers(users, 'skip', new Date().toISOString());
      // The service moves users from department to department while the loader rebuilds.
      const moves = (async () => {
        for (let i = 0; i < 60; i++) {
          const user = users[(i * 7) % users.length] as User;
          await service.replace(user.uid, (current) => ({ ...fieldsOf(current), department: `Dept ${i % 3}` }), new Date().toISOString());
        }
      })();
      await Promise.all([loader.finishBulkLoad(), moves]);
      const stored = await Promise.all(users.map(async (user) => (await service.findByKey('uid', user.uid)) as User));
      for (const department of ['Loading', 'Dept 0', 'Dept 1', 'Dept 2']) {
        const want = stored.filter((u) => u.department === department).map((u) => u.uid).sort();
        const got = (await service.search({ filter: { facets: { department: department.toLowerCase() } }, limit: 1000 })).value.map((u) => u.uid).sort();
        assert.deepEqual(got, want, department);
      }
    } finally {
      await service.close();
      await loader.close();
    }
  });
});

describe('load then index: a build that fails at open', () => {
  it('is said in words: what the database holds, what failed, and for lack of room what to give it', () => {
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const said = describeOpenError({ kind: 'sqlite', path: '/data/users.db' } as StoreConfig, new DeferredBuildError(full));
    assert.equal(
      said,
      'DATABASE_URL: the SQLite database /data/users.db holds a load into an empty directory whose indexes are not built yet, and building them failed (database or disk is full); give the database room for them (about what its users take already); start again, or run user-service migrate',
    );
    const busy = new DeferredBuildError(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
    assert.doesNotMatch(busy.message, /room/);
  });
});
