/**
 * UserStore on SQLite through better-sqlite3: one connection per process, WAL,
 * and `synchronous=FULL` by default, set explicitly on every open, so a returned
 * write has been fsynced. Writes are group-committed (group-commit.ts); the keys table's
 * primary key enforces uniqueness (see sqlite-migrations.ts).
 */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { keysOf, displayNameKey, type LookupKey, type User, type UserFields } from '../../users/user.js';
import { prefixUpperBound } from '../../users/canonical.js';
import { KeyConflictError, StoreUnavailableError } from '../store-errors.js';
import { planImport, updatedUser, type Holder, type ImportOutcome, type OnConflict } from '../import-plan.js';
import type { Precondition, SearchPage, UserStore, WriteOutcome } from '../user-store.js';
import { openSqliteDatabase, type SqliteConnectionOptions } from './sqlite-connection.js';
import { createGroupCommit } from './group-commit.js';
import { migrateSqlite } from './sqlite-migrations.js';

export interface SqliteStoreOptions extends SqliteConnectionOptions {
  /** A file path, or `:memory:`. */
  path: string;
}

interface UserRow {
  uid: string;
  username: string;
  email_address: string;
  legacy_ids: string;
  display_name: string | null;
  attributes: string;
  created_at: string;
  updated_at: string;
  version: number;
}

const USER_COLUMNS = 'uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version';

export function userRowToUser(row: UserRow): User {
  return {
    uid: row.uid,
    username: row.username,
    email_address: row.email_address,
    legacy_ids: JSON.parse(row.legacy_ids) as string[],
    display_name: row.display_name,
    attributes: JSON.parse(row.attributes) as Record<string, unknown>,
    created_at: row.created_at,
    updated_at: row.updated_at,
    version: row.version,
  };
}

/** SQLite result codes that mean "try again later", not "this request is wrong". */
const TRANSIENT_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_READONLY']);

function translate(error: unknown): unknown {
  const code = (error as { code?: string }).code ?? '';
  if (TRANSIENT_CODES.has(code) || TRANSIENT_CODES.has(code.replace(/_[A-Z_]+$/, ''))) {
    return new StoreUnavailableError({ cause: error });
  }
  return error;
}

