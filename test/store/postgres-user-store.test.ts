import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { v7 as uuidv7 } from 'uuid';
import { StoreUnavailableError } from '../../src/store/store-errors.js';
import { openPostgresUserStore, postgresClientOptions } from '../../src/store/postgres/postgres-user-store.js';
import { migratePostgres, POSTGRES_MIGRATIONS } from '../../src/store/postgres/postgres-migrations.js';
import type { UserStore } from '../../src/store/user-store.js';
import { createTestDatabase, postgresSkipReason, type TestDatabase } from '../helpers/postgres.js';
import { storeContractSuite } from '../store-contract.js';

const skip = await postgresSkipReason();

if (skip) {
  describe('UserStore contract: PostgreSQL', { skip }, () => {});
} else {
  storeContractSuite('PostgreSQL', async () => {
    const db = await createTestDatabase();
    let store: UserStore = await openPostgresUserStore({ url: db.url });
    return {
      store,
      async reopen() {
        await store.close();
        store = await openPostgresUserStore({ url: db.url });
        return store;
      },
      async cleanup() {
        await store.close();
        await db.drop();
      },
    };
  });

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

    it('connects with synchronous_commit=on and a bounded pool', () => {
      const options = postgresClientOptions({ url: db.url });
      assert.equal(options.connection.synchronous_commit, 'on');
      assert.equal(options.max, 10);
      assert.equal(options.prepare, true);
    });

    it('a statement over the timeout (here: waiting on a row lock) is StoreUnavailableError, and the store recovers', async () => {
      const store = await openPostgresUserStore({ url: db.url, statementTimeoutMs: 200 });
      const now = new Date().toISOString();
      const user = await store.create({ uid: uuidv7(), username: 'locked', email_address: 'locked@example.com', legacy_ids: [], display_name: null, attributes: {}, created_at: now, updated_at: now, version: 1 });
      const holder = postgres(db.url, { max: 1, onnotice: () => {} });
      const release = holder.begin(async (tx) => {
        await tx`SELECT 1 FROM users WHERE uid = ${user.uid} FOR UPDATE`;
        await new Promise((resolve) => setTimeout(resolve, 800));
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      await assert.rejects(store.delete(user.uid), StoreUnavailableError);
      await release;
      assert.equal((await store.delete(user.uid)).status, 'ok');
      await holder.end();
      await store.close();
    });
  });
}
