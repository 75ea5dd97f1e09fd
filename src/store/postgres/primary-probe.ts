/**
 * What one host of a replicated cluster is now: a writable primary (with the
 * cluster's system identifier and the timeline it writes on), a standby or
 * read-only server, or unreachable. One short-lived connection per probe.
 *
 * Why not postgres.js's own `target_session_attrs`: 3.4.9 takes a hot standby of
 * PostgreSQL 14+ for `read-write` (it reads `default_transaction_read_only`, which a
 * standby reports as off, instead of `in_hot_standby`); while no host is writable it
 * reconnects in a tight loop (1,234 connections to the standby in 3 s from one client
 * of 4 connections, and the queries wait without a bound); and of two writable hosts
 * (a stale old primary restarted at its address) it takes whichever comes first.
 */
import postgres from 'postgres';

export type HostState =
  | { role: 'primary'; url: string; name: string; system: string | undefined; timeline: number | undefined }
  | { role: 'read-only'; url: string; name: string }
  | { role: 'unreachable'; url: string; name: string; error: unknown };

/**
 * The timeline a primary writes on is the first 8 hex digits of its current WAL file's
 * name; a promotion starts a higher one, so a stale primary (restarted from the data it
 * had when it died) writes on a lower timeline than the one promoted after it.
 */
const STATE = `SELECT pg_is_in_recovery() AS standby,
  current_setting('transaction_read_only') = 'on' AS read_only,
  (SELECT system_identifier::text FROM pg_control_system()) AS system,
  CASE WHEN pg_is_in_recovery() THEN NULL
    ELSE ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::int END AS timeline`;
/** For a role without the right to read the control data: roles only, no fencing by timeline. */
const ROLE_ONLY = `SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') = 'on' AS read_only, NULL AS system, NULL AS timeline`;

interface StateRow {
  standby: boolean;
  read_only: boolean;
  system: string | null;
  timeline: number | null;
}

export async function probeHost(url: string, name: string, connectTimeoutMs: number): Promise<HostState> {
  const sql = postgres(url, {
    max: 1,
    connect_timeout: Math.max(1, Math.ceil(connectTimeoutMs / 1000)),
    idle_timeout: 0,
    max_lifetime: null,
    onnotice: () => {},
    connection: { application_name: 'user-service probe', statement_timeout: connectTimeoutMs },
  });
  try {
    const rows = await sql.unsafe<StateRow[]>(STATE).catch((error: unknown) => {
      if ((error as { code?: string }).code === '42501') return sql.unsafe<StateRow[]>(ROLE_ONLY);
      throw error;
    });
    const row = rows[0];
    if (!row || row.standby || row.read_only) return { role: 'read-only', url, name };
    return { role: 'primary', url, name, system: row.system ?? undefined, timeline: row.timeline ?? undefined };
  } catch (error) {
    return { role: 'unreachable', url, name, error };
  } finally {
    await sql.end({ timeout: 0 }).catch(() => {});
  }
}
