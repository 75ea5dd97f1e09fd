import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { v7 as uuidv7 } from 'uuid';
import { StoreUnavailableError } from '../../src/store/store-errors.js';
import { openPostgresUserStore, postgresClientOptions } from '../../src/store/postgres/postgres-user-store.js';
import { migratePostgres, POSTGRES_MIGRATIONS } from '../../src/store/postgres/postgres-migrations.js';
import type { UserStore } from '../../src/store/user-store.js';
import { withDefaults, type User } from '../../src/users/user.js';
import { etagOf } from '../../src/users/user-etag.js';
import { representationOf } from '../../src/users/user-representation.js';
import { profileColumn } from '../../src/users/user-profile.js';
import { searchColumn } from '../../src/store/search-column.js';
import { erasedEventData } from '../../src/store/erasure.js';
import { createTestDatabase, postgresSkipReason, type TestDatabase } from '../helpers/postgres.js';
import { storeContractSuite } from '../store-contract.js';
import { writeContractSuite } from '../store-contract-writes.js';
import { assertMigratedTo8, userBefore8 } from './migration-8-checks.js';
import { assertErasedAfter10, recordsBefore10 } from './migration-10-checks.js';

const skip = await postgresSkipReason();

/**
 * Runs `fn` on a database of its own brought to schema `version`, with a session on it
 * and `open()`, which opens the store there (migrating the rest); all are closed and the
 * database dropped after, whatever `fn` does.
 */
async function fromSchema(version: number, fn: (sql: postgres.Sql, open: () => Promise<UserStore>) => Promise<void>): Promise<void> {
  const fresh = await createTestDatabase();
  const sql = postgres(fresh.url, { max: 1, onnotice: () => {} });
  let store: UserStore | undefined;
  try {
    await migratePostgres(sql, version);
    await fn(sql, async () => (store = await openPostgresUserStore({ url: fresh.url })));
  } finally {
    await store?.close();
    await sql.end();
    await fresh.drop();
  }
}

