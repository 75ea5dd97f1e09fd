/** Store errors in words, and where the store is, for operators: never an SQLSTATE alone, never a password. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoreConfig } from '../../src/config.js';
import { describeOpenError, isDriverWriteAfterClose, storeLocation } from '../../src/store/open-store-errors.js';
import { StoreUnavailableError } from '../../src/store/store-errors.js';

const postgresAt = (url: string): StoreConfig => ({ kind: 'postgres', url, poolMax: 1, statementTimeoutMs: 1000, connectTimeoutMs: 1000, changeFeed: true });

/** The shape of a server error as postgres.js raises it (name PostgresError, SQLSTATE code, PostgreSQL's sentence). */
function serverError(code: string, message: string): Error {
  return Object.assign(new Error(message), { name: 'PostgresError', code });
}

describe('store errors in words', () => {
  it('a wrong password says so, names the server and never shows the password', () => {
    const line = describeOpenError(postgresAt('postgres://svc:s3cr%40t@db.internal:6543/users'), serverError('28P01', 'password authentication failed for user "svc"'));
    assert.equal(line, 'DATABASE_URL: PostgreSQL at db.internal:6543/users: password authentication failed for user "svc"');
    const echoed = describeOpenError(postgresAt('postgres://svc:s3cr%40t@db.internal/users'), new Error('connect failed for svc:s3cr@t'));
    assert.doesNotMatch(echoed, /s3cr/);
  });

  it('a missing database is PostgreSQL\'s own sentence, not its SQLSTATE', () => {
    const line = describeOpenError(postgresAt('postgres://postgres@127.0.0.1:5432/nope'), new StoreUnavailableError({ cause: serverError('3D000', 'database "nope" does not exist') }));
    assert.equal(line, 'DATABASE_URL: PostgreSQL at 127.0.0.1:5432/nope: database "nope" does not exist');
  });

  it('a refused or unresolvable connection names host and port', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5433'), { code: 'ECONNREFUSED' });
    assert.equal(describeOpenError(postgresAt('postgresql://u:p@127.0.0.1:5433/x'), refused), 'DATABASE_URL: cannot connect to PostgreSQL at 127.0.0.1:5433 (connection refused)');
    const unknown = Object.assign(new Error('getaddrinfo ENOTFOUND db'), { code: 'ENOTFOUND' });
    assert.equal(describeOpenError(postgresAt('postgres://db/x'), unknown), 'DATABASE_URL: cannot connect to PostgreSQL at db:5432 (the host name does not resolve)');
  });

  it('SQLite failures name the file', () => {
    const sqlite: StoreConfig = { kind: 'sqlite', path: '/srv/users.db', synchronous: 'FULL', secureDelete: 'ON', createDirectory: false, changeFeed: true };
    assert.equal(describeOpenError(sqlite, Object.assign(new Error('file is not a database'), { code: 'SQLITE_NOTADB' })), 'DATABASE_URL: the SQLite database /srv/users.db is not a SQLite database');
    assert.equal(describeOpenError(sqlite, new Error('x'), true), 'DATABASE_URL: the SQLite database /srv/users.db does not exist');
  });

  it('storeLocation gives the SQLite path, or host, port and database of PostgreSQL, without credentials', () => {
    assert.deepEqual(storeLocation(postgresAt('postgres://svc:hunter2@db.internal:6543/users')), { store: 'postgres', host: 'db.internal', port: '6543', database: 'users' });
    assert.deepEqual(storeLocation(postgresAt('postgres://svc@db.internal')), { store: 'postgres', host: 'db.internal', port: '5432', database: 'svc' });
    assert.deepEqual(storeLocation({ kind: 'sqlite', path: '/srv/users.db', synchronous: 'FULL', secureDelete: 'ON', createDirectory: false, changeFeed: true }), { store: 'sqlite', path: '/srv/users.db' });
  });
});

describe('isDriverWriteAfterClose', () => {
  const thrown = (message: string, frame: string) => Object.assign(new TypeError(message), { stack: `TypeError: ${message}\n    at ${frame}\n    at process.processImmediate (node:internal/timers:491:21)` });
  it("matches postgres.js's deferred write to a closed connection, and nothing else", () => {
    assert.equal(isDriverWriteAfterClose(thrown("Cannot read properties of null (reading 'write')", 'nextWrite (/srv/node_modules/postgres/src/connection.js:255:22)')), true);
    assert.equal(isDriverWriteAfterClose(thrown("Cannot read properties of null (reading 'write')", 'nextWrite (/srv/node_modules/postgres/cjs/src/connection.js:255:22)')), true);
    assert.equal(isDriverWriteAfterClose(thrown("Cannot read properties of null (reading 'write')", 'flush (/srv/dist/src/http/reply.js:10:3)')), false, 'our own code');
    assert.equal(isDriverWriteAfterClose(thrown("Cannot read properties of null (reading 'uid')", 'x (/srv/node_modules/postgres/src/connection.js:9:1)')), false, 'another property');
    assert.equal(isDriverWriteAfterClose(new Error("Cannot read properties of null (reading 'write')")), false, 'not a TypeError');
  });
});
