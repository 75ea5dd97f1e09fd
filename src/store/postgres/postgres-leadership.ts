/**
 * Leadership on PostgreSQL (src/events/leadership.ts): a session-level advisory
 * lock held on a connection of its own, so it lasts as long as that session and
 * no longer. When the leader's process or connection dies, PostgreSQL releases
 * the lock and another instance takes it at its next try.
 *
 * A client of one connection rather than a reserved pool connection: postgres.js
 * 3.4.9 crashes the process on the next query of a reserved connection whose
 * backend was terminated (porsager/postgres#1208); a client of its own reconnects,
 * and `onclose` tells that the session, and so the lock, is gone.
 */
import postgres from 'postgres';
import type { Leadership } from '../../events/leadership.js';

export function postgresLeadership(url: string, name: string): Leadership {
  let leader = false;
  let client: postgres.Sql | undefined;
  const lockName = `user-service:${name}`;
  const connect = () =>
    postgres(url, {
      max: 1,
      idle_timeout: 0,
      max_lifetime: null,
      onnotice: () => {},
      connection: { application_name: `user-service ${name}` },
      onclose: () => {
        leader = false;
      },
    });
  return {
    async tryAcquire() {
      client ??= connect();
      try {
        if (leader) {
          await client`SELECT 1`; // still the same session: the lock is still held
        } else {
          const [row] = await client<{ taken: boolean }[]>`SELECT pg_try_advisory_lock(hashtextextended(${lockName}, 0)) AS taken`;
          leader = row?.taken === true;
        }
      } catch {
        leader = false;
      }
      return leader;
    },
    isLeader: () => leader,
    async release() {
      leader = false;
      const closing = client;
      client = undefined;
      // Ending the session releases its advisory locks.
      await closing?.end({ timeout: 5 }).catch(() => {});
    },
  };
}