if (skip) {
  describe('UserStore contract: PostgreSQL', { skip }, () => {});
} else {
  // Every import of the contract suite must take the set-based path: falling back to record by record is a failure here.
  const onImportFallback = (error: unknown) => {
    throw new Error('an import batch fell back to record by record', { cause: error });
  };
  /** A store over a new database of its own. */
  const openHandle = async () => {
    const db = await createTestDatabase();
    let store: UserStore = await openPostgresUserStore({ url: db.url, onImportFallback });
    return {
      store,
      async reopen() {
        await store.close();
        store = await openPostgresUserStore({ url: db.url, onImportFallback });
        return store;
      },
      async cleanup() {
        await store.close();
        await db.drop();
      },
    };
  };
  storeContractSuite('PostgreSQL', openHandle);
  writeContractSuite('PostgreSQL', openHandle);

  describe('PostgreSQL store specifics', () => {
    let db: TestDatabase;
    before(async () => {
      db = await createTestDatabase();
    });
    after(() => db.drop());

    it('instances migrating at once under the advisory lock apply each migration exactly once', async () => {
      const pools = Array.from({ length: 4 }, () => postgres(db.url, { max: 1, onnotice: () => {} }));
      const applied = await Promise.all(pools.map((sql) => migratePostgres(sql)));
      assert.deepEqual(applied.sort(), [0, 0, 0, POSTGRES_MIGRATIONS.length]);
      const rows = await pools[0]!`SELECT version FROM schema_migrations ORDER BY version`;
      assert.deepEqual(rows.map((r) => r.version), POSTGRES_MIGRATIONS.map((_, i) => i + 1));
      await Promise.all(pools.map((sql) => sql.end()));
    });

    it('migration 6 stores the representation of every existing user; a row an earlier release updates is read from its columns until written again', async () => {
      await fromSchema(5, async (sql, open) => {
        const uids = Array.from({ length: 2500 }, () => uuidv7());
        await sql`
          INSERT INTO users (uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version)
          SELECT u, 'Old.' || i, 'old.' || i || '@example.com', ARRAY['old:' || i], CASE WHEN i % 2 = 0 THEN 'Old ' || i END,
            ('{"z":' || i || ',"a":[' || i || ']}')::json, '2020-01-01T00:00:00Z', '2021-01-01T00:00:00Z', 3
          FROM unnest(${uids}::uuid[]) WITH ORDINALITY AS t(u, i)`;
        await sql`INSERT INTO user_keys (key, value, uid) SELECT 'username', 'old.' || i, u FROM unnest(${uids}::uuid[]) WITH ORDINALITY AS t(u, i)`;
        const store = await open();
        for (const i of [0, 999, 1000, 2499]) {
          const user = (await store.findByKey('uid', uids[i] as string)) as User;
          assert.equal(user.username, `Old.${i + 1}`);
          assert.deepEqual(Object.keys(user.attributes), ['z', 'a']);
          assert.deepEqual((await store.lookup('username', `old.${i + 1}`)).value, representationOf(structuredClone(user)), `user ${i}`);
        }
        const [unfilled] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM users WHERE representation IS NULL OR etag IS NULL`;
        assert.equal(unfilled?.n, 0, 'every row filled');
        // Migration 11 wrote every row's search text: the old users are found by a word, and sorted.
        assert.equal((await store.search({ filter: { words: ['old'] }, limit: 3000 })).value.length, 2500);
        assert.deepEqual((await store.search({ filter: { words: ['old', '1000'] }, limit: 10 })).value.map((u) => u.username), ['Old.1000']);
        assert.deepEqual((await store.search({ filter: {}, sort: [{ field: 'username', descending: true }], limit: 1 })).value.map((u) => u.username), ['Old.999']);
        // An instance of the release before migration 6 (a rolling upgrade) updates a user: no representation.
        await sql`UPDATE users SET display_name = 'Renamed', updated_at = now(), version = 4 WHERE uid = ${uids[0] as string}`;
        const renamed = (await store.lookup('uid', uids[0] as string)).value as { json: string; etag: string };
        assert.equal(JSON.parse(renamed.json).display_name, 'Renamed', 'read from the columns, not the outdated text');
        assert.equal(renamed.etag, etagOf({ uid: uids[0] as string, version: 4 }));
        const user = (await store.findByKey('uid', uids[0] as string)) as User;
        await store.replace(user.uid, { ...user, display_name: 'Again' }, new Date().toISOString());
        const [row] = await sql<{ representation: string }[]>`SELECT representation FROM users WHERE uid = ${user.uid}`;
        assert.equal(JSON.parse(row?.representation ?? '{}').display_name, 'Again', 'the next write stores it again');
      });
    });

    it('migration 8 gives every existing user the lifecycle and profile defaults, indexes its address and stores its new representation', async () => {
      await fromSchema(7, async (sql, open) => {
        const uid = uuidv7();
        const before = userBefore8(uid);
        // A row as the release before migration 8 wrote it: its representation without the new members.
        await sql`INSERT INTO users (uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version, representation, etag)
          VALUES (${uid}, ${before.username}, ${before.email_address}, ${before.legacy_ids}, ${before.display_name}, ${JSON.stringify(before.attributes)}::text::json,
            ${before.created_at}, ${before.updated_at}, ${before.version}, ${JSON.stringify(before)}, ${etagOf(before)})`;
        await sql`INSERT INTO user_keys (key, value, uid) VALUES ('username', 'kept', ${uid}), ('email_address', 'kept@example.com', ${uid}), ('legacy_id', 'k:1', ${uid})`;
        const store = await open();
        await assertMigratedTo8(store, before);
      });
    });

    it('migration 10 finds the Idempotency-Key answers and events written before it: a later delete erases them', async () => {
      await fromSchema(9, async (sql, open) => {
        const uid = uuidv7();
        const { user, event, answer } = recordsBefore10(uid);
        await sql`INSERT INTO users (uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version)
          VALUES (${uid}, ${user.username}, ${user.email_address}, ${user.legacy_ids}, ${user.display_name}, ${JSON.stringify(user.attributes)}::text::json,
            ${user.created_at}, ${user.updated_at}, ${user.version})`;
        await sql`INSERT INTO events (position, type, subject, time, data) VALUES (1, ${event.type}, ${uid}, ${event.time}, ${event.data})`;
        await sql`UPDATE feed_state SET position = 1 WHERE name = 'latest'`;
        await sql`INSERT INTO idempotency_keys (scope, key, fingerprint, status, headers, body, expires_at)
          VALUES (${answer.scope}, ${answer.key}, ${answer.fingerprint}, ${answer.status}, ${answer.headers}::json, ${answer.body}, ${Date.now() + 60_000})`;
        const store = await open();
        await store.events.settle();
        await assertErasedAfter10(store, uid);
      });
    });

    it('migration 15 chains the events written before it and reads the profile from the representation: history, erasure and reads stay whole', async () => {
      await fromSchema(14, async (sql, open) => {
        const at = '2026-01-01T00:00:00.000Z';
        const kept: User = { ...withDefaults({ username: 'kept', email_address: 'kept@example.com', display_name: null, legacy_ids: [], attributes: {}, title: 'Engineer', department: 'Ops' }), uid: uuidv7(), created_at: at, updated_at: at, version: 1 };
        const changed: User = { ...kept, title: 'Lead', updated_at: '2026-01-02T00:00:00.000Z', version: 2 };
        const gone = uuidv7();
        const history = [
          ['user.created', kept.uid, at, representationOf(kept).json],
          ['user.created', gone, at, erasedEventData(gone, 1)],
          ['user.updated', kept.uid, changed.updated_at, representationOf(changed).json],
          ['user.deleted', gone, changed.updated_at, JSON.stringify({ uid: gone, version: 1 })],
        ];
        for (const [position, [type, subject, time, data]] of history.entries()) {
          await sql`INSERT INTO events (position, type, subject, time, data) VALUES (${position + 1}, ${type as string}, ${subject as string}, ${time as string}, ${data as string})`;
        }
        await sql`UPDATE feed_state SET position = ${history.length} WHERE name = 'latest'`;
        // A row as the release before migration 15 wrote it: the profile in a column of its own as well.
        await sql`INSERT INTO users (uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version, profile, representation, etag, search)
          VALUES (${changed.uid}, ${changed.username}, ${changed.email_address}, '{}', NULL, '{}', ${changed.created_at}, ${changed.updated_at}, 2,
            ${profileColumn(changed)}::text::json, ${representationOf(changed).json}, ${etagOf(changed)}, ${searchColumn(changed)})`;
        await sql`INSERT INTO user_keys (key, value, uid) VALUES ('username', 'kept', ${kept.uid}), ('email_address', 'kept@example.com', ${kept.uid})`;
        // A row whose representation a release before migration 6 cleared: its profile is in the column alone.
        const bare: User = { ...withDefaults({ username: 'bare', email_address: 'bare@example.com', display_name: null, legacy_ids: [], attributes: {}, title: 'Analyst' }), uid: uuidv7(), created_at: at, updated_at: at, version: 1 };
        await sql`INSERT INTO users (uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version, profile, representation, etag, search)
          VALUES (${bare.uid}, ${bare.username}, ${bare.email_address}, '{}', NULL, '{}', ${at}, ${at}, 1, ${profileColumn(bare)}::text::json, NULL, NULL, ${searchColumn(bare)})`;
        await sql`INSERT INTO user_keys (key, value, uid) VALUES ('username', 'bare', ${bare.uid}), ('email_address', 'bare@example.com', ${bare.uid})`;

        const store = await open();
        assert.deepEqual(await store.findByKey('uid', bare.uid), bare, 'a row without a representation keeps its profile: the migration makes the representation before the column goes');
        const [index] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = 'events_by_subject'`;
        assert.equal(index?.n, 0, 'no index on events.subject');
        assert.equal((await store.findByKey('uid', kept.uid))?.title, 'Lead', 'the profile is read from the representation');
        const events = async (uid: string) => (await store.events.read(0, 10, uid)).events.map((e) => [e.type, e.data]);
        assert.deepEqual(await events(kept.uid), [['user.created', representationOf(kept).json], ['user.updated', representationOf(changed).json]]);
        assert.deepEqual(await events(gone), [['user.created', erasedEventData(gone, 1)], ['user.deleted', JSON.stringify({ uid: gone, version: 1 })]], 'a deleted user\'s events are found through erased_subjects');
        assert.equal((await store.events.read(1, 10, kept.uid)).events.length, 1, 'a page after a position holds only the later events');
        const third = await store.replace(kept.uid, (user) => ({ ...user, department: 'Sales' }), '2026-01-03T00:00:00.000Z');
        assert.equal(third.status, 'ok');
        await store.events.settle();
        const fourth = await store.replace(kept.uid, (user) => ({ ...user, department: 'Legal' }), '2026-01-04T00:00:00.000Z');
        assert.equal(fourth.status, 'ok');
        await store.events.settle();
        assert.deepEqual((await events(kept.uid)).map(([, data]) => JSON.parse(data as string).version), [1, 2, 3, 4], 'each event keeps its own version');
        assert.equal((await store.delete(kept.uid)).status, 'ok');
        await store.events.settle();
        assert.deepEqual((await events(kept.uid)).map(([, data]) => data), [1, 2, 3, 4].map((version) => erasedEventData(kept.uid, version)).concat(JSON.stringify({ uid: kept.uid, version: 4 })));
      });
    });

    it('stores starting together on a fresh database all get the same cursor key', async () => {
      const fresh = await createTestDatabase();
      try {
        const migrator = postgres(fresh.url, { max: 1, onnotice: () => {} });
        await migratePostgres(migrator);
        await migrator.end();
        const stores = await Promise.all(Array.from({ length: 6 }, () => openPostgresUserStore({ url: fresh.url })));
        const keys = await Promise.all(stores.map((s) => s.cursorKey()));
        for (const key of keys) assert.deepEqual(key, keys[0]);
        await Promise.all(stores.map((s) => s.close()));
      } finally {
        await fresh.drop();
      }
    });

    it('keyset paging reads from users_pkey with no Sort and no Seq Scan, whatever the depth (EXPLAIN after ANALYZE)', async () => {
      const fresh = await createTestDatabase();
      const store = await openPostgresUserStore({ url: fresh.url });
      const sql = postgres(fresh.url, { max: 1, onnotice: () => {} });
      try {
        const uids = Array.from({ length: 5000 }, () => uuidv7()).sort();
        await sql`
          INSERT INTO users (uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version)
          SELECT u, 'plan' || i, 'plan' || i || '@example.com', '{}', NULL, '{}'::json, now(), now(), 1
          FROM unnest(${uids}::uuid[]) WITH ORDINALITY AS t(u, i)`;
        await sql`ANALYZE users`;
        // The statement of a page after a cursor, as src/store/postgres/postgres-user-store.ts builds it in search().
        const page = 'SELECT uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version FROM users WHERE TRUE AND uid > $1::uuid ORDER BY uid LIMIT $2';
        type PlanNode = { 'Node Type': string; 'Index Name'?: string; 'Index Cond'?: string; Plans?: PlanNode[] };
        const planOf = (rows: readonly unknown[]) => (rows[0] as { 'QUERY PLAN': [{ Plan: PlanNode }] })['QUERY PLAN'][0].Plan;
        const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];
        const assertIndexPlan = (plan: PlanNode, what: string) => {
          const all = nodes(plan);
          const shown = JSON.stringify(all.map((n) => [n['Node Type'], n['Index Name'], n['Index Cond']]));
          assert.ok(
            all.some((n) => n['Node Type'] === 'Index Scan' && n['Index Name'] === 'users_pkey' && /\buid > /.test(n['Index Cond'] ?? '')),
            `${what}: no Index Scan on users_pkey with uid > …: ${shown}`,
          );
          for (const forbidden of ['Sort', 'Incremental Sort', 'Seq Scan']) {
            assert.equal(all.some((n) => n['Node Type'] === forbidden), false, `${what}: the plan has a ${forbidden}: ${shown}`);
          }
        };
        for (const after of [uids[0], uids[2500], uids[4990]]) {
          for (const limit of [101, 1001]) {
            assertIndexPlan(planOf(await sql.unsafe(`EXPLAIN (FORMAT JSON) ${page}`, [after as string, limit])), `after ${after}, limit ${limit}`);
          }
        }
        // The store prepares its statements: after a few runs PostgreSQL may switch to the generic plan.
        await sql.begin(async (tx) => {
          await tx`SET LOCAL plan_cache_mode = force_generic_plan`;
          await tx.unsafe(`PREPARE keyset_page(uuid, bigint) AS ${page}`);
          assertIndexPlan(planOf(await tx.unsafe(`EXPLAIN (FORMAT JSON) EXECUTE keyset_page('${uids[2500]}', 101)`)), 'generic plan');
          await tx.unsafe('DEALLOCATE keyset_page');
        });
        // The store pages with that statement: users it writes after the others come after the last cursor.
        const now = new Date().toISOString();
        const later = [];
        for (let i = 0; i < 3; i++) {
          later.push(await store.create(withDefaults({ uid: uuidv7(), username: `later${i}`, email_address: `later${i}@example.com`, legacy_ids: [], display_name: null, attributes: {}, created_at: now, updated_at: now, version: 1 })));
        }
        const { value: users } = await store.search({ filter: {}, after: uids[4999], limit: 10 });
        assert.deepEqual(users.map((user) => user.uid), later.map((user) => user.uid));
      } finally {
        await sql.end();
        await store.close();
        await fresh.drop();
      }
    });

    it('stores attributes as a JSON object that SQL can query', async () => {
      const store = await openPostgresUserStore({ url: db.url });
      const now = new Date().toISOString();
      const user = await store.create(withDefaults({ uid: uuidv7(), username: 'jsonic', email_address: 'jsonic@example.com', legacy_ids: [], display_name: null, attributes: { department: 'R&D' }, created_at: now, updated_at: now, version: 1 }));
      const sql = postgres(db.url, { max: 1, onnotice: () => {} });
      const [row] = await sql`SELECT json_typeof(attributes) AS kind, attributes->>'department' AS department FROM users WHERE uid = ${user.uid}`;
      assert.deepEqual({ ...row }, { kind: 'object', department: 'R&D' });
      await sql.end();
      await store.close();
    });

    it('import: a key another writer takes between the batch\'s read and its write is a conflict, planned again or record by record; the rest of the batch is written', async () => {
      for (const importRetries of [3, 0]) {
        let fellBack = false;
        const store = await openPostgresUserStore({ url: db.url, importRetries, onImportFallback: () => (fellBack = true) });
        const other = postgres(db.url, { max: 1, onnotice: () => {} });
        const watcher = postgres(db.url, { max: 1, onnotice: () => {} });
        const now = new Date().toISOString();
        const taken = `race:${importRetries}`;
        const user = (name: string, legacy: string[]) => (withDefaults({ uid: uuidv7(), username: name, email_address: `${name}@example.com`, legacy_ids: legacy, display_name: null, attributes: {}, created_at: now, updated_at: now, version: 1 }));
        const rival = user(`rival${importRetries}`, [taken]);
        // The rival's key, inserted but not committed: invisible to the import's read, in the way of its write.
        let holding!: () => void;
        let commit!: () => void;
        const held = new Promise<void>((resolve) => (holding = resolve));
        const committed = new Promise<void>((resolve) => (commit = resolve));
        const rivalTx = other.begin(async (tx) => {
          await tx`INSERT INTO users (uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version)
            VALUES (${rival.uid}, ${rival.username}, ${rival.email_address}, ${rival.legacy_ids}, NULL, '{}'::json, ${now}, ${now}, 1)`;
          await tx`INSERT INTO user_keys (key, value, uid) VALUES ('username', ${rival.username}, ${rival.uid}), ('email_address', ${rival.email_address}, ${rival.uid}), ('legacy_id', ${taken}, ${rival.uid})`;
          holding();
          await committed;
        });
        try {
          await held;
          const batch = [user(`loser${importRetries}`, [taken]), user(`winner${importRetries}`, [])];
          const importing = store.importUsers(batch, 'skip', now);
          // Commit the rival only once the import waits for its key (a lock wait), so the race is certain.
          for (;;) {
            const [row] = await watcher`SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
            if ((row?.waiting as number) > 0) break;
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
          commit();
          await rivalTx;
          assert.deepEqual(await importing, [{ status: 'conflict', key: 'legacy_id' }, { status: 'created', uid: batch[1]!.uid }], `importRetries ${importRetries}`);
          assert.equal((await store.findByKey('legacy_id', taken))?.uid, rival.uid);
          assert.equal(await store.findByKey('uid', batch[0]!.uid), undefined, 'the losing user is all or nothing');
          assert.ok(await store.findByKey('uid', batch[1]!.uid));
          assert.equal(fellBack, importRetries === 0, 'planned again while retries remain, record by record after');
        } finally {
          commit();
          await rivalTx.catch(() => {});
          await Promise.all([other.end(), watcher.end(), store.close()]);
        }
      }
    });

    it('connects with synchronous_commit=on and a bounded pool', () => {
      const options = postgresClientOptions({ url: db.url });
      assert.equal(options.connection.synchronous_commit, 'on');
      assert.equal(options.max, 10);
      assert.equal(options.prepare, true);
    });

    it('a statement over the timeout (here: waiting on a row lock) is StoreUnavailableError, and the store recovers', async () => {
      const store = await openPostgresUserStore({ url: db.url, statementTimeoutMs: 200 });
      const now = new Date().toISOString();
      const user = await store.create(withDefaults({ uid: uuidv7(), username: 'locked', email_address: 'locked@example.com', legacy_ids: [], display_name: null, attributes: {}, created_at: now, updated_at: now, version: 1 }));
      const holder = postgres(db.url, { max: 1, onnotice: () => {} });
      // The row lock is held until the store's statement has timed out: no timing guesses.
      let locked!: () => void;
      let release!: () => void;
      const hasLock = new Promise<void>((resolve) => (locked = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      const holding = holder.begin(async (tx) => {
        await tx`SELECT 1 FROM users WHERE uid = ${user.uid} FOR UPDATE`;
        locked();
        await released;
      });
      try {
        await hasLock;
        await assert.rejects(store.delete(user.uid), StoreUnavailableError);
      } finally {
        release();
        await holding;
      }
      assert.equal((await store.delete(user.uid)).status, 'ok');
      await holder.end();
      await store.close();
    });
  });
}
