/**
 * Marks a PostgreSQL database restored with pg_restore or to a point in time (restore-gap.ts):
 * the feed's next position follows the restored latest one by RESTORE_POSITION_GAP, so
 * no position the lost database gave is given again, and the positions between are
 * answered 410. Run once, before any instance serves the restored database.
 */
import { RESTORE_GAP_PREFIX, RESTORE_POSITION_GAP } from '../restore-gap.js';
import { commandSession } from './command-session.js';

export async function markPostgresRestore(url: string, connectTimeoutMs = 5000): Promise<{ restored: number; next: number }> {
  const sql = await commandSession(url, connectTimeoutMs, 'mark-restored');
  try {
    return await sql.begin(async (tx) => {
      const [row] = await tx<{ position: string }[]>`SELECT position FROM feed_state WHERE name = 'latest' FOR UPDATE`;
      const restored = Number(row?.position ?? 0);
      const next = restored + RESTORE_POSITION_GAP;
      await tx`UPDATE feed_state SET position = ${next} WHERE name = 'latest'`;
      await tx`INSERT INTO feed_state (name, position) VALUES (${`${RESTORE_GAP_PREFIX}${restored}`}, ${next}) ON CONFLICT (name) DO UPDATE SET position = excluded.position`;
      return { restored, next };
    });
  } finally {
    await sql.end({ timeout: 5 });
  }
}
