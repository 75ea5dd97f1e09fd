/**
 * Leadership on SQLite (src/events/leadership.ts): a lease row per name, taken
 * when free or expired and renewed by its holder. Processes sharing the file
 * meet on the row; a leader that dies stops renewing, and its lease expires.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Leadership } from '../../events/leadership.js';

/** How long a lease lasts unless renewed; the holder renews well before (every tryAcquire). */
export const LEASE_MS = 10_000;

export function sqliteLease(db: Database.Database, write: <T>(fn: () => T) => Promise<T>, name: string): Leadership {
  const take = db.prepare(
    `INSERT INTO leases (name, holder, expires_at) VALUES (@name, @holder, @expires)
     ON CONFLICT (name) DO UPDATE SET holder = @holder, expires_at = @expires
     WHERE leases.holder = @holder OR leases.expires_at <= @now`,
  );
  const give = db.prepare('DELETE FROM leases WHERE name = ? AND holder = ?');
  const holder = randomUUID();
  let expiresAt = 0;
  return {
    async tryAcquire() {
      const now = Date.now();
      const held = await write(() => take.run({ name, holder, expires: now + LEASE_MS, now }).changes === 1);
      expiresAt = held ? now + LEASE_MS : 0;
      return held;
    },
    // A little before the lease's end: another process may take it the moment it expires.
    isLeader: () => Date.now() < expiresAt - 1000,
    async release() {
      expiresAt = 0;
      await write(() => give.run(name, holder));
    },
  };
}
