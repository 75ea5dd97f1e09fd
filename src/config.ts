/**
 * Configuration: read once from the environment into a frozen, typed Config.
 * Nothing else reads process.env. A bad value throws ConfigError naming the
 * setting; the entry point prints its one line and exits non-zero.
 */
import { isIP } from 'node:net';

export class ConfigError extends Error {
  constructor(readonly setting: string, message: string) {
    super(`${setting}: ${message}`);
    this.name = 'ConfigError';
  }
}

export type StoreConfig =
  | { kind: 'sqlite'; path: string; synchronous: 'FULL' | 'NORMAL' }
  | { kind: 'postgres'; url: string; poolMax: number; statementTimeoutMs: number; connectTimeoutMs: number };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  host: string;
  port: number;
  store: StoreConfig;
  logLevel: LogLevel;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** Whole-request deadline, header deadline and idle keep-alive, in ms. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How long a graceful stop waits for requests in flight before exiting anyway, in ms. */
  shutdownTimeoutMs: number;
  authMode: 'none';
  allowUnauthenticated: boolean;
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`);
  }
  return raw as T;
}

function bool(env: Env, name: string): boolean {
  return oneOf(env, name, ['true', 'false'], 'false') === 'true';
}

export const DEFAULT_DATABASE_URL = 'sqlite:./data/users.db';

/** `sqlite:PATH`, `sqlite::memory:`, `postgres://…` or `postgresql://…`, with the settings of that store. */
function storeConfig(env: Env): StoreConfig {
  const raw = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length);
    if (path === '') throw new ConfigError('DATABASE_URL', 'sqlite: needs a file path, e.g. sqlite:./data/users.db or sqlite::memory:');
    return { kind: 'sqlite', path, synchronous: oneOf(env, 'SQLITE_SYNCHRONOUS', ['FULL', 'NORMAL'] as const, 'FULL') };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return {
      kind: 'postgres',
      url: raw,
      poolMax: integer(env, 'PG_POOL_MAX', 10, 1, 1000),
      statementTimeoutMs: integer(env, 'PG_STATEMENT_TIMEOUT_MS', 5_000, 1, 3_600_000),
      connectTimeoutMs: integer(env, 'PG_CONNECT_TIMEOUT_MS', 5_000, 1000, 600_000),
    };
  }
  throw new ConfigError('DATABASE_URL', 'must start with sqlite:, postgres:// or postgresql://');
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const host = env.HOST || '127.0.0.1';
  const authMode = oneOf(env, 'AUTH_MODE', ['none'] as const, 'none');
  const allowUnauthenticated = bool(env, 'ALLOW_UNAUTHENTICATED');
  if (authMode === 'none' && !isLoopback(host) && !allowUnauthenticated) {
    throw new ConfigError('HOST', `${host} is not a loopback address and AUTH_MODE=none; set ALLOW_UNAUTHENTICATED=true to serve without authentication`);
  }
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1, 3_600_000);
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 1, 3_600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError('HEADERS_TIMEOUT_MS', `must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  }
  return Object.freeze({
    host,
    port: integer(env, 'PORT', 8080, 0, 65535),
    store: Object.freeze(storeConfig(env)),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    bodyLimit: integer(env, 'BODY_LIMIT', 64 * 1024, 1024, 64 * 1024 * 1024),
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000, 1, 3_600_000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 1, 3_600_000),
    authMode,
    allowUnauthenticated,
  });
}
