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

export interface TestDatabaseUrl {
  /** A DATABASE_URL naming a new, empty database: a SQLite file in a temporary folder, or a new PostgreSQL database. */
  databaseUrl: string;
  /** Removes the database. */
  remove(): Promise<void>;
}

export async function createTestDatabaseUrl(kind: StoreKind): Promise<TestDatabaseUrl> {
  if (kind === 'postgres') {
    const db = await createTestDatabase();
    return { databaseUrl: db.url, remove: () => db.drop() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'user-service-test-'));
  return { databaseUrl: `sqlite:${join(dir, 'users.db')}`, remove: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** Opens a store over an existing test database. */
export async function openTestStoreAt(kind: StoreKind, databaseUrl: string): Promise<UserStore> {
  return kind === 'postgres' ? openPostgresUserStore({ url: databaseUrl }) : openSqliteUserStore({ path: databaseUrl.slice('sqlite:'.length) });
}

/** A fresh, empty store of the given kind. */
export async function openTestStore(kind: StoreKind): Promise<OpenedTestStore> {
  const { databaseUrl, remove } = await createTestDatabaseUrl(kind);
  const store = await openTestStoreAt(kind, databaseUrl);
  return {
    store,
    databaseUrl,
    async cleanup() {
      await store.close();
      await remove();
    },
  };
}
