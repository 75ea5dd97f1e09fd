/**
 * Why a store could not be opened, in words an operator acts on: which database
 * (SQLite path, or PostgreSQL host, port and database name) and what went wrong
 * (`database "users" does not exist`, `connection refused`, `password
 * authentication failed for user "svc"`), never an SQLSTATE alone, a stack or a
 * password. Also the store's location for the start-up log.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { StoreConfig } from '../config.js';
import { DeferredBuildError } from './deferred-indexes.js';
import { StoreFullError, StoreUnavailableError } from './store-errors.js';
import { firstHostUrl, hostUrls } from './postgres/postgres-hosts.js';

interface PostgresTarget {
  host: string;
  port: string;
  database: string;
}

/** Host, port and database of a postgres:// URL, as postgres.js reads them (defaults included); never the password. */
function postgresTarget(url: string): PostgresTarget {
  const parsed = new URL(firstHostUrl(url));
  const user = decodeURIComponent(parsed.username) || 'postgres';
  const { names } = hostUrls(url);
  return {
    // A replicated cluster's hosts are all named (h1:5432,h2:5432); the port is the first's.
    host: names.length > 1 ? names.join(',') : (parsed.searchParams.get('host') ?? (decodeURIComponent(parsed.hostname) || 'localhost')),
    port: parsed.port || parsed.searchParams.get('port') || '5432',
    database: decodeURIComponent(parsed.pathname.slice(1)) || user,
  };
}

/** Where the store keeps its data, as log fields (no credentials). */
export function storeLocation(config: StoreConfig): Record<string, string> {
  if (config.kind === 'sqlite') return { store: 'sqlite', path: config.path === ':memory:' ? ':memory:' : resolve(config.path) };
  const { host, port, database } = postgresTarget(config.url);
  return { store: 'postgres', host, port, database };
}

/** Connection failures of the socket or of postgres.js, in words. */
const CONNECTION_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  CONNECT_TIMEOUT: 'no answer within PG_CONNECT_TIMEOUT_MS',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name cannot be resolved now',
  CONNECTION_CLOSED: 'the server closed the connection',
  CONNECTION_ENDED: 'the connection ended',
  CONNECTION_DESTROYED: 'the connection was destroyed',
};

const SQLITE_WORDS: Record<string, string> = {
  SQLITE_CANTOPEN: 'cannot be opened (check that the path names a file in an existing, writable folder)',
  SQLITE_NOTADB: 'is not a SQLite database',
  SQLITE_CORRUPT: 'is corrupt',
  SQLITE_READONLY: 'is read-only',
  SQLITE_BUSY: 'is locked by another process',
  SQLITE_PERM: 'cannot be opened (permission denied)',
  EACCES: 'cannot be created (permission denied)',
  ENOTDIR: 'cannot be created (a part of its path is not a folder)',
  EEXIST: 'cannot be created (a part of its path is not a folder)',
};

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

function describeSqlite(path: string, error: unknown, mustExist: boolean): string {
  const code = String((error as { code?: unknown })?.code ?? '');
  const where = `the SQLite database ${path}`;
  if (mustExist && !existsSync(path)) return `${where} does not exist`;
  if (error instanceof DeferredBuildError) return `${where} ${error.message}`;
  const words = SQLITE_WORDS[code] ?? SQLITE_WORDS[code.replace(/_[A-Z_]+$/, '')];
  return `${where} ${words ?? `cannot be opened: ${firstLine(error)}`}`;
}

function describePostgres(url: string, error: unknown): string {
  const { host, port, database } = postgresTarget(url);
  // A replicated cluster's host list names each host's port already.
  const where = host.includes(',') ? host : `${host}:${port}`;
  const code = String((error as { code?: unknown })?.code ?? '');
  const words = CONNECTION_WORDS[code];
  if (words) return `cannot connect to PostgreSQL at ${where} (${words})`;
  // A server error's message is PostgreSQL's own sentence, e.g. `database "x" does not exist`.
  return `PostgreSQL at ${where}/${database}: ${firstLine(error)}`;
}

/** One line naming DATABASE_URL and what is wrong; the password of the URL never appears in it. */
export function describeOpenError(config: StoreConfig, error: unknown, mustExist = false): string {
  const cause = (error instanceof StoreUnavailableError || error instanceof StoreFullError) && error.cause !== undefined ? error.cause : error;
  if (config.kind === 'sqlite') return `DATABASE_URL: ${describeSqlite(config.path, cause, mustExist)}`;
  const line = `DATABASE_URL: ${describePostgres(config.url, cause)}`;
  const password = decodeURIComponent(new URL(firstHostUrl(config.url)).password);
  return password === '' ? line : line.split(password).join('***');
}

/**
 * Whether `error` is the failure of the query postgres.js (3.4) sends first on each new
 * connection, reading the array types. Its promise is dropped (porsager/postgres#1192), so
 * the error reaches no caller, only the process's `unhandledRejection` (src/server.ts).
 */
export function isDriverTypeQueryFailure(error: unknown): boolean {
  if ((error as { name?: unknown })?.name !== 'PostgresError') return false;
  const query = (error as { query?: unknown }).query;
  return typeof query === 'string' && query.includes('pg_catalog.pg_type') && query.includes('typarray');
}

/**
 * Whether `error` is postgres.js (3.4) writing to a connection whose socket is already gone: a
 * write it deferred with setImmediate runs after the connection closed (`socket` is null), and
 * throws where no caller can catch it. The query on that connection has already failed with the
 * connection's own error, so the throw carries nothing more; it must not end the process.
 */
export function isDriverWriteAfterClose(error: unknown): boolean {
  if (!(error instanceof TypeError) || !/^Cannot read properties of null \(reading '(write|end|destroy)'\)$/.test(error.message)) return false;
  const top = error.stack?.split('\n')[1] ?? '';
  return /[\\/]postgres[\\/](src|cjs[\\/]src|cf[\\/]src)[\\/]connection\.js:/.test(top);
}
