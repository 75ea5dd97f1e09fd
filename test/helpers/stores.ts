/**
 * The stores the HTTP suite runs against. Every HTTP test file declares its
 * suites through describeEachStore(), so one run covers SQLite and PostgreSQL
 * with the same tests; PostgreSQL is skipped with its reason when unreachable
 * (and fails the run under CI=true, see postgres.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import { openPostgresUserStore } from '../../src/store/postgres/postgres-user-store.js';
import { openSqliteUserStore } from '../../src/store/sqlite/sqlite-user-store.js';
import type { UserStore } from '../../src/store/user-store.js';
import { createTestDatabase, postgresSkipReason } from './postgres.js';

export type StoreKind = 'sqlite' | 'postgres';

export interface OpenedTestStore {
  store: UserStore;
  /** The DATABASE_URL a service process would use for the same data. */
  databaseUrl: string;
  /** Closes the store and removes its data. */
  cleanup(): Promise<void>;
}

const postgresSkip = await postgresSkipReason();

export const STORE_KINDS: readonly { kind: StoreKind; skip?: string }[] = [
  { kind: 'sqlite' },
  postgresSkip ? { kind: 'postgres', skip: postgresSkip } : { kind: 'postgres' },
];

/** Declares the same suite once per store: `describe('title [sqlite]')`, `describe('title [postgres]')`. */
export function describeEachStore(title: string, suite: (kind: StoreKind) => void): void {
  for (const { kind, skip } of STORE_KINDS) {
    describe(`${title} [${kind}]`, skip ? { skip } : {}, () => suite(kind));
  }
}

/** A fresh, empty store of the given kind: a SQLite file in a temporary folder, or a new PostgreSQL database. */
export async function openTestStore(kind: StoreKind): Promise<OpenedTestStore> {
  if (kind === 'postgres') {
    const db = await createTestDatabase();
    const store = await openPostgresUserStore({ url: db.url });
    return {
      store,
      databaseUrl: db.url,
      async cleanup() {
        await store.close();
        await db.drop();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'user-service-test-'));
  const path = join(dir, 'users.db');
  const store = openSqliteUserStore({ path });
  return {
    store,
    databaseUrl: `sqlite:${path}`,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
