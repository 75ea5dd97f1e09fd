/**
 * Opens the store that the configuration names. Each backend's driver is loaded
 * only when chosen: the SQLite path never loads the PostgreSQL driver.
 */
import type { StoreConfig } from '../config.js';
import { StoreUnavailableError } from './store-errors.js';
import type { UserStore } from './user-store.js';

/** Opens the store; a failure names DATABASE_URL, so the one start-up line says what to fix. */
export async function openStore(config: StoreConfig): Promise<UserStore> {
  try {
    return await openConfiguredStore(config);
  } catch (error) {
    const why = error instanceof StoreUnavailableError ? `the store cannot be reached` : `the store cannot be opened`;
    const cause = (error instanceof StoreUnavailableError ? error.cause : error) as { code?: string; message?: string } | undefined;
    throw new Error(`DATABASE_URL: ${why} (${cause?.code ?? cause?.message ?? 'unknown cause'})`, { cause: error });
  }
}

async function openConfiguredStore(config: StoreConfig): Promise<UserStore> {
  switch (config.kind) {
    case 'sqlite': {
      const { openSqliteUserStore } = await import('./sqlite/sqlite-user-store.js');
      return openSqliteUserStore({ path: config.path, synchronous: config.synchronous });
    }
    case 'postgres': {
      const { openPostgresUserStore } = await import('./postgres/postgres-user-store.js');
      return openPostgresUserStore(config);
    }
  }
}

export interface MigrationResult {
  /** How many migrations this call applied (0 when the schema was current). */
  applied: number;
  /** The schema version the store is at now. */
  version: number;
}

/** Applies the pending migrations of the configured store and closes it again. */
export async function migrateStore(config: StoreConfig): Promise<MigrationResult> {
  switch (config.kind) {
    case 'sqlite': {
      const { migrateSqliteFile } = await import('./sqlite/sqlite-migrations.js');
      return migrateSqliteFile(config.path);
    }
    case 'postgres': {
      const { migratePostgresUrl } = await import('./postgres/postgres-migrations.js');
      return migratePostgresUrl(config.url);
    }
  }
}
