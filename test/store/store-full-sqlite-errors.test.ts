/**
 * SQLite's "no room to write" in the store's terms (src/store/sqlite/sqlite-errors.ts):
 * SQLITE_FULL (ENOSPC or max_page_count), SQLITE_IOERR_SHMSIZE and every
 * SQLITE_READONLY code are StoreFullError; busy, locked, other I/O errors and a
 * file that cannot be opened stay StoreUnavailableError (extended codes too);
 * anything else is left as it is.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import Database from '../../src/store/sqlite/sqlite-driver.js';
import { translateSqliteError } from '../../src/store/sqlite/sqlite-errors.js';
import { KeyConflictError, StoreFullError, StoreUnavailableError } from '../../src/store/store-errors.js';

const driverError = (code: string) => Object.assign(new Error(code.toLowerCase()), { code });

it('a full database, a -shm file that cannot grow and a read-only database are StoreFullError', () => {
  for (const code of ['SQLITE_FULL', 'SQLITE_IOERR_SHMSIZE', 'SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED', 'SQLITE_READONLY_RECOVERY', 'SQLITE_READONLY_CANTLOCK', 'SQLITE_READONLY_DIRECTORY']) {
    const error = driverError(code);
    const translated = translateSqliteError(error);
    assert.ok(translated instanceof StoreFullError, code);
    assert.equal(translated.cause, error);
    assert.equal(translated.readOnly, code.startsWith('SQLITE_READONLY'), `${code}: said as read-only, or out of space`);
  }
});

it('busy, locked, other I/O errors and a file that cannot be opened stay StoreUnavailableError, extended codes included', () => {
  for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', 'SQLITE_LOCKED_SHAREDCACHE', 'SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC', 'SQLITE_CANTOPEN', 'SQLITE_CANTOPEN_ISDIR']) {
    assert.ok(translateSqliteError(driverError(code)) instanceof StoreUnavailableError, code);
  }
});

it('anything else is left as it is', () => {
  for (const error of [driverError('SQLITE_CONSTRAINT_UNIQUE'), driverError('SQLITE_ERROR'), driverError('SQLITE_CORRUPT'), new KeyConflictError('username'), new StoreFullError(), new Error('no code'), null]) {
    assert.equal(translateSqliteError(error), error);
  }
});

it("the driver's own error for a write to a database that became read-only is StoreFullError", () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (v TEXT)');
  db.pragma('query_only = ON');
  let thrown: unknown;
  try {
    db.prepare("INSERT INTO t VALUES ('x')").run();
  } catch (error) {
    thrown = error;
  }
  db.close();
  assert.match(String((thrown as { code?: string }).code), /^SQLITE_READONLY/);
  assert.ok(translateSqliteError(thrown) instanceof StoreFullError);
});
