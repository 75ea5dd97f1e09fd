import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from '../../src/store/sqlite/sqlite-driver.js';
import { v7 as uuidv7 } from 'uuid';
import { configureConnection, openSqliteDatabase } from '../../src/store/sqlite/sqlite-connection.js';
import { applySqliteMigrations, SQLITE_MIGRATIONS } from '../../src/store/sqlite/sqlite-migrations.js';
import { openSqliteUserStore } from '../../src/store/sqlite/sqlite-user-store.js';
import type { UserStore } from '../../src/store/user-store.js';
import { etagOf } from '../../src/users/user-etag.js';
import { representationOf } from '../../src/users/user-representation.js';
import { profileColumn } from '../../src/users/user-profile.js';
import { withDefaults, type User } from '../../src/users/user.js';
import { searchColumn } from '../../src/store/search-column.js';
import { erasedEventData } from '../../src/store/erasure.js';
import { ERASE_SQL, SUBJECT_PAGE_SQL } from '../../src/store/sqlite/sqlite-event-log.js';
import { storeContractSuite } from '../store-contract.js';
import { writeContractSuite } from '../store-contract-writes.js';
import { assertMigratedTo8, userBefore8 } from './migration-8-checks.js';
import { assertErasedAfter10, recordsBefore10 } from './migration-10-checks.js';

