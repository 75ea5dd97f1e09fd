/** The SQLite adapter of the StoreBackup port (store-backup.ts): snapshot, restore, verify. */
import type { StoreBackup } from '../store-backup.js';
import { restoreSqliteSnapshot } from './sqlite-restore.js';
import { startSnapshot } from './sqlite-snapshot.js';
import { verifySqlite } from './sqlite-verify.js';

/** `source`: the live store file that snapshots copy; `stepDelayMs` for crash tests only. */
export function sqliteBackup(source: string, stepDelayMs = 0): StoreBackup {
  return {
    snapshot(target, signal) {
      const run = startSnapshot(source, target, stepDelayMs);
      signal?.addEventListener('abort', () => void run.cancel(), { once: true });
      return run.result;
    },
    restore: restoreSqliteSnapshot,
    verify: verifySqlite,
  };
}

export { restoreSqliteSnapshot, verifySqlite };
