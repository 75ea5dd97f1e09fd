/**
 * Idempotency-Key records in SQLite (table idempotency_keys, migrations 2 and 5). A key
 * is claimed by inserting its row, or by overwriting a row that has expired; a
 * row that has not expired makes the claim fail. Claims run inside the write's
 * transaction (group commit's savepoint), so a claimed key and its write commit
 * or roll back together.
 */
import type Database from 'better-sqlite3';
import { ERASED_FINGERPRINT, ERASED_RESPONSE } from '../erasure.js';
import { IdempotencyKeyTaken } from '../store-errors.js';
import type { IdempotencyRecord, StoredResponse } from '../user-store.js';

interface Row {
  fingerprint: string;
  status: number;
  headers: string;
  body: string;
  expires_at: number;
}

/** A claim's placeholder answer, replaced before its transaction commits. */
const PLACEHOLDER: StoredResponse = { status: 0, headers: {}, body: '' };

export function sqliteIdempotency(db: Database.Database) {
  // Positional parameters: binding by name costs a property lookup per parameter, and a
  // keyed create runs this once (docs/performance.md, Idempotency-Key).
  const upsert = db.prepare<[string, string, string, number, string, string, number, string | null, number]>(
    `INSERT INTO idempotency_keys (scope, key, fingerprint, status, headers, body, expires_at, subject)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
       headers = excluded.headers, body = excluded.body, expires_at = excluded.expires_at, subject = excluded.subject
     WHERE idempotency_keys.expires_at <= ?`,
  );
  const answer = db.prepare<[number, string, string, string | null, string, string]>('UPDATE idempotency_keys SET status = ?, headers = ?, body = ?, subject = ? WHERE scope = ? AND key = ?');
  const erase = db.prepare<[string, number, string, string, string]>('UPDATE idempotency_keys SET fingerprint = ?, status = ?, headers = ?, body = ?, subject = NULL WHERE subject = ?');
  const select = db.prepare<[string, string, number], Row>('SELECT fingerprint, status, headers, body, expires_at FROM idempotency_keys WHERE scope = ? AND key = ? AND expires_at > ?');
  const purge = db.prepare('DELETE FROM idempotency_keys WHERE id IN (SELECT id FROM idempotency_keys WHERE expires_at <= ? LIMIT ?)');

  /** Records the key with `response` (carrying the user `subject`, if any) unless it is recorded and not expired at `now`; whether it did. */
  const insert = (record: Omit<IdempotencyRecord, 'response'>, response: StoredResponse, now: number, subject?: string): boolean =>
    upsert.run(record.scope, record.key, record.fingerprint, response.status, JSON.stringify(response.headers), response.body, record.expiresAt, subject ?? null, now).changes === 1;

  return {
    /** Inserts the record unless the key is recorded and not expired; returns whether it did. */
    save(record: IdempotencyRecord, now: number): boolean {
      return insert(record, record.response, now);
    },

    /** Claims the key inside the current transaction, or throws IdempotencyKeyTaken. `subject`: the uid of the user `response` carries. */
    claim(record: Omit<IdempotencyRecord, 'response'>, now: number, response: StoredResponse = PLACEHOLDER, subject?: string): void {
      if (!insert(record, response, now, subject)) throw new IdempotencyKeyTaken();
    },

    /** Stores the answer of a key claimed in the current transaction; `subject`: the uid of the user it carries. */
    answer(record: Pick<IdempotencyRecord, 'scope' | 'key'>, response: StoredResponse, subject?: string): void {
      answer.run(response.status, JSON.stringify(response.headers), response.body, subject ?? null, record.scope, record.key);
    },

    /** Turns every answer carrying the user `subject` into a tombstone, in the current transaction (erasure.ts). */
    erase(subject: string): void {
      erase.run(ERASED_FINGERPRINT, ERASED_RESPONSE.status, JSON.stringify(ERASED_RESPONSE.headers), ERASED_RESPONSE.body, subject);
    },

    find(scope: string, key: string, now: number): IdempotencyRecord | undefined {
      const row = select.get(scope, key, now);
      if (!row) return undefined;
      const response = { status: row.status, headers: JSON.parse(row.headers) as Record<string, string>, body: row.body };
      return { scope, key, fingerprint: row.fingerprint, expiresAt: row.expires_at, response };
    },

    purge(now: number, limit: number): number {
      return purge.run(now, limit).changes;
    },
  };
}
