/**
 * Scheduled snapshots as a plugin (BACKUP_DIR; backup-schedule.ts), with their metrics in the
 * metrics plugin's registry: stopped before the store closes, a snapshot under way with them.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Registry } from 'prom-client';
import type { BackupSection, StoreSection } from '../config.js';
import { storeBackupFor } from '../store/store-backup.js';
import { createBackupMetrics } from './backup-metrics.js';
import { startBackupSchedule } from './backup-schedule.js';

async function scheduledBackups(app: FastifyInstance, { config }: { config: BackupSection & StoreSection }): Promise<void> {
  if (!config.backup) return;
  const registry = app.hasDecorator('metrics') ? app.metrics.registry : new Registry();
  const backups = startBackupSchedule({
    backup: await storeBackupFor(config.store, config.backupStepDelayMs),
    config: config.backup,
    metrics: createBackupMetrics(registry, config.backup.intervalMs),
    log: () => app.log,
  });
  app.addHook('preClose', () => backups.stop());
}

export default fp(scheduledBackups, { name: 'backups' });
