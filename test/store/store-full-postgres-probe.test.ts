/**
 * The write probe of the PostgreSQL store (UserStore.probeWrite): it commits and
 * leaves nothing behind, and on a server that turned read-only (25006, set here
 * with `default_transaction_read_only` on the database, its older sessions ended)
 * it fails with StoreFullError until the server is writable again.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { openPostgresUserStore } from '../../src/store/postgres/postgres-user-store.js';
import { StoreFullError, StoreUnavailableError } from '../../src/store/store-errors.js';
import type { UserStore } from '../../src/store/user-store.js';
import { ADMIN_URL, createTestDatabase, postgresSkipReason, type TestDatabase } from '../helpers/postgres.js';

const skip = await postgresSkipReason();

describe('the PostgreSQL write probe', skip ? { skip } : {}, () => {
  let database: TestDatabase;
  let store: UserStore;
  let admin: postgres.Sql;

  before(async () => {
    database = await createTestDatabase();
    store = await openPostgresUserStore({ url: database.url });
    admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  });
  after(async () => {
    await store?.close();
    await admin?.end({ timeout: 1 });
    await database?.drop();
  });

  /** Sets the database's default, and ends its sessions so that the store's next ones take it. */
  async function readOnly(on: boolean): Promise<void> {
    await admin.unsafe(`ALTER DATABASE ${database.name} ${on ? 'SET default_transaction_read_only = on' : 'RESET default_transaction_read_only'}`);
    await endSessionsOlderThan(await admin`SELECT clock_timestamp() AS at`.then(([row]) => row!.at as Date));
    await pastEndedSessions(() => store.ping());
  }

  /**
   * Ends the store's sessions that started before `changed` (newer ones already took the new
   * default). A session is ended only once it is idle after a statement: one that has just
   * connected runs postgres.js's own array-type query first, whose promise the driver drops
   * (porsager/postgres#1192, src/server.ts), so ending it then would be an unhandled rejection
   * of the driver's, not a failure of the store. The change feed's LISTEN session is left
   * alone: it writes nothing, and postgres.js reconnects an ended one on its own, in promises
   * of the store's opening that no test can await.
   */
  async function endSessionsOlderThan(changed: Date): Promise<void> {
    for (;;) {
      const [row] = await admin<{ older: number }[]>`
        WITH older AS (SELECT pid, state, query FROM pg_stat_activity WHERE datname = ${database.name} AND pid <> pg_backend_pid() AND backend_start < ${changed} AND query NOT ILIKE 'listen %')
        SELECT (SELECT count(*)::int FROM older) AS older, (SELECT count(*)::int FROM older WHERE state = 'idle' AND query <> '' AND pg_terminate_backend(pid)) AS ended`;
      if (row!.older === 0) return;
      await sleep(10);
    }
  }

  /**
   * Runs `operation` until it meets no session of the store that the server ended
   * (the store learns of each as it uses it: StoreUnavailableError), at most 20 times.
   */
  async function pastEndedSessions(operation: () => Promise<void>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await operation();
      } catch (error) {
        if (!(error instanceof StoreUnavailableError) || attempt === 20) throw error;
      }
    }
  }

  async function probeRows(): Promise<number> {
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM service_keys WHERE name LIKE 'space-probe%'`;
      return row!.n;
    } finally {
      await sql.end({ timeout: 1 });
    }
  }

  it('commits and leaves nothing behind', async () => {
    await store.probeWrite();
    await store.probeWrite();
    assert.equal(await probeRows(), 0);
  });

  it('fails with StoreFullError (25006) while the server is read-only, and succeeds once it is writable again', async () => {
    await readOnly(true);
    // Every pooled session is new and read-only: each attempt fails the same way.
    for (let i = 0; i < 3; i++) {
      await assert.rejects(
        pastEndedSessions(() => store.probeWrite()),
        (error: unknown) => error instanceof StoreFullError && (error.cause as { code?: string }).code === '25006',
      );
    }
    await readOnly(false);
    await pastEndedSessions(() => store.probeWrite());
    assert.equal(await probeRows(), 0);
  });
});
