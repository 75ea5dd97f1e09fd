/**
 * Idempotency-Key records in PostgreSQL (table idempotency_keys, migration 2). A
 * key is claimed by inserting its row, or by overwriting a row that has expired
 * (ON CONFLICT … DO UPDATE … WHERE expired): a row that has not expired makes the
 * claim return nothing. Two requests with one key on two instances meet on the
 * primary key: the second waits for the first's transaction, then finds its row.
 */
import type postgres from 'postgres';
import type { TransactionSql } from 'postgres';
import { ERASED_FINGERPRINT, ERASED_RESPONSE } from '../erasure.js';
import { IdempotencyKeyTaken } from '../store-errors.js';
import type { IdempotencyRecord, StoredResponse } from '../user-store.js';

type Sql = postgres.Sql | TransactionSql;

interface Row {
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  expires_at: string;
}

/** A claim's placeholder answer, replaced before its transaction commits. */
const PLACEHOLDER: StoredResponse = { status: 0, headers: {}, body: '' };

/** The statement that claims `record`'s key (its answer carrying the user `subject`, if any); RETURNING a row means it was claimed. */
export function claimStatement(sql: Sql, record: Omit<IdempotencyRecord, 'response'>, response: StoredResponse, now: number, subject?: string) {
  return sql`INSERT INTO idempotency_keys (scope, key, fingerprint, status, headers, body, expires_at, subject)
    VALUES (${record.scope}, ${record.key}, ${record.fingerprint}, ${response.status}, ${JSON.stringify(response.headers)}::text::json, ${response.body}, ${record.expiresAt}, ${subject ?? null}::uuid)
    ON CONFLICT (scope, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, status = EXCLUDED.status, headers = EXCLUDED.headers,
      body = EXCLUDED.body, expires_at = EXCLUDED.expires_at, subject = EXCLUDED.subject
    WHERE idempotency_keys.expires_at <= ${now}
    RETURNING 1 AS claimed`;
}

export const postgresIdempotency = {
  /** Claims the key inside `tx`, or throws IdempotencyKeyTaken (the caller's transaction rolls back). */
  async claim(tx: TransactionSql, record: Omit<IdempotencyRecord, 'response'>, now: number): Promise<void> {
    const rows = await claimStatement(tx, record, PLACEHOLDER, now);
    if (rows.length === 0) throw new IdempotencyKeyTaken();
  },

  /** Stores the answer of a key claimed in `tx`; `subject`: the uid of the user it carries. */
  async answer(tx: TransactionSql, record: Pick<IdempotencyRecord, 'scope' | 'key'>, response: StoredResponse, subject?: string): Promise<void> {
    await tx`UPDATE idempotency_keys SET status = ${response.status}, headers = ${JSON.stringify(response.headers)}::text::json, body = ${response.body},
      subject = ${subject ?? null}::uuid WHERE scope = ${record.scope} AND key = ${record.key}`;
  },

  /** Turns every answer carrying the user `subject` into a tombstone, in `tx` (erasure.ts). */
  async erase(tx: TransactionSql, subject: string): Promise<void> {
    await tx`UPDATE idempotency_keys SET fingerprint = ${ERASED_FINGERPRINT}, status = ${ERASED_RESPONSE.status},
      headers = ${JSON.stringify(ERASED_RESPONSE.headers)}::text::json, body = ${ERASED_RESPONSE.body}, subject = NULL WHERE subject = ${subject}::uuid`;
  },

  /** Inserts the record on its own; false when the key is recorded and not expired. */
  async save(sql: Sql, record: IdempotencyRecord, now: number): Promise<boolean> {
    return (await claimStatement(sql, record, record.response, now)).length === 1;
  },

  async find(sql: Sql, scope: string, key: string, now: number): Promise<IdempotencyRecord | undefined> {
    const [row] = await sql<Row[]>`SELECT fingerprint, status, headers, body, expires_at FROM idempotency_keys
      WHERE scope = ${scope} AND key = ${key} AND expires_at > ${now}`;
    if (!row) return undefined;
    return { scope, key, fingerprint: row.fingerprint, expiresAt: Number(row.expires_at), response: { status: row.status, headers: row.headers, body: row.body } };
  },

  /** Deletes up to `limit` expired records; rows another instance is deleting are skipped, not waited for. */
  async purge(sql: Sql, now: number, limit: number): Promise<number> {
    const deleted = await sql`DELETE FROM idempotency_keys WHERE (scope, key) IN (
      SELECT scope, key FROM idempotency_keys WHERE expires_at <= ${now} LIMIT ${limit} FOR UPDATE SKIP LOCKED)`;
    return deleted.count;
  },
};
