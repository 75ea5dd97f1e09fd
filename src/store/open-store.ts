/**
 * Opens the store that the configuration names. Each backend's driver is loaded
 * only when chosen: the SQLite path never loads the PostgreSQL driver.
 */
import type { StoreConfig } from '../config.js';
import type { UserStore } from './user-store.js';

export async function openStore(config: StoreConfig): Promise<UserStore> {
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
