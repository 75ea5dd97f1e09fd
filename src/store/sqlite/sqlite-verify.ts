/**
 * Checks a SQLite snapshot, or a store file (read-only, in one read transaction, so a
 * live store is checked as of one moment while the service keeps writing):
 * - the snapshot matches its manifest (SHA-256, users, feed position), when it has one;
 * - SQLite's integrity check passes;
 * - the tables agree: the user count kept for estimates, one username and one email key
 *   per user, every legacy id and external id in the keys table and no key beyond them,
 *   every email address in the email index;
 * - every key of every user reaches that user (the lookup path);
 * - the change feed has no hole between the retention horizon and the latest position
 *   (a restore's marked gap aside: sqlite-restore.ts);
 * - a sample of users rendered again from their columns equals the stored
 *   representation and ETag that reads send.
 * A schema older than this release's is checked for integrity and its manifest only:
 * its tables are those of another release (a restore migrates it).
 */
import { existsSync } from 'node:fs';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import { emailKeysOf, keysOf } from '../../users/user.js';
import { representationOf } from '../../users/user-representation.js';
import { BackupRefusedError, type VerifyReport } from '../store-backup.js';
import { checkAgainstManifest, manifestPath, readManifest } from '../snapshot-files.js';
import Database from './sqlite-driver.js';
import { SQLITE_MIGRATIONS } from './sqlite-migrations.js';
import { missingIndexes, termsDeferred } from './sqlite-bulk-load.js';
import { RESTORE_GAP_PREFIX, restoreGapOf } from '../restore-gap.js';
import { checkIntegrity } from './sqlite-restore.js';
import { USER_COLUMNS, userRowToUser, type UserRow } from './sqlite-rows.js';

/** A load into an empty directory that has not built what it set aside (sqlite-bulk-load.ts): no damage, but not a store in its final state either. */
function checkBulkLoad(db: SqliteDatabase, problems: Problems): void {
  const missing = missingIndexes(db).map((index) => index.name);
  const words = termsDeferred(db);
  if (missing.length === 0 && !words) return;
  const what = [...(words ? ['the word and facet index'] : []), ...(missing.length > 0 ? [`${missing.length} indexes (${missing.join(', ')})`] : [])].join(' and ');
  problems.add('a load is not finished', `${what} set aside by an import into an empty directory are not built yet (the import is running, or it stopped before its end): the next open of the store builds them, as does user-service migrate`);
}

/** Disagreements of one kind shown in full; beyond, only their number. */
const SHOWN = 5;

/** Collects problems, keeping the message short when one kind repeats. */
function problemList() {
  const problems: string[] = [];
  const counts = new Map<string, number>();
  return {
    problems,
    add(kind: string, detail: string) {
      const n = (counts.get(kind) ?? 0) + 1;
      counts.set(kind, n);
      if (n <= SHOWN) problems.push(`${kind}: ${detail}`);
    },
    finish() {
      for (const [kind, n] of counts) if (n > SHOWN) problems.push(`${kind}: ${n - SHOWN} more`);
      return problems;
    },
  };
}

type Problems = ReturnType<typeof problemList>;

const one = (db: SqliteDatabase, sql: string, ...params: unknown[]) => db.prepare(sql).pluck().get(...params) as number;

/** Keys and representations, user by user; returns how many were rendered again. */
function checkUsers(db: SqliteDatabase, users: number, sample: number, problems: Problems): number {
  const lookup = db.prepare<[string, string], string>('SELECT uid FROM user_keys WHERE key = ? AND value = ?').pluck();
  const emailed = db.prepare<[string, string]>('SELECT 1 FROM user_emails WHERE value = ? AND uid = ?');
  const every = sample <= 0 ? Infinity : Math.max(1, Math.floor(users / sample));
  let keys = 0;
  let emails = 0;
  let sampled = 0;
  let i = 0;
  for (const row of db.prepare<[], UserRow & { representation: string | null; etag: string | null }>(`SELECT ${USER_COLUMNS}, representation, etag FROM users ORDER BY uid`).iterate()) {
    const user = userRowToUser(row);
    for (const { key, value } of keysOf(user)) {
      keys++;
      const holder = lookup.get(key, value);
      if (holder !== user.uid) problems.add('a key does not reach its user', `user ${user.uid}'s ${key} ${holder === undefined ? 'is missing from user_keys' : `leads to ${holder}`}`);
    }
    for (const value of emailKeysOf(user)) {
      emails++;
      if (emailed.get(value, user.uid) === undefined) problems.add('an email address is missing from user_emails', `user ${user.uid}`);
    }
    if (i++ % every === 0 && sampled < sample) {
      sampled++;
      const { json, etag } = representationOf(user);
      if (row.representation !== null && (row.representation !== json || row.etag !== etag)) {
        problems.add('a stored representation differs from the user rendered again', `user ${user.uid}`);
      }
    }
  }
  const keyRows = one(db, 'SELECT count(*) FROM user_keys');
  if (keyRows !== keys) problems.add('counts disagree', `user_keys has ${keyRows} rows, the users hold ${keys} keys`);
  const emailRows = one(db, 'SELECT count(*) FROM user_emails');
  if (emailRows !== emails) problems.add('counts disagree', `user_emails has ${emailRows} rows, the users hold ${emails} addresses`);
  return sampled;
}