export function openSqliteUserStore(options: SqliteStoreOptions): UserStore {
  const db = openSqliteDatabase(options.path, options);
  migrateSqlite(db);

  const insertUser = db.prepare(
    `INSERT INTO users (${USER_COLUMNS}, display_name_key) VALUES (@uid, @username, @email_address, @legacy_ids, @display_name, @attributes, @created_at, @updated_at, @version, @display_name_key)`,
  );
  const updateUser = db.prepare(
    `UPDATE users SET username = @username, email_address = @email_address, legacy_ids = @legacy_ids, display_name = @display_name,
       display_name_key = @display_name_key, attributes = @attributes, updated_at = @updated_at, version = @version WHERE uid = @uid`,
  );
  const insertKey = db.prepare('INSERT INTO user_keys (key, value, uid) VALUES (?, ?, ?)');
  const deleteKeys = db.prepare('DELETE FROM user_keys WHERE uid = ?');
  const deleteUser = db.prepare('DELETE FROM users WHERE uid = ?');
  const selectByUid = db.prepare<[string], UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE uid = ?`);
  const selectByKey = db.prepare<[string, string], UserRow>(
    `SELECT ${USER_COLUMNS} FROM users WHERE uid = (SELECT uid FROM user_keys WHERE key = ? AND value = ?)`,
  );
  const selectOne = db.prepare('SELECT 1');
  const insertServiceKey = db.prepare('INSERT OR IGNORE INTO service_keys (name, value) VALUES (?, ?)');
  const selectServiceKey = db.prepare<[string], { value: Buffer }>('SELECT value FROM service_keys WHERE name = ?');
  // Search statements differ only by which filters are present: a handful of shapes, each prepared once.
  const searchStatements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let statement = searchStatements.get(sql);
    if (!statement) searchStatements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  let closed = false;

  function toParams(user: User) {
    return {
      ...user,
      legacy_ids: JSON.stringify(user.legacy_ids),
      attributes: JSON.stringify(user.attributes),
      display_name_key: displayNameKey(user.display_name),
    };
  }

  function insertKeys(user: User): void {
    for (const entry of keysOf(user)) {
      try {
        insertKey.run(entry.key, entry.value, user.uid);
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new KeyConflictError(entry.key);
        throw error;
      }
    }
  }

  /** Runs a read, translating driver errors into store errors. */
  function read<T>(fn: () => T): T {
    if (closed) throw new StoreUnavailableError();
    try {
      return fn();
    } catch (error) {
      throw translate(error);
    }
  }

  const commit = createGroupCommit(db, translate);

  /** Runs `fn` as part of the next shared transaction (group commit); resolves once it is durable. */
  function write<T>(fn: () => T): Promise<T> {
    if (closed) return Promise.reject(new StoreUnavailableError());
    return commit(fn);
  }

  const selectKeyHolder = db.prepare<[string, string], { uid: string }>('SELECT uid FROM user_keys WHERE key = ? AND value = ?');

  /** Who holds the user's uid and each of its keys, in key order. */
  function holdersOf(user: User): Holder[] {
    const holders: Holder[] = selectByUid.get(user.uid) ? [{ key: 'uid', uid: user.uid }] : [];
    for (const entry of keysOf(user)) {
      const holder = selectKeyHolder.get(entry.key, entry.value);
      if (holder) holders.push({ key: entry.key, uid: holder.uid });
    }
    return holders;
  }

  /** Replaces `previous` by `next` (same uid): keys first freed, then taken again. */
  function replaceRow(next: User): void {
    deleteKeys.run(next.uid);
    updateUser.run(toParams(next));
    insertKeys(next);
  }

  function current(uid: string, precondition?: Precondition): WriteOutcome<User> {
    const row = selectByUid.get(uid);
    if (!row) return { status: 'not-found' };
    const user = userRowToUser(row);
    if (precondition && !precondition(user)) return { status: 'precondition-failed' };
    return { status: 'ok', value: user };
  }

  return {
    async create(user) {
      return write(() => {
        insertUser.run(toParams(user));
        insertKeys(user);
        return user;
      });
    },

    async findByKey(key: LookupKey, value: string) {
      return read(() => {
        const row = key === 'uid' ? selectByUid.get(value) : selectByKey.get(key, value);
        return row && userRowToUser(row);
      });
    },

    async replace(uid: string, fields: UserFields, now: string, precondition?: Precondition) {
      return write((): WriteOutcome<User> => {
        const found = current(uid, precondition);
        if (found.status !== 'ok') return found;
        const next: User = { ...found.value, ...fields, updated_at: now, version: found.value.version + 1 };
        replaceRow(next);
        return { status: 'ok', value: next };
      });
    },

    async delete(uid: string, precondition?: Precondition) {
      return write((): WriteOutcome<void> => {
        const found = current(uid, precondition);
        if (found.status !== 'ok') return found;
        deleteUser.run(uid); // user_keys rows go with it (ON DELETE CASCADE)
        return { status: 'ok', value: undefined };
      });
    },

    async importUsers(users: User[], onConflict: OnConflict, now: string) {
      // One IMMEDIATE transaction holds the write lock: holders read here cannot change before the writes.
      return write(() => {
        const outcomes: ImportOutcome[] = [];
        for (const user of users) {
          const plan = planImport(holdersOf(user), onConflict);
          if (plan.action === 'conflict') {
            outcomes.push({ status: 'conflict', key: plan.key });
            if (onConflict === 'fail') break;
          } else if (plan.action === 'create') {
            insertUser.run(toParams(user));
            insertKeys(user);
            outcomes.push({ status: 'created', uid: user.uid });
          } else {
            const existing = userRowToUser(selectByUid.get(plan.uid) as UserRow);
            const next = updatedUser(user, existing, now);
            if (next) replaceRow(next);
            outcomes.push({ status: next ? 'updated' : 'unchanged', uid: existing.uid });
          }
        }
        return outcomes;
      });
    },

    async search({ filter, after, limit }: SearchPage) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (after !== undefined) {
        where.push('uid > ?');
        params.push(after);
      }
      for (const key of ['username', 'email_address', 'legacy_id'] as const) {
        const value = filter[key];
        if (value === undefined) continue;
        where.push('uid IN (SELECT uid FROM user_keys WHERE key = ? AND value = ?)');
        params.push(key, value);
      }
      if (filter.prefix !== undefined) {
        const upper = prefixUpperBound(filter.prefix);
        const range = upper === undefined ? '>= ?' : '>= ? AND %s < ?';
        const bounds = upper === undefined ? [filter.prefix] : [filter.prefix, upper];
        where.push(
          `(uid IN (SELECT uid FROM user_keys WHERE key IN ('username', 'email_address') AND value ${range.replace('%s', 'value')})` +
            ` OR (display_name_key ${range.replace('%s', 'display_name_key')}))`,
        );
        params.push(...bounds, ...bounds);
      }
      const sql = `SELECT ${USER_COLUMNS} FROM users ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY uid LIMIT ?`;
      return read(() => (prepared(sql).all(...params, limit) as UserRow[]).map(userRowToUser));
    },

    async cursorKey() {
      return write(() => {
        // The first process to ask makes the key; every later one reads the same.
        insertServiceKey.run('cursor', randomBytes(32));
        return (selectServiceKey.get('cursor') as { value: Buffer }).value;
      });
    },

    async ping() {
      read(() => selectOne.get());
    },

    async close() {
      if (closed) return;
      commit.flush();
      closed = true;
      db.close();
    },
  };
}
