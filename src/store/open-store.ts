/**
 * Opens the store that the configuration names. Each backend's driver is loaded
 * only when chosen: the SQLite path never loads the PostgreSQL driver.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError, type StoreConfig } from '../config.js';
import { describeOpenError } from './open-store-errors.js';
import type { UserStore } from './user-store.js';

export { storeLocation } from './open-store-errors.js';

export interface OpenStoreOptions {
  /** Open an existing database only, creating nothing (export reads; it must not make an empty database at a mistyped path). */
  mustExist?: boolean;
  /** The process writes in large batches (an import): the store may tune for that (SQLite checkpoints less often). */
  bulkWrites?: boolean;
  /** Hears failures of the store's own background work (the change feed's sequencer on PostgreSQL), retried by itself. */
  onBackgroundError?: (error: unknown) => void;
  /** Hears each move to another PostgreSQL primary and each stale writer refused (DATABASE_URL naming several hosts). */
  onFailoverEvent?: (event: FailoverEvent) => void;
}

/** A move to another PostgreSQL primary, or a stale writer refused (postgres/primary-follower.ts). */
export interface FailoverEvent {
  kind: 'primary-changed' | 'stale-writer';
  host: string;
  timeline: number | undefined;
}

/**
 * Refuses a SQLite path whose folder does not exist, unless the configuration lets it be
 * created (`createDirectory`: SQLITE_CREATE_DIRECTORY, --create, or the default path):
 * a ConfigError (exit 2) thrown before anything is opened or made, so a mistyped
 * DATABASE_URL never becomes an empty database beside the real one. A missing file in
 * an existing folder is a first start, and is created.
 */
export function refuseMissingSqliteFolder(config: StoreConfig): void {
  if (config.kind !== 'sqlite' || config.path === ':memory:' || config.createDirectory) return;
  const folder = dirname(config.path);
  if (existsSync(folder)) return;
  throw new ConfigError(
    'DATABASE_URL',
    `the folder of the SQLite database ${config.path} does not exist (${resolve(folder)}); nothing was created. Check the path, or set SQLITE_CREATE_DIRECTORY=true (on the command line: --create) to create the folder`,
  );
}

/**
 * Opens the store; a failure is one line naming DATABASE_URL and the cause in words
 * (open-store-errors.ts). A SQLite path in a missing folder is a ConfigError unless
 * its creation was asked for; `mustExist` refuses it as it refuses a missing file.
 */
export async function openStore(config: StoreConfig, options: OpenStoreOptions = {}): Promise<UserStore> {
  if (options.mustExist !== true) refuseMissingSqliteFolder(config);
  try {
    return await openConfiguredStore(config, options);
  } catch (error) {
    throw new Error(describeOpenError(config, error, options.mustExist), { cause: error });
  }
}

async function openConfiguredStore(config: StoreConfig, options: OpenStoreOptions): Promise<UserStore> {
  switch (config.kind) {
    case 'sqlite': {
      const { openSqliteUserStore } = await import('./sqlite/sqlite-user-store.js');
      return openSqliteUserStore({
        path: config.path,
        synchronous: config.synchronous,
        secureDelete: config.secureDelete,
        changeFeed: config.changeFeed,
        mustExist: options.mustExist === true,
        createDirectory: config.createDirectory,
        bulkWrites: options.bulkWrites === true,
      });
    }
    case 'postgres': {
      const { openPostgresUserStore } = await import('./postgres/postgres-user-store.js');
      return openPostgresUserStore({
        ...config,
        ...(options.onBackgroundError ? { onBackgroundError: options.onBackgroundError } : {}),
        ...(options.onFailoverEvent ? { onFailoverEvent: options.onFailoverEvent } : {}),
      });
    }
  }
}

export interface MigrationResult {
  /** How many migrations this call applied (0 when the schema was current). */
  applied: number;
  /** The schema version the store is at now. */
  version: number;
}

/** Applies the pending migrations of the configured store and closes it again; failures are worded as openStore's. */
export async function migrateStore(config: StoreConfig): Promise<MigrationResult> {
  refuseMissingSqliteFolder(config);
  try {
    switch (config.kind) {
      case 'sqlite': {
        const { migrateSqliteFile } = await import('./sqlite/sqlite-migrations.js');
        return migrateSqliteFile(config.path, { createDirectory: config.createDirectory });
      }
      case 'postgres': {
        const { migratePostgresUrl } = await import('./postgres/postgres-migrations.js');
        return await migratePostgresUrl(config.url, config.connectTimeoutMs);
      }
    }
  } catch (error) {
    throw new Error(describeOpenError(config, error), { cause: error });
  }
}
