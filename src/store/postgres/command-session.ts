/**
 * The PostgreSQL session of a one-off command (`migrate`, `mark-restored`): one connection
 * to the primary of DATABASE_URL's hosts (primary-follower.ts; one host as it is), named
 * for the command in pg_stat_activity. PG_CONNECT_TIMEOUT_MS bounds the connect: postgres.js
 * alone waits 30 s for a server that never answers.
 */
import postgres, { type Sql } from 'postgres';
import { primaryUrl } from './primary-follower.js';

export async function commandSession(url: string, connectTimeoutMs: number, command: string): Promise<Sql> {
  return postgres(await primaryUrl(url, connectTimeoutMs), {
    max: 1,
    connect_timeout: Math.max(1, Math.ceil(connectTimeoutMs / 1000)),
    onnotice: () => {},
    connection: { application_name: `user-service ${command}` },
  });
}
