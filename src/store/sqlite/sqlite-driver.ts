/**
 * The SQLite driver for the Node.js that runs the service: better-sqlite3 13 where
 * Node-API 10 exists (Node.js 22.14 and later, 24), better-sqlite3 12 on Node.js 20.
 *
 * No one release of better-sqlite3 runs on every supported Node.js: 12 and earlier
 * abort the process on Node.js 24 (`Assertion failed: (env) != nullptr` in
 * RemoveEnvironmentCleanupHook) when a garbage-collected statement or database is
 * destroyed, at exit or at any moment while running; 13 is built on Node-API 10,
 * which Node.js 20 lacks, and crashes there as it opens a database. Both are
 * dependencies (13 under the alias better-sqlite3-node-api) and have the same API,
 * so one set of types serves both (README, the paragraph on installing).
 */
import type BetterSqlite3 from 'better-sqlite3';

/** The package loaded here: better-sqlite3-node-api (13) with Node-API 10, better-sqlite3 (12) without. */
export const SQLITE_DRIVER_PACKAGE = Number(process.versions.napi) >= 10 ? 'better-sqlite3-node-api' : 'better-sqlite3';

// Imported (not required) so that module-loading hooks see it like any other dependency.
const Database: typeof BetterSqlite3 = ((await import(SQLITE_DRIVER_PACKAGE)) as { default: typeof BetterSqlite3 }).default;
export default Database;
