/**
 * The store's section of the configuration: DATABASE_URL and the settings of the store it names.
 */
import { firstHostUrl, hostUrls } from '../store/postgres/postgres-hosts.js';
import type { SqliteSecureDelete, SqliteSynchronous } from '../store/sqlite/sqlite-connection.js';
import { bool, ConfigError, integer, oneOf, type Env } from './read-env.js';

/**
 * `changeFeed`: whether writes append change events (CHANGE_FEED, on by default).
 * Off only to measure what the feed costs: writes made with it off are missing
 * from the feed for good, so a consumer following it would miss them.
 *
 * `createDirectory` (SQLite): whether a missing folder of `path` may be created.
 * Otherwise a path whose folder does not exist is refused before anything is
 * opened (open-store.ts): a mistyped DATABASE_URL must not become a new, empty
 * database. True with SQLITE_CREATE_DIRECTORY=true (the CLI's --create), and when
 * DATABASE_URL is not set: the default ./data/users.db is nothing an operator
 * could have mistyped, and a fresh checkout's `npm start` must work.
 */
export type StoreConfig = { changeFeed: boolean } & (
  | { kind: 'sqlite'; path: string; synchronous: SqliteSynchronous; secureDelete: SqliteSecureDelete; createDirectory: boolean }
  | { kind: 'postgres'; url: string; poolMax: number; statementTimeoutMs: number; connectTimeoutMs: number }
);

/**
 * The shortest PG_STATEMENT_TIMEOUT_MS. The timeout holds for every statement of a connection,
 * the driver's own first query on it included (it reads the array types), and for the change
 * feed's sequencer: far below this they are cancelled, and the store could not even be opened.
 */
export const MIN_PG_STATEMENT_TIMEOUT_MS = 100;

export const DEFAULT_DATABASE_URL = 'sqlite:./data/users.db';

/** `sqlite:PATH`, `sqlite::memory:`, `postgres://…` or `postgresql://…`, with the settings of that store. */
export function storeConfig(env: Env): StoreConfig {
  const raw = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const changeFeed = oneOf(env, 'CHANGE_FEED', ['on', 'off'] as const, 'on') === 'on';
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length);
    if (path === '') throw new ConfigError('DATABASE_URL', 'sqlite: needs a file path, e.g. sqlite:./data/users.db or sqlite::memory:');
    return {
      kind: 'sqlite',
      path,
      synchronous: oneOf(env, 'SQLITE_SYNCHRONOUS', ['FULL', 'NORMAL'] as const, 'FULL'),
      secureDelete: oneOf(env, 'SQLITE_SECURE_DELETE', ['ON', 'FAST', 'OFF'] as const, 'ON'),
      createDirectory: bool(env, 'SQLITE_CREATE_DIRECTORY') || !env.DATABASE_URL,
      changeFeed,
    };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      // A replicated cluster's host list (h1:5432,h2:5432, as libpq writes it) is checked host by host.
      for (const hostUrl of hostUrls(raw).urls) new URL(hostUrl);
      const url = new URL(firstHostUrl(raw));
      // The driver percent-decodes these parts; a broken encoding must fail here, naming the setting.
      for (const part of [url.username, url.password, url.pathname]) decodeURIComponent(part);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL (check its percent-encoding)');
    }
    return {
      kind: 'postgres',
      url: raw,
      poolMax: integer(env, 'PG_POOL_MAX', 10, 1, 1000),
      statementTimeoutMs: integer(env, 'PG_STATEMENT_TIMEOUT_MS', 5_000, MIN_PG_STATEMENT_TIMEOUT_MS, 3_600_000,
        `a shorter timeout cancels the driver's own first query on each connection, so the store could not open`),
      connectTimeoutMs: integer(env, 'PG_CONNECT_TIMEOUT_MS', 5_000, 1000, 600_000),
      changeFeed,
    };
  }
  throw new ConfigError('DATABASE_URL', 'must start with sqlite:, postgres:// or postgresql://');
}

export interface StoreSection {
  store: StoreConfig;
}
