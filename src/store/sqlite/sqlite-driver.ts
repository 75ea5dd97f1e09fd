/**
 * The SQLite driver for the Node.js that runs the service: better-sqlite3 13 where
 * Node-API 10 exists (Node.js 22.14 and later, 24), better-sqlite3 12 on Node.js 20.
 *
 * No one release of better-sqlite3 runs on every supported Node.js: 12 and earlier
 * abort the process on Node.js 24 (`Assertion failed: (env) != nullptr` in
 * RemoveEnvironmentCleanupHook) when a garbage-collected statement or database is
 * destroyed, at exit or at any moment while running, and no 12.x release fixes it;
 * 13 is built on Node-API 10, which Node.js 20 lacks, and crashes there as it opens
 * a database. Both are dependencies and have the same API, so one set of types
 * serves both: 12 a plain one, 13 an optional one under the alias
 * better-sqlite3-node-api, so that npm skips it, without a warning, where its
 * `engines` (Node.js 22 or later) exclude the running Node.js (README, the
 * paragraph on installing).
 */
import type BetterSqlite3 from 'better-sqlite3';

/** The package loaded here: better-sqlite3-node-api (13) with Node-API 10, better-sqlite3 (12) without. */
export const SQLITE_DRIVER_PACKAGE = Number(process.versions.napi) >= 10 ? 'better-sqlite3-node-api' : 'better-sqlite3';

async function loadDriver(): Promise<typeof BetterSqlite3> {
  try {
    // Imported (not required) so that module-loading hooks see it like any other dependency.
    return ((await import(SQLITE_DRIVER_PACKAGE)) as { default: typeof BetterSqlite3 }).default;
  } catch (error) {
    const missing = (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes(`'${SQLITE_DRIVER_PACKAGE}'`);
    if (!missing || SQLITE_DRIVER_PACKAGE !== 'better-sqlite3-node-api') throw error;
    // The modules were installed under a Node.js older than 22 (which skips the optional driver), then run under this one.
    throw new Error(`the SQLite driver for Node.js ${process.versions.node} (better-sqlite3-node-api) is not installed: run npm ci again with this Node.js`, { cause: error });
  }
}

const Database: typeof BetterSqlite3 = await loadDriver();
export default Database;
