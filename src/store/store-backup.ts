/**
 * The port of the operations on a whole store (docs/deployment.md, "Backups"):
 * a consistent snapshot of a live store, a restore of one into a new file, and a
 * verification of a snapshot or a store. The commands under cli/ and the service's
 * schedule call only this port; the SQLite adapter implements it (sqlite/sqlite-backup.ts).
 * PostgreSQL has no adapter: its own tools do this better (pg_dump -Fc, pgBackRest,
 * WAL archiving), and asking for one is a BackupUnsupportedError that names them.
 */
import type { NewerExport } from './deleted-since-export.js';
import type { StoreConfig } from '../config.js';
import { describeOpenError } from './open-store-errors.js';

/**
 * What a snapshot holds, written beside it as `NAME.manifest.json` once the snapshot is
 * complete: a snapshot file without its manifest is not a snapshot (an interrupted run).
 */
export interface SnapshotManifest {
  format: 'user-service-snapshot/1';
  /** The snapshot file's name, in the manifest's folder. */
  file: string;
  /** The schema version (PRAGMA user_version) the snapshot was made at. */
  schema_version: number;
  users: number;
  /** The change-feed position the snapshot reflects: every event at or below it, none above. */
  feed_position: number;
  bytes: number;
  /** SHA-256 (hex) of the snapshot file. */
  sha256: string;
  /** When the snapshot's read began (RFC 3339 UTC): it holds every write acknowledged before. */
  started_at: string;
  finished_at: string;
}

export interface RestoreOptions {
  /** Replace a target that holds users (refused otherwise). */
  force: boolean;
  /** Uids to delete after restoring (deletions made after the snapshot: docs/security.md). */
  erase: readonly string[];
  /** A `user-service export` made after the snapshot: the snapshot's users it lacks are deleted too (deleted-since-export.ts). */
  newerExport?: NewerExport;
}

export interface RestoreReport {
  users: number;
  /** The snapshot's feed position: a consumer that read at or below it continues. */
  feedPosition: number;
  /** Where the restored feed's next positions start (see sqlite-restore.ts). */
  nextPosition: number;
  /** The schema versions before and after migrating. */
  fromSchema: number;
  toSchema: number;
  /** How many of the named uids were present and deleted. */
  erased: number;
  /** How many users of the snapshot the newer export lacks, all deleted (0 without one). */
  missingFromExport: number;
}

export interface VerifyReport {
  /** Each disagreement found, in words; empty when the store is sound. */
  problems: string[];
  users: number;
  feedPosition: number;
  schemaVersion: number;
  /** Users whose stored representation was rendered again and compared. */
  sampled: number;
}

/** A snapshot, store or restore target that is refused: the message says why, in words. */
export class BackupRefusedError extends Error {}

/** Asked of a store that has no snapshot adapter (PostgreSQL): the message names what to use. */
export class BackupUnsupportedError extends Error {}

export interface StoreBackup {
  /**
   * Writes a consistent snapshot of the live store to `target` (a file that must not
   * exist), while other processes keep reading and writing: made under a temporary
   * name in the same folder, synced, then renamed, the manifest last. Aborting `signal`
   * stops it and removes what it wrote (the promise rejects).
   */
  snapshot(target: string, signal?: AbortSignal): Promise<SnapshotManifest>;
  /** Restores `snapshot` into the file `target`, after checking it (BackupRefusedError). */
  restore(snapshot: string, target: string, options: RestoreOptions): Promise<RestoreReport>;
  /** Checks a snapshot (with its manifest) or a store file, reading only. */
  verify(path: string, options: { sample: number }): Promise<VerifyReport>;
}

export const POSTGRES_BACKUP_ADVICE =
  'PostgreSQL backs up with its own tools: pg_dump -Fc "$DATABASE_URL" -f users.dump (a consistent logical copy, restored with pg_restore), or pgBackRest / WAL archiving for point-in-time recovery (docs/deployment.md, "Backups on PostgreSQL")';

/** The backup adapter of the configured store's kind; loads SQLite's only when chosen. `stepDelayMs`: crash tests only. */
export async function storeBackupFor(config: StoreConfig, stepDelayMs = 0): Promise<StoreBackup> {
  if (config.kind === 'postgres') throw new BackupUnsupportedError(POSTGRES_BACKUP_ADVICE);
  if (config.path === ':memory:') throw new BackupUnsupportedError('an in-memory SQLite store (sqlite::memory:) has nothing on disk to back up');
  const { sqliteBackup } = await import('./sqlite/sqlite-backup.js');
  return sqliteBackup(config.path, stepDelayMs);
}

/** Restore and verify of snapshot and store files, which need no configured store (SQLite's are files). */
export async function fileBackup(): Promise<Pick<StoreBackup, 'restore' | 'verify'>> {
  const { restoreSqliteSnapshot, verifySqlite } = await import('./sqlite/sqlite-backup.js');
  return { restore: restoreSqliteSnapshot, verify: verifySqlite };
}

/**
 * Marks the configured store as restored by other means than `restore` (pg_restore, a
 * point-in-time recovery, a SQLite file copied back): see restore-gap.ts. Returns the
 * restored position and the one the next event follows.
 */
export async function markFeedRestored(config: StoreConfig): Promise<{ restored: number; next: number }> {
  if (config.kind === 'postgres') {
    const { markPostgresRestore } = await import('./postgres/postgres-restore-mark.js');
    try {
      return await markPostgresRestore(config.url, config.connectTimeoutMs);
    } catch (error) {
      // Worded as a start's failure (open-store-errors.ts), never the driver's own text.
      throw new Error(describeOpenError(config, error), { cause: error });
    }
  }
  const [{ openSqliteDatabase }, { markSqliteRestore, refuseOpenElsewhere }] = await Promise.all([import('./sqlite/sqlite-connection.js'), import('./sqlite/sqlite-restore.js')]);
  if (config.path === ':memory:') throw new BackupUnsupportedError('an in-memory SQLite store (sqlite::memory:) has nothing on disk to mark');
  refuseOpenElsewhere(config.path);
  const db = openSqliteDatabase(config.path, { mustExist: true });
  try {
    return markSqliteRestore(db);
  } finally {
    db.close();
  }
}
