/**
 * Metrics of the scheduled snapshots (docs/deployment.md, "Scheduled snapshots"), with
 * the alert rule there: time() - last success > 2 × interval, once the process has run
 * two intervals. The last success is 0 until the first one of this process.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

export interface BackupMetrics {
  succeeded(finishedAtMs: number, seconds: number, bytes: number): void;
  failed(): void;
}

export function createBackupMetrics(registry: Registry, intervalMs: number): BackupMetrics {
  const gauge = (name: string, help: string) => new Gauge({ name, help, registers: [registry] });
  gauge('user_service_backup_interval_seconds', 'BACKUP_INTERVAL_S: the time between scheduled snapshots').set(intervalMs / 1000);
  const lastSuccess = gauge('user_service_backup_last_success_timestamp_seconds', 'When the last scheduled snapshot was complete (0: none yet in this process)');
  const duration = gauge('user_service_backup_last_duration_seconds', 'How long the last successful snapshot took');
  const size = gauge('user_service_backup_last_size_bytes', 'The size of the last successful snapshot');
  const failures = new Counter({ name: 'user_service_backup_failures_total', help: 'Scheduled snapshots that failed', registers: [registry] });
  const successes = new Counter({ name: 'user_service_backup_successes_total', help: 'Scheduled snapshots completed', registers: [registry] });
  lastSuccess.set(0);
  return {
    succeeded(finishedAtMs, seconds, bytes) {
      lastSuccess.set(finishedAtMs / 1000);
      duration.set(seconds);
      size.set(bytes);
      successes.inc();
    },
    failed: () => failures.inc(),
  };
}
