/** The SQLite adapter of the StoreBackup port (store-backup.ts): snapshot, restore, verify. */
import type { StoreBackup } from '../store-backup.js';
import { restoreSqliteSnapshot } from './sqlite-restore.js';
import { startSnapshot } from './sqlite-snapshot.js';
import { verifySqlite } from './sqlite-verify.js';

/** `source`: the live store file that snapshots copy. */
export function sqliteBackup(source: string): StoreBackup {
  return {
    snapshot: (target) => startSnapshot(source, target).result,
    restore: restoreSqliteSnapshot,
    verify: verifySqlite,
  };
}

export { restoreSqliteSnapshot, verifySqlite };
