/**
 * A SQLite store that runs out of space, for the store-full tests: `PRAGMA
 * max_page_count` caps how far the store's own connection may grow the database
 * (SQLite answers SQLITE_FULL beyond it, as it does on ENOSPC), and raising it
 * again is an operator freeing space. The cap is a setting of a connection, so
 * the test needs the store's connection: the driver's connections are noted while
 * the store opens (the store offers no hook for it, and should not for tests).
 */
import type BetterSqlite3 from 'better-sqlite3';
import Database from '../../src/store/sqlite/sqlite-driver.js';

type Connection = BetterSqlite3.Database;

/** Runs `open`; also returns the connection it opened to the SQLite file at `path()` (known once it returned). */
export async function openedWithConnection<T>(open: () => Promise<T>, path: (value: T) => string): Promise<{ value: T; db: Connection }> {
  const seen: Connection[] = [];
  const prototype = Database.prototype as unknown as { pragma: (this: Connection, ...args: unknown[]) => unknown };
  const pragma = prototype.pragma;
  // Every connection the store opens sets its pragmas first (sqlite-connection.ts).
  prototype.pragma = function (this: Connection, ...args: unknown[]) {
    if (!seen.includes(this)) seen.push(this);
    return pragma.apply(this, args);
  };
  let value: T;
  try {
    value = await open();
  } finally {
    prototype.pragma = pragma;
  }
  const file = path(value);
  const db = seen.find((connection) => connection.name === file && connection.open);
  if (db === undefined) throw new Error(`no connection to ${file} was opened`);
  return { value, db };
}

/** Lets the database grow by at most `pages` pages from now on. */
export function capGrowth(db: Connection, pages: number): void {
  const count = db.pragma('page_count', { simple: true }) as number;
  db.pragma(`max_page_count = ${count + pages}`);
}

/** Lifts the cap: the space is freed. */
export function freeSpace(db: Connection): void {
  db.pragma('max_page_count = 4294967294');
}
