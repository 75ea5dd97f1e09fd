/**
 * Scheduled snapshots inside the service (BACKUP_DIR, BACKUP_INTERVAL_S, BACKUP_KEEP),
 * through the StoreBackup port only. One snapshot at a time: the next starts an
 * interval after the previous ended. The copy runs on a thread of its own
 * (sqlite-snapshot.ts), so requests never wait for it. Once a new snapshot is complete,
 * the oldest beyond BACKUP_KEEP are removed; never before, so a failing run never
 * leaves fewer. A failure (a full disk, a read-only folder) is logged, counted and
 * retried at the next run; serving goes on. When the last success (or the start, before
 * the first) is older than twice the interval, each run logs a warning.
 */
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { BackupConfig } from '../config.js';
import type { StoreBackup } from '../store/store-backup.js';
import { completeSnapshots, removeSnapshot } from '../store/snapshot-files.js';
import { snapshotName, SNAPSHOT_PREFIX } from './snapshot-name.js';
import type { BackupMetrics } from './backup-metrics.js';

export interface BackupScheduleOptions {
  backup: Pick<StoreBackup, 'snapshot'>;
  config: BackupConfig;
  metrics: BackupMetrics;
  log: () => FastifyBaseLogger;
}

export interface BackupSchedule {
  /** Stops the schedule; a snapshot under way is stopped and its partial file removed. */
  stop(): Promise<void>;
}

/** Removes the oldest complete snapshots beyond `keep`; returns their names. */
export function pruneSnapshots(dir: string, keep: number): string[] {
  const all = completeSnapshots(dir, SNAPSHOT_PREFIX);
  const old = all.slice(0, Math.max(0, all.length - keep));
  for (const name of old) removeSnapshot(join(dir, name));
  return old;
}

export function startBackupSchedule({ backup, config, metrics, log }: BackupScheduleOptions): BackupSchedule {
  const abort = new AbortController();
  let lastSuccessMs = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function run(): Promise<void> {
    const since = performance.now();
    const target = join(config.dir, snapshotName());
    try {
      const manifest = await backup.snapshot(target, abort.signal);
      const seconds = (performance.now() - since) / 1000;
      lastSuccessMs = Date.now();
      metrics.succeeded(lastSuccessMs, seconds, manifest.bytes);
      const removed = pruneSnapshots(config.dir, config.keep);
      log().info({ snapshot: target, users: manifest.users, feed_position: manifest.feed_position, bytes: manifest.bytes, duration_s: Number(seconds.toFixed(3)), removed: removed.length }, 'backup: snapshot complete');
    } catch (error) {
      if (abort.signal.aborted) return;
      metrics.failed();
      log().error({ snapshot: target, cause: (error as Error).message }, 'backup: snapshot failed; serving goes on, the next run tries again');
    }
    const age = Date.now() - lastSuccessMs;
    if (age > 2 * config.intervalMs) {
      log().warn({ since_last_success_s: Math.round(age / 1000), interval_s: config.intervalMs / 1000 }, 'backup: no snapshot succeeded for more than twice BACKUP_INTERVAL_S');
    }
  }

  const schedule = () => {
    if (abort.signal.aborted) return;
    timer = setTimeout(() => {
      running = run().finally(() => {
        running = undefined;
        schedule();
      });
    }, config.intervalMs);
    timer.unref();
  };
  schedule();

  return {
    async stop() {
      abort.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