/** Every position from the retention horizon to the latest holds an event, but for a restore's marked gaps. */
function checkFeed(db: SqliteDatabase, latest: number, problems: Problems): void {
  const rows = db.prepare(`SELECT name, position FROM feed_state WHERE name LIKE '${RESTORE_GAP_PREFIX}%'`).all() as { name: string; position: number }[];
  const gaps = new Map(rows.map(restoreGapOf).map((gap) => [gap.after, gap.through]));
  const next = (position: number) => (gaps.get(position) ?? position) + 1;
  let expected = next(one(db, "SELECT position FROM feed_state WHERE name = 'pruned'") ?? 0);
  for (const position of db.prepare('SELECT position FROM events ORDER BY position').pluck().iterate() as Iterable<number>) {
    if (position !== expected) problems.add('the change feed has a gap', `position ${expected} is missing (the next event is at ${position})`);
    expected = next(position);
  }
  if (expected <= latest) problems.add('the change feed has a gap', `positions ${expected} to ${latest} are missing`);
}

export async function verifySqlite(path: string, options: { sample: number }): Promise<VerifyReport> {
  if (!existsSync(path)) throw new BackupRefusedError(`${path} does not exist`);
  const problems = problemList();
  const manifest = existsSync(manifestPath(path)) ? readManifest(path) : undefined;
  const refused = (error: unknown): VerifyReport => {
    if (!(error instanceof BackupRefusedError)) throw error;
    return { problems: [error.message], users: 0, feedPosition: 0, schemaVersion: 0, sampled: 0 };
  };
  try {
    if (manifest) await checkAgainstManifest(path, manifest);
    checkIntegrity(path);
  } catch (error) {
    return refused(error);
  }
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.exec('BEGIN');
    // A SQLite file of something else, or a partial copy: said in words, not as SQLite's "no such table".
    if (db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'users'").get() === undefined) {
      return { problems: [`${path} is no user-service store or snapshot: it has no users table`], users: 0, feedPosition: 0, schemaVersion: 0, sampled: 0 };
    }
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    if (schemaVersion > SQLITE_MIGRATIONS.length) problems.add('schema', `version ${schemaVersion} is newer than this release (${SQLITE_MIGRATIONS.length})`);
    const current = schemaVersion === SQLITE_MIGRATIONS.length;
    const users = one(db, 'SELECT count(*) FROM users');
    const feedPosition = schemaVersion >= 3 ? (one(db, "SELECT seq FROM sqlite_sequence WHERE name = 'events'") ?? 0) : 0;
    if (manifest && manifest.users !== users) problems.add('the manifest disagrees', `it counts ${manifest.users} users, the snapshot holds ${users}`);
    if (manifest && manifest.feed_position !== feedPosition) problems.add('the manifest disagrees', `its feed position is ${manifest.feed_position}, the snapshot's is ${feedPosition}`);
    let sampled = 0;
    if (current) {
      const counted = one(db, 'SELECT n FROM user_count');
      if (counted !== users) problems.add('counts disagree', `user_count says ${counted}, users holds ${users}`);
      sampled = checkUsers(db, users, options.sample, problems);
      checkFeed(db, feedPosition, problems);
      checkBulkLoad(db, problems);
    }
    db.exec('COMMIT');
    return { problems: problems.finish(), users, feedPosition, schemaVersion, sampled };
  } finally {
    db.close();
  }
}