function sqliteHandle() {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-store-'));
  const path = join(dir, 'users.db');
  let store: UserStore = openSqliteUserStore({ path });
  return {
    path,
    get store() {
      return store;
    },
    async reopen() {
      await store.close();
      store = openSqliteUserStore({ path });
      return store;
    },
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

storeContractSuite('SQLite file', async () => sqliteHandle());
writeContractSuite('SQLite file', async () => sqliteHandle());

describe('SQLite store specifics', () => {
  it('configureConnection sets WAL and synchronous=FULL by default, NORMAL only when asked; savepoint journals in memory', () => {
    const handle = sqliteHandle();
    for (const [options, expected] of [[{}, 2], [{ synchronous: 'NORMAL' as const }, 1]] as const) {
      const db = new Database(handle.path);
      configureConnection(db, options);
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(db.pragma('synchronous', { simple: true }), expected);
      assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
      assert.equal(db.pragma('temp_store', { simple: true }), 2, 'MEMORY: no temporary file per group commit');
      db.close();
    }
    return handle.cleanup();
  });

  it('deleted content is overwritten with zeros by default (secure_delete ON); FAST or OFF only when asked', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-secure-delete-'));
    try {
      const read = (options: Parameters<typeof openSqliteDatabase>[1]) => {
        const db = openSqliteDatabase(join(dir, `${options?.secureDelete ?? 'default'}.db`), options);
        const value = db.pragma('secure_delete', { simple: true });
        db.close();
        return value;
      };
      assert.equal(read({}), 1);
      assert.equal(read({ secureDelete: 'FAST' }), 2);
      assert.equal(read({ secureDelete: 'OFF' }), 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('openSqliteDatabase, which the store opens with, leaves WAL with synchronous=FULL (2), or NORMAL (1) when asked', async () => {
    const handle = sqliteHandle();
    try {
      for (const [options, expected] of [[undefined, 2], [{ synchronous: 'FULL' as const }, 2], [{ synchronous: 'NORMAL' as const }, 1]] as const) {
        const db = openSqliteDatabase(handle.path, options);
        try {
          assert.equal(db.pragma('journal_mode', { simple: true }), 'wal', JSON.stringify(options));
          assert.equal(db.pragma('synchronous', { simple: true }), expected, JSON.stringify(options));
        } finally {
          db.close();
        }
      }
    } finally {
      await handle.cleanup();
    }
  });

  it('bulkWrites (an import) checkpoints the WAL every 20,000 pages; by default SQLite\'s 1,000', async () => {
    const handle = sqliteHandle();
    try {
      for (const [options, expected] of [[{}, 1000], [{ bulkWrites: true }, 20000]] as const) {
        const db = openSqliteDatabase(handle.path, options);
        assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), expected, JSON.stringify(options));
        db.close();
      }
    } finally {
      await handle.cleanup();
    }
  });

  it('keyset paging reads from the primary-key index: no full scan and no sort, whatever the depth (EXPLAIN QUERY PLAN)', async () => {
    const handle = sqliteHandle();
    const now = new Date().toISOString();
    const uids = Array.from({ length: 5000 }, () => uuidv7()).sort();
    // The statement the store prepares for a page after a cursor (and for the first page),
    // written as src/store/sqlite/sqlite-user-store.ts builds it in search().
    const columns = 'uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version';
    const deeper = `SELECT ${columns} FROM users WHERE uid > ? ORDER BY uid LIMIT ?`;
    const first = `SELECT ${columns} FROM users  ORDER BY uid LIMIT ?`;
    // The store created the file and still has it open: a second connection, as another process would have.
    const db = new Database(handle.path);
    try {
      const insert = db.prepare(
        `INSERT INTO users (${columns}) VALUES (?, ?, ?, '[]', NULL, '{}', ?, ?, 1)`,
      );
      db.transaction(() => uids.forEach((uid, i) => insert.run(uid, `plan${i}`, `plan${i}@example.com`, now, now)))();
      db.exec('ANALYZE');
      const primaryKeyIndex = (db.pragma("index_list('users')") as Array<{ name: string; origin: string }>).find((index) => index.origin === 'pk')?.name;
      assert.ok(primaryKeyIndex, 'users has a primary-key index');
      const plan = (sql: string, ...params: unknown[]) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((row) => row.detail);
      for (const after of [uids[0], uids[2500], uids[4998]]) {
        const steps = plan(deeper, after, 101);
        assert.deepEqual(steps, [`SEARCH users USING INDEX ${primaryKeyIndex} (uid>?)`], `after ${after}: ${JSON.stringify(steps)}`);
      }
      const steps = plan(first, 101);
      assert.deepEqual(steps, [`SCAN users USING INDEX ${primaryKeyIndex}`], `first page: ${JSON.stringify(steps)}`);
      // The page the store answers from that statement is the one the plan promises.
      const { value: page } = await handle.store.search({ filter: {}, after: uids[2500], limit: 3 });
      assert.deepEqual(page.map((user) => user.uid), uids.slice(2501, 2504));
    } finally {
      db.close();
      await handle.cleanup();
    }
  });

  it('migration 5 keeps the Idempotency-Key records of a version 4 file: they still answer, still block their key, still expire', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-migrate-5-'));
    const path = join(dir, 'users.db');
    const old = openSqliteDatabase(path);
    old.transaction(() => applySqliteMigrations(old, 0, 4))();
    const insert = old.prepare('INSERT INTO idempotency_keys (scope, key, fingerprint, status, headers, body, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const now = Date.now();
    insert.run('client-a', 'k-live', 'fp-1', 201, JSON.stringify({ etag: '"1"' }), '{"uid":"x"}', now + 60_000);
    insert.run('client-a', 'k-expired', 'fp-2', 409, '{}', '{}', now - 1);
    old.close();

    const store = openSqliteUserStore({ path });
    try {
      assert.deepEqual(await store.findIdempotency('client-a', 'k-live', now), {
        scope: 'client-a', key: 'k-live', fingerprint: 'fp-1', expiresAt: now + 60_000, response: { status: 201, headers: { etag: '"1"' }, body: '{"uid":"x"}' },
      });
      assert.equal(await store.findIdempotency('client-a', 'k-expired', now), undefined, 'an expired record answers nothing');
      const again = { scope: 'client-a', fingerprint: 'fp-3', expiresAt: now + 60_000, response: { status: 201, headers: {}, body: '' } };
      assert.equal(await store.saveIdempotency({ ...again, key: 'k-live' }, now), false, 'a live record still holds its key');
      assert.equal(await store.saveIdempotency({ ...again, key: 'k-expired' }, now), true, 'an expired one gives its key up');
      const probe = new Database(path, { readonly: true });
      const rows = probe.prepare('SELECT key FROM idempotency_keys ORDER BY id').pluck().all();
      probe.close();
      assert.deepEqual(rows, ['k-expired', 'k-live'], 'a rowid table: migrated records in the order they expire');
      assert.equal(await store.purgeIdempotency(now + 120_000, 10), 2, 'both are purged once expired');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('migration 6 stores the representation of every existing user; a row an earlier release updates is read from its columns until written again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-migrate-6-'));
    const path = join(dir, 'users.db');
    const old = openSqliteDatabase(path);
    old.transaction(() => applySqliteMigrations(old, 0, 5))();
    const columns = 'uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version';
    const insert = old.prepare(`INSERT INTO users (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const insertKey = old.prepare('INSERT INTO user_keys (key, value, uid) VALUES (?, ?, ?)');
    const uids = Array.from({ length: 2500 }, () => uuidv7());
    old.transaction(() => uids.forEach((uid, i) => {
      insert.run(uid, `Old.${i}`, `old.${i}@example.com`, JSON.stringify([`old:${i}`]), i % 2 ? null : `Old ${i}`, JSON.stringify({ z: i, a: [i] }), '2020-01-01T00:00:00.000Z', '2021-01-01T00:00:00.000Z', 3);
      insertKey.run('username', `old.${i}`, uid);
    }))();
    old.close();

    const store = openSqliteUserStore({ path });
    try {
      for (const i of [0, 999, 1000, 2499]) {
        const uid = uids[i] as string;
        const user = (await store.findByKey('uid', uid)) as User;
        assert.equal(user.username, `Old.${i}`);
        assert.deepEqual((await store.lookup('username', `old.${i}`)).value, representationOf(structuredClone(user)), `user ${i}`);
      }
      // A process of the release before migration 6, still sharing the file, updates a user: no representation.
      const earlier = new Database(path);
      assert.equal(earlier.prepare('SELECT count(*) FROM users WHERE representation IS NULL OR etag IS NULL').pluck().get(), 0, 'every row filled');
      // Migration 11 wrote every row's search text: the old users are found by a word, and sorted.
      assert.equal((await store.search({ filter: { words: ['old'] }, limit: 3000 })).value.length, 2500);
      assert.deepEqual((await store.search({ filter: { words: ['old', '1000'] }, limit: 10 })).value.map((u) => u.username), ['Old.1000']);
      assert.deepEqual((await store.search({ filter: {}, sort: [{ field: 'username', descending: true }], limit: 1 })).value.map((u) => u.username), ['Old.999']);
      earlier.prepare("UPDATE users SET display_name = 'Renamed', updated_at = '2022-01-01T00:00:00.000Z', version = 4 WHERE uid = ?").run(uids[0]);
      earlier.close();
      const renamed = (await store.lookup('uid', uids[0] as string)).value as { json: string; etag: string };
      assert.equal(JSON.parse(renamed.json).display_name, 'Renamed', 'read from the columns, not the outdated text');
      assert.equal(renamed.etag, etagOf({ uid: uids[0] as string, version: 4 }));
      // A search page reads it from its columns too: a light page (one word naming one user, read on the
      // store's connection) and a page by a unique key (read on the reader thread).
      for (const filter of [{ words: ['0'] }, { username: 'old.0' }]) {
        const found = (await store.search({ filter, limit: 2 })).value;
        assert.deepEqual(found.map((u) => [u.uid, u.display_name]), [[uids[0], 'Renamed']], JSON.stringify(filter));
      }
      const user = (await store.findByKey('uid', uids[0] as string)) as User;
      await store.replace(user.uid, { ...user, display_name: 'Again' }, new Date().toISOString());
      const probe = new Database(path, { readonly: true });
      const stored = probe.prepare('SELECT representation FROM users WHERE uid = ?').pluck().get(user.uid) as string;
      probe.close();
      assert.equal(JSON.parse(stored).display_name, 'Again', 'the next write stores it again');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('migration 8 gives every existing user the lifecycle and profile defaults, indexes its address and stores its new representation', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-migrate-8-'));
    const path = join(dir, 'users.db');
    const old = openSqliteDatabase(path);
    old.transaction(() => applySqliteMigrations(old, 0, 7))();
    const uid = uuidv7();
    // A row as the release before migration 8 wrote it: its representation without the new members.
    const before = userBefore8(uid);
    old.prepare('INSERT INTO users (uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version, representation, etag) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(uid, before.username, before.email_address, JSON.stringify(before.legacy_ids), before.display_name, JSON.stringify(before.attributes), before.created_at, before.updated_at, before.version, JSON.stringify(before), etagOf(before));
    for (const [key, value] of [['username', 'kept'], ['email_address', 'kept@example.com'], ['legacy_id', 'k:1']]) old.prepare('INSERT INTO user_keys (key, value, uid) VALUES (?, ?, ?)').run(key, value, uid);
    old.close();

    const store = openSqliteUserStore({ path });
    try {
      await assertMigratedTo8(store, before);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('migration 13 chains the events written before it and reads the profile from the representation: history, erasure and reads stay whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-migrate-13-'));
    const path = join(dir, 'users.db');
    const old = openSqliteDatabase(path);
    old.transaction(() => applySqliteMigrations(old, 0, 12))();
    const at = '2026-01-01T00:00:00.000Z';
    const kept: User = { ...withDefaults({ username: 'kept', email_address: 'kept@example.com', display_name: null, legacy_ids: [], attributes: {}, title: 'Engineer', department: 'Ops' }), uid: uuidv7(), created_at: at, updated_at: at, version: 1 };
    const changed: User = { ...kept, title: 'Lead', updated_at: '2026-01-02T00:00:00.000Z', version: 2 };
    const gone = uuidv7();
    const insertEvent = old.prepare('INSERT INTO events (type, subject, time, data) VALUES (?, ?, ?, ?)');
    insertEvent.run('user.created', kept.uid, at, representationOf(kept).json);
    insertEvent.run('user.created', gone, at, erasedEventData(gone, 1));
    insertEvent.run('user.updated', kept.uid, changed.updated_at, representationOf(changed).json);
    insertEvent.run('user.deleted', gone, changed.updated_at, JSON.stringify({ uid: gone, version: 1 }));
    old.prepare(`INSERT INTO users (uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version, profile, representation, etag, search)
      VALUES (?, ?, ?, '[]', NULL, '{}', ?, ?, 2, ?, ?, ?, ?)`)
      .run(changed.uid, changed.username, changed.email_address, changed.created_at, changed.updated_at, profileColumn(changed), representationOf(changed).json, etagOf(changed), searchColumn(changed));
    old.prepare("INSERT INTO user_keys (key, value, uid) VALUES ('username', 'kept', ?), ('email_address', 'kept@example.com', ?)").run(kept.uid, kept.uid);
    // A row whose representation a release before migration 6 cleared: its profile is in the column alone.
    const bare: User = { ...withDefaults({ username: 'bare', email_address: 'bare@example.com', display_name: null, legacy_ids: [], attributes: {}, title: 'Analyst' }), uid: uuidv7(), created_at: at, updated_at: at, version: 1 };
    old.prepare(`INSERT INTO users (uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version, profile, representation, etag, search)
      VALUES (?, ?, ?, '[]', NULL, '{}', ?, ?, 1, ?, NULL, NULL, ?)`)
      .run(bare.uid, bare.username, bare.email_address, at, at, profileColumn(bare), searchColumn(bare));
    old.prepare("INSERT INTO user_keys (key, value, uid) VALUES ('username', 'bare', ?), ('email_address', 'bare@example.com', ?)").run(bare.uid, bare.uid);
    old.close();

    const store = openSqliteUserStore({ path });
    try {
      assert.deepEqual(await store.findByKey('uid', bare.uid), bare, 'a row without a representation keeps its profile: the migration makes the representation before the column goes');
      assert.equal((await store.findByKey('uid', kept.uid))?.title, 'Lead', 'the profile is read from the representation');
      const history = async (uid: string) => (await store.events.read(0, 10, uid)).events.map((e) => [e.type, e.data]);
      assert.deepEqual(await history(kept.uid), [['user.created', representationOf(kept).json], ['user.updated', representationOf(changed).json]]);
      assert.deepEqual(await history(gone), [['user.created', erasedEventData(gone, 1)], ['user.deleted', JSON.stringify({ uid: gone, version: 1 })]]);
      const third = await store.replace(kept.uid, (user) => ({ ...user, department: 'Sales' }), '2026-01-03T00:00:00.000Z');
      assert.equal(third.status, 'ok');
      assert.deepEqual((await history(kept.uid)).map(([, data]) => JSON.parse(data as string).version), [1, 2, 3], 'each event keeps its own version');
      assert.equal((await store.delete(kept.uid)).status, 'ok');
      assert.deepEqual((await history(kept.uid)).map(([, data]) => data), [1, 2, 3].map((version) => erasedEventData(kept.uid, version)).concat(JSON.stringify({ uid: kept.uid, version: 3 })));
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a user's history and its erasure read events by primary key only, never a walk of the feed", () => {
    const db = openSqliteDatabase(':memory:');
    try {
      db.transaction(() => applySqliteMigrations(db, 0, SQLITE_MIGRATIONS.length))();
      for (const sql of [SUBJECT_PAGE_SQL, ERASE_SQL]) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ uid: uuidv7(), after: 0, latest: 10, limit: 10, version: 1 }) as { detail: string }[]).map((row) => row.detail);
        assert.ok(plan.every((line) => !/^SCAN (events|e)\b/.test(line)), plan.join('\n'));
        assert.ok(plan.includes('SEARCH events USING INTEGER PRIMARY KEY (rowid=?)'), plan.join('\n'));
      }
    } finally {
      db.close();
    }
  });

  it('migration 10 finds the Idempotency-Key answers and events written before it: a later delete erases them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-migrate-10-'));
    const path = join(dir, 'users.db');
    const old = openSqliteDatabase(path);
    old.transaction(() => applySqliteMigrations(old, 0, 9))();
    const uid = uuidv7();
    const { user, event, answer } = recordsBefore10(uid);
    old.prepare('INSERT INTO users (uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(uid, user.username, user.email_address, JSON.stringify(user.legacy_ids), user.display_name, JSON.stringify(user.attributes), user.created_at, user.updated_at, user.version);
    old.prepare('INSERT INTO events (type, subject, time, data) VALUES (?, ?, ?, ?)').run(event.type, event.subject, event.time, event.data);
    old.prepare('INSERT INTO idempotency_keys (scope, key, fingerprint, status, headers, body, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(answer.scope, answer.key, answer.fingerprint, answer.status, answer.headers, answer.body, Date.now() + 60_000);
    old.close();

    const store = openSqliteUserStore({ path });
    try {
      await assertErasedAfter10(store, uid);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('migrates a new file to the latest schema version exactly once', async () => {
    const handle = sqliteHandle();
    await handle.store.close();
    const probe = new Database(handle.path);
    assert.equal(probe.pragma('user_version', { simple: true }), SQLITE_MIGRATIONS.length);
    probe.close();
    const again = openSqliteUserStore({ path: handle.path });
    await again.close();
    const after = new Database(handle.path);
    assert.equal(after.pragma('user_version', { simple: true }), SQLITE_MIGRATIONS.length, 'reopening migrates nothing more');
    after.close();
    await handle.cleanup();
  });
});
