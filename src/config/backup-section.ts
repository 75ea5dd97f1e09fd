/**
 * Scheduled snapshots' section of the configuration: BACKUP_DIR, BACKUP_INTERVAL_S, BACKUP_KEEP.
 */
import { statSync } from 'node:fs';
import { ConfigError, integer, type Env } from './read-env.js';
import type { StoreConfig } from './store-section.js';

/** Scheduled snapshots (docs/deployment.md, "Scheduled snapshots"). */
export interface BackupConfig {
  /** The folder snapshots are written in (it must exist when the service starts). */
  dir: string;
  /** Time between the end of one snapshot and the start of the next, in ms. */
  intervalMs: number;
  /** How many complete snapshots are kept; older ones go once a new one is complete. */
  keep: number;
}

/** BACKUP_DIR, BACKUP_INTERVAL_S, BACKUP_KEEP: checked at start; a folder that later fails is the schedule's to report. */
export function backupConfig(env: Env, store: StoreConfig): BackupConfig | undefined {
  const dir = env.BACKUP_DIR;
  const intervalMs = integer(env, 'BACKUP_INTERVAL_S', 3600, 1, 30 * 86_400) * 1000;
  const keep = integer(env, 'BACKUP_KEEP', 7, 1, 10_000);
  if (!dir) return undefined;
  if (store.kind === 'postgres') throw new ConfigError('BACKUP_DIR', 'scheduled snapshots are for the SQLite store; on PostgreSQL use pg_dump -Fc or pgBackRest (docs/deployment.md)');
  if (store.path === ':memory:') throw new ConfigError('BACKUP_DIR', 'an in-memory SQLite store (sqlite::memory:) has nothing on disk to back up');
  let folder = false;
  try {
    folder = statSync(dir).isDirectory();
  } catch {
    folder = false;
  }
  if (!folder) throw new ConfigError('BACKUP_DIR', `${JSON.stringify(dir)} is not an existing folder`);
  return { dir, intervalMs, keep };
}

export interface BackupSection {
  /** Scheduled snapshots of the SQLite store (BACKUP_DIR); off when undefined. */
  backup?: BackupConfig;
  /**
   * For crash tests only (TEST_BACKUP_STEP_DELAY_MS): how long a snapshot's thread waits
   * after each step of its copy, so a test can stop it mid-copy. 0 in production.
   */
  backupStepDelayMs: number;
}
