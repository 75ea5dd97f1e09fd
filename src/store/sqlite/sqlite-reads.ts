/**
 * Read statements of the SQLite store that may cost more than a lookup by key (search
 * pages, counts), run in one snapshot under a deadline. They run on a thread of their
 * own (reader-thread.ts) for a database file, so the event loop never waits for them, or
 * on the store's connection for an in-memory database, which no other connection can open.
 *
 * The deadline is enforced inside SQLite: a statement that may walk many rows calls
 * `within_budget(u.uid)` on each row it reads (sqlite-search.ts adds it to walked pages
 * and counts), and the function raises once the deadline has passed, which ends the
 * statement there. better-sqlite3 offers no interrupt, and this build of SQLite omits the
 * progress handler, so a function on the rows is the one hook that stops a statement midway.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { BudgetExceededError } from '../store-errors.js';

/**
 * One statement: `all` rows as objects, `get` the first row as an object, `row` the first row
 * as an array. With `unlessRows`, it runs only when the statement before it returned fewer
 * rows than that (else its result is undefined): work a page needs only when it is not full.
 * With `when`, it runs only when column `at` of the `row` result `result` (an earlier
 * statement's) is at most `atMost` (or, with `above`, greater than it): a plan chosen by a
 * count made in the same snapshot, without a second round trip.
 */
export interface SqlStatement {
  sql: string;
  params: unknown[];
  mode: 'all' | 'get' | 'row';
  unlessRows?: number;
  when?: StatementCondition;
}

/** See SqlStatement. */
export interface StatementCondition {
  result: number;
  at: number;
  atMost: number;
  above?: boolean;
}

/** Runs statements in one snapshot, in order; rejects with BudgetExceededError past `deadline` (ms since the epoch). */
export type SqlReads = (statements: readonly SqlStatement[], deadline?: number) => Promise<unknown[]>;

/** The message within_budget raises with: recognised on both sides of the thread boundary. */
export const BUDGET_MESSAGE = 'user-service: read past its time budget';

/**
 * A synchronous runner of statements on `db`, registering `within_budget` on it.
 * Self-contained (no imports, no outer names): the reader thread evaluates its source,
 * so the bundle and the unbundled build run the same code.
 *
 * Prepared statements are kept for the 256 texts used last: a search's text follows its
 * shape (conditions, sort keys, driver), and a client sending ever new shapes must not grow
 * the process without bound (15,360 shapes held about 50 MB when nothing was let go); the
 * shapes a service's clients use are far fewer.
 */
export function statementRunner(db: BetterSqlite3.Database, budgetMessage: string) {
  const CACHED = 256;
  // In use order, the least recently used first (a Map keeps insertion order; a hit moves its entry to the end).
  const cache = new Map<string, BetterSqlite3.Statement>();
  let deadline = Infinity;
  let calls = 0;
  // Date.now() every 64 rows: a row costs a microsecond or more, so the deadline is seen within about 0.1 ms.
  db.function('within_budget', { varargs: true, deterministic: false }, () => {
    if ((++calls & 63) === 0 && Date.now() > deadline) throw new Error(budgetMessage);
    return 1;
  });
  const prepared = (sql: string, mode: string) => {
    const key = `${mode}\n${sql}`;
    let statement = cache.get(key);
    if (statement === undefined) {
      statement = db.prepare(sql);
      if (mode === 'row') statement.raw(true);
      if (cache.size >= CACHED) cache.delete(cache.keys().next().value as string);
    } else cache.delete(key);
    cache.set(key, statement);
    return statement;
  };
  type Statement = { sql: string; params: unknown[]; mode: string; unlessRows?: number; when?: StatementCondition };
  const holds = (results: unknown[], when: NonNullable<Statement['when']>) => {
    const value = (results[when.result] as number[] | undefined)?.[when.at];
    return typeof value === 'number' && (when.above ? value > when.atMost : value <= when.atMost);
  };
  const inSnapshot = db.transaction((statements: readonly Statement[]) => {
    const results: unknown[] = [];
    for (const { sql, params, mode, unlessRows, when } of statements) {
      const previous = results[results.length - 1];
      if (unlessRows !== undefined && Array.isArray(previous) && previous.length >= unlessRows) results.push(undefined);
      else if (when !== undefined && !holds(results, when)) results.push(undefined);
      else results.push(mode === 'all' ? prepared(sql, mode).all(...params) : prepared(sql, mode).get(...params));
    }
    return results;
  });
  const run = (statements: readonly Statement[], until?: number): unknown[] => {
    deadline = until ?? Infinity;
    calls = 0;
    if (Date.now() > deadline) throw new Error(budgetMessage);
    try {
      return inSnapshot(statements);
    } finally {
      deadline = Infinity;
    }
  };
  /** How many prepared statements the runner keeps (at most CACHED). */
  const cachedStatements = () => cache.size;
  return Object.assign(run, { cachedStatements });
}

/** The error a runner's failure stands for: BudgetExceededError for the deadline, else the error as it is. */
export function budgetOr(error: unknown): unknown {
  return (error as { message?: unknown } | null)?.message === BUDGET_MESSAGE ? new BudgetExceededError({ cause: error }) : error;
}

/** Reads on the store's own connection (an in-memory database): they hold the event loop while they run, up to the deadline. */
export function connectionReads(db: BetterSqlite3.Database): SqlReads {
  const run = statementRunner(db, BUDGET_MESSAGE);
  return async (statements, deadline) => {
    try {
      return run(statements, deadline);
    } catch (error) {
      throw budgetOr(error);
    }
  };
}
