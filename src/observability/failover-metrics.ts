/**
 * Metrics of following a replicated PostgreSQL cluster's primary (docs/deployment.md,
 * "Failover"): moves to another primary, searches for it, how long this instance knew
 * of no primary, and stale writers refused. Read from the store when scraped; a store
 * without a primary to follow (SQLite, one PostgreSQL host) registers none.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { FailoverStats } from '../store/user-store.js';

export function createFailoverMetrics(registry: Registry, stats: (() => FailoverStats) | undefined): void {
  if (stats === undefined) return;
  const registers = [registry];
  const counter = (name: string, help: string, read: (s: FailoverStats) => number) =>
    new Counter({
      name,
      help,
      registers,
      collect() {
        this.reset();
        this.inc(read(stats()));
      },
    });
  counter('user_store_primary_changes_total', 'Moves of this instance to another PostgreSQL host as its primary (failovers it followed)', (s) => s.primaryChanges);
  counter('user_store_primary_searches_total', 'Searches for the primary (each probes every host of DATABASE_URL once): the reconnects after a connection loss', (s) => s.searches);
  counter('user_store_without_primary_seconds_total', 'Seconds during which this instance knew of no writable primary (writes wait or answer 503)', (s) => s.secondsWithoutPrimary);
  counter('user_store_stale_writers_refused_total', 'Writable hosts refused for being on an older timeline than the primary (an old primary restarted as a stale writer)', (s) => s.staleWritersRefused);
  new Gauge({
    name: 'user_store_without_primary',
    help: '1 while this instance knows of no writable primary, else 0',
    registers,
    collect() {
      this.set(stats().withoutPrimary ? 1 : 0);
    },
  });
}
