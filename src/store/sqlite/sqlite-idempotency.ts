/**
 * Idempotency-Key records in SQLite (table idempotency_keys, migrations 2 and 5). A key
 * is claimed by inserting its row, or by overwriting a row that has expired; a
 * row that has not expired makes the claim fail. Claims run inside the write's
 * transaction (group commit's savepoint), so a claimed key and its write commit
 * or roll back together.
 */
import type Database from 'better-sqlite3';
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
  const upsert = db.prepare<[string, string, string, number, string, string, number, number]>(
    `INSERT INTO idempotency_keys (scope, key, fingerprint, status, headers, body, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
       headers = excluded.headers, body = excluded.body, expires_at = excluded.expires_at
     WHERE idempotency_keys.expires_at <= ?`,
  );
  const answer = db.prepare<[number, string, string, string, string]>('UPDATE idempotency_keys SET status = ?, headers = ?, body = ? WHERE scope = ? AND key = ?');
  const select = db.prepare<[string, string, number], Row>('SELECT fingerprint, status, headers, body, expires_at FROM idempotency_keys WHERE scope = ? AND key = ? AND expires_at > ?');
  const purge = db.prepare('DELETE FROM idempotency_keys WHERE id IN (SELECT id FROM idempotency_keys WHERE expires_at <= ? LIMIT ?)');

  /** Records the key with `response` unless it is recorded and not expired at `now`; whether it did. */
  const insert = (record: Omit<IdempotencyRecord, 'response'>, response: StoredResponse, now: number): boolean =>
    upsert.run(record.scope, record.key, record.fingerprint, response.status, JSON.stringify(response.headers), response.body, record.expiresAt, now).changes === 1;

  return {
    /** Inserts the record unless the key is recorded and not expired; returns whether it did. */
    save(record: IdempotencyRecord, now: number): boolean {
      return insert(record, record.response, now);
    },

    /** Claims the key inside the current transaction, or throws IdempotencyKeyTaken. */
    claim(record: Omit<IdempotencyRecord, 'response'>, now: number, response: StoredResponse = PLACEHOLDER): void {
      if (!insert(record, response, now)) throw new IdempotencyKeyTaken();
    },

    /** Stores the answer of a key claimed in the current transaction. */
    answer(record: Pick<IdempotencyRecord, 'scope' | 'key'>, response: StoredResponse): void {
      answer.run(response.status, JSON.stringify(response.headers), response.body, record.scope, record.key);
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
