/**
 * Leadership on PostgreSQL (src/events/leadership.ts): a session-level advisory
 * lock held on a connection of its own, so it lasts as long as that session and
 * no longer. When the leader's process or connection dies, PostgreSQL releases
 * the lock and another instance takes it at its next try.
 *
 * The session is opened on the primary the store follows (primary-follower.ts); when
 * the store moves to another primary, the next try drops the former session and takes
 * the lock anew on the new one, so the leader publishes only while it holds the lock
 * on the primary every instance writes to.
 *
 * A client of one connection rather than a reserved pool connection: postgres.js
 * 3.4.9 crashes the process on the next query of a reserved connection whose
 * backend was terminated (porsager/postgres#1208); a client of its own reconnects,
 * and `onclose` tells that the session, and so the lock, is gone.
 */
import postgres from 'postgres';
import type { Leadership } from '../../events/leadership.js';

export function postgresLeadership(primaryUrl: () => string, name: string): Leadership {
  let leader = false;
  let client: postgres.Sql | undefined;
  /** The primary the session was opened on: after a failover the lock is taken anew on the new one. */
  let clientUrl: string | undefined;
  const lockName = `user-service:${name}`;
  const connect = (url: string) => {
    const made: postgres.Sql = postgres(url, {
      max: 1,
      idle_timeout: 0,
      max_lifetime: null,
      onnotice: () => {},
      connection: { application_name: `user-service ${name}` },
      onclose: () => {
        // Only the current session's end means the lock is gone; a former primary's closing says nothing.
        if (client === made) leader = false;
      },
    });
    return made;
  };
  return {
    async tryAcquire() {
      const url = primaryUrl();
      if (client !== undefined && clientUrl !== url) {
        // The former primary is gone or demoted: its session (and any lock on it) is no longer ours to rely on.
        leader = false;
        const former = client;
        client = undefined;
        void former.end({ timeout: 0 }).catch(() => {});
      }
      if (client === undefined) {
        client = connect(url);
        clientUrl = url;
      }
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
