/**
 * Restoring a SQLite snapshot into a store file. The snapshot is checked first (its
 * manifest's SHA-256, then SQLite's integrity check), copied beside the target under a
 * temporary name, migrated forward, given its feed's restore mark, cleared of the users
 * the operator names (docs/security.md, "Erasure and backups"), synced and renamed over
 * the target. A target that holds users is replaced only when asked (`force`). The
 * service must not be running on the target meanwhile (docs/deployment.md, "Restore").
 *
 * The feed after a restore: consumers that read at or below the snapshot's position
 * continue; one that read further on the lost store is answered 410 (restore-gap.ts).
 */
import { deletedSince, type NewerExport, type SnapshotUser } from '../deleted-since-export.js';
import { existsSync } from 'node:fs';
import { copyFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import { BackupRefusedError, type RestoreOptions, type RestoreReport } from '../store-backup.js';
import { IMPORT_ORIGIN } from '../../events/event-origin.js';
import { checkAgainstManifest, fsyncPath, partialPath, readManifest } from '../snapshot-files.js';
import Database from './sqlite-driver.js';
import { migrateSqlite, SQLITE_MIGRATIONS } from './sqlite-migrations.js';
import { openSqliteUserStore } from './sqlite-user-store.js';
import { RESTORE_GAP_PREFIX, RESTORE_POSITION_GAP } from '../restore-gap.js';

/** Refuses a file SQLite cannot read whole: PRAGMA integrity_check, or a file that is no database at all. */
export function checkIntegrity(path: string): void {
  let db: SqliteDatabase | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const result = db.prepare('PRAGMA integrity_check(5)').pluck().all() as string[];
    // One line: SQLite's first finding reads "*** in database main ***" and names the damage on the next line.
    if (result.length !== 1 || result[0] !== 'ok') throw new BackupRefusedError(`${path} fails SQLite's integrity check: ${result.join('; ').replace(/\s*\n\s*/g, ' ')}`);
  } catch (error) {
    if (error instanceof BackupRefusedError) throw error;
    throw new BackupRefusedError(`${path} is not a readable SQLite database: ${(error as Error).message}`);
  } finally {
    db?.close();
  }
}

/**
 * Refuses a store file that another process has open (a running service): an exclusive
 * lock, which SQLite grants in WAL mode only when no other connection is open, is asked
 * for without waiting. Replacing or marking a file under a running service would lose
 * its writes, or leave its feed unaware of the restore.
 */
export function refuseOpenElsewhere(path: string): void {
  if (!existsSync(path)) return;
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (error) {
    // Anything else (a file that is no database) is no store a service could have open.
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new BackupRefusedError(`${path} is open in another process (a running service?); nothing was changed. Stop it first`);
  } finally {
    db.close();
  }
}

/** The users a store file holds: 0 for a missing or empty file (nothing to lose). */
function usersIn(path: string): number {
  if (!existsSync(path)) return 0;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const hasUsers = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'users'").get() !== undefined;
    return hasUsers ? (db.prepare('SELECT count(*) FROM users').pluck().get() as number) : 0;
  } finally {
    db.close();
  }
}

/** The users of the store file at `path` that `newer` shows deleted (deleted-since-export.ts). */
function deletedSinceIn(path: string, newer: NewerExport): string[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return deletedSince(db.prepare('SELECT uid, version, updated_at, event_position AS position FROM users').iterate() as Iterable<SnapshotUser>, newer);
  } finally {
    db.close();
  }
}

/** Marks a restore in the feed (restore-gap.ts) at the file's latest position; returns the position the next event follows. */
export function markSqliteRestore(db: SqliteDatabase): { restored: number; next: number } {
  return db.transaction(() => {
    const restored = (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'").pluck().get() as number | undefined) ?? 0;
    const next = restored + RESTORE_POSITION_GAP;
    db.prepare("DELETE FROM sqlite_sequence WHERE name = 'events'").run();
    db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('events', ?)").run(next);
    db.prepare('INSERT OR REPLACE INTO feed_state (name, position) VALUES (?, ?)').run(`${RESTORE_GAP_PREFIX}${restored}`, next);
    return { restored, next };
  }).immediate();
}

export async function restoreSqliteSnapshot(snapshot: string, target: string, options: RestoreOptions): Promise<RestoreReport> {
  const manifest = readManifest(snapshot);
  await checkAgainstManifest(snapshot, manifest);
  checkIntegrity(snapshot);
  if (!existsSync(dirname(target))) throw new BackupRefusedError(`the folder of ${target} does not exist`);
  if (!options.force) {
    let held: number;
    try {
      held = usersIn(target);
    } catch {
      throw new BackupRefusedError(`${target} exists and is not a readable store; nothing was changed. Add --force to replace it`);
    }
    if (held > 0) throw new BackupRefusedError(`${target} holds ${held} users; nothing was changed. Restore into a new file, or add --force to replace it (stop the service first)`);
  }
  refuseOpenElsewhere(target);

  const partial = partialPath(target);
  try {
    await copyFile(snapshot, partial);
    const db = new Database(partial, { fileMustExist: true });
    let fromSchema: number;
    let nextPosition: number;
    try {
      fromSchema = db.pragma('user_version', { simple: true }) as number;
      migrateSqlite(db);
      nextPosition = markSqliteRestore(db).next;
    } finally {
      db.close();
    }
    // The users a newer export shows deleted since the snapshot, decided before anything is deleted.
    const missing = options.newerExport ? deletedSinceIn(partial, options.newerExport) : [];
    const named = new Set(options.erase);
    // Through the store's own delete: the user's keys, earlier events and stored answers go with it (erasure.ts).
    let erased = 0;
    if (options.erase.length + missing.length > 0) {
      const store = openSqliteUserStore({ path: partial, mustExist: true });
      try {
        for (const uid of options.erase) if ((await store.delete(uid, undefined, IMPORT_ORIGIN)).status === 'ok') erased++;
        for (const uid of missing) if (!named.has(uid)) await store.delete(uid, undefined, IMPORT_ORIGIN);
      } finally {
        await store.close();
      }
    }
    const restored = new Database(partial, { fileMustExist: true });
    let users: number;
    try {
      // One self-contained file again (the store's open made it WAL), then renamed over the target.
      restored.pragma('journal_mode = DELETE');
      users = restored.prepare('SELECT count(*) FROM users').pluck().get() as number;
    } finally {
      restored.close();
    }
    fsyncPath(partial);
    // A WAL left by the replaced store would be applied to the restored file: it goes first.
    await Promise.all(['-wal', '-shm', '-journal'].map((suffix) => rm(`${target}${suffix}`, { force: true })));
    await rename(partial, target);
    fsyncPath(dirname(target));
    return { users, feedPosition: manifest.feed_position, nextPosition, fromSchema, toSchema: SQLITE_MIGRATIONS.length, erased, missingFromExport: missing.length };
  } catch (error) {
    // A failed removal must not hide why the restore failed.
    await Promise.allSettled(['', '-wal', '-shm', '-journal'].map((suffix) => rm(`${partial}${suffix}`, { force: true })));
    throw error;
  }
}
