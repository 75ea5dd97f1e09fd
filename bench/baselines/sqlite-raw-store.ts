/**
 * The SQLite baseline's data access: better-sqlite3 on the same file, opened
 * exactly as the service opens it (WAL, synchronous=FULL, foreign keys, busy
 * timeout), with the store's SQL. Each write is one IMMEDIATE transaction whose
 * commit fsyncs the WAL: the per-request-commit limit at full durability.
 */
import type Database from 'better-sqlite3';
import { openSqliteDatabase } from '../../src/store/sqlite/sqlite-connection.js';
import { userRowParams, userRowToUser } from '../../src/store/sqlite/sqlite-rows.js';
import { prefixUpperBound } from '../../src/users/canonical.js';
import { queryWords } from '../../src/users/search-words.js';
import { keysOf, type User, type UserFields } from '../../src/users/user.js';
import type { UserRepresentation } from '../../src/users/user-representation.js';
import type { RawStore } from './raw-store.js';

type Row = Parameters<typeof userRowToUser>[0];

const COLUMNS = 'uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version';

export function openSqliteRawStore(path: string): RawStore {
  const db = openSqliteDatabase(path);
  const byUid = db.prepare<[string], Row>(`SELECT ${COLUMNS} FROM users WHERE uid = ?`);
  const storedByUid = db.prepare<[string], UserRepresentation>('SELECT uid, representation AS json, etag FROM users WHERE uid = ?');
  const storedByKey = db.prepare<[string, string], UserRepresentation>(
    'SELECT uid, representation AS json, etag FROM users WHERE uid = (SELECT uid FROM user_keys WHERE key = ? AND value = ?)',
  );
  // The search SQL is built as the store builds it, one prepared statement per shape.
  const pages = new Map<string, Database.Statement<unknown[], Row>>();
  const pageStatement = (sql: string) => pages.get(sql) ?? pages.set(sql, db.prepare<unknown[], Row>(sql)).get(sql)!;
  const insertUser = db.prepare(
    `INSERT INTO users (${COLUMNS}, display_name_key, representation, etag)
     VALUES (@uid, @username, @email_address, @legacy_ids, @display_name, @attributes, @created_at, @updated_at, @version, @display_name_key, @representation, @etag)`,
  );
  const updateUser = db.prepare(
    `UPDATE users SET username = @username, email_address = @email_address, legacy_ids = @legacy_ids, display_name = @display_name,
       display_name_key = @display_name_key, attributes = @attributes, updated_at = @updated_at, version = @version,
       representation = @representation, etag = @etag WHERE uid = @uid`,
  );
  const insertKey = db.prepare('INSERT INTO user_keys (key, value, uid) VALUES (?, ?, ?)');
  const deleteKeys = db.prepare('DELETE FROM user_keys WHERE uid = ?');

  const write = (user: User, insert: boolean) => {
    (insert ? insertUser : updateUser).run(userRowParams(user));
    for (const entry of keysOf(user)) insertKey.run(entry.key, entry.value, user.uid);
  };
  const create = db.transaction((user: User) => write(user, true));
  const replace = db.transaction((uid: string, fields: UserFields, now: string): User | undefined => {
    const row = byUid.get(uid);
    if (!row) return undefined;
    const found = userRowToUser(row);
    const next: User = { ...found, ...fields, updated_at: now, version: found.version + 1 };
    deleteKeys.run(uid);
    write(next, false);
    return next;
  });

  return {
    byUid: (uid) => storedByUid.get(uid),
    byKey: (key, value) => storedByKey.get(key, value),
    page: (prefix, after, limit) => {
      const where: string[] = [];
      const values: unknown[] = [];
      if (after !== undefined) {
        where.push('uid > ?');
        values.push(after);
      }
      // Each word of `q` starts a word of the user, found in the word index the service reads (user_terms).
      for (const word of prefix === undefined ? [] : queryWords(prefix)) {
        where.push(`uid IN (SELECT uid FROM user_terms WHERE field = 'word' AND value >= ? AND value < ?)`);
        values.push(word, prefixUpperBound(word) as string); // defined for every word the scenarios send
      }
      const sql = `SELECT ${COLUMNS} FROM users ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY uid LIMIT ?`;
      return pageStatement(sql).all(...values, limit).map(userRowToUser);
    },
    create: (user) => {
      try {
        create.immediate(user);
        return true;
      } catch (error) {
        if (String((error as { code?: string }).code).startsWith('SQLITE_CONSTRAINT')) return false;
        throw error;
      }
    },
    replace: (uid, fields, now) => replace.immediate(uid, fields, now),
  };
}
