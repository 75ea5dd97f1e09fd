/**
 * Configuration: read once from the environment into a frozen, typed Config.
 * Nothing else reads process.env. A bad value throws ConfigError naming the
 * setting; the entry point prints its one line and exits non-zero.
 */
import { readFileSync, statSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';
import { firstHostUrl, hostUrls } from './store/postgres/postgres-hosts.js';
import { CorsOriginsError, parseCorsOrigins, type CorsOrigins } from './http/cors-origins.js';
import { parsePublicUrl, PublicUrlError } from './http/public-url.js';
import type { SqliteSecureDelete, SqliteSynchronous } from './store/sqlite/sqlite-connection.js';

export class ConfigError extends Error {
  constructor(readonly setting: string, message: string) {
    super(`${setting}: ${message}`);
    this.name = 'ConfigError';
  }
}

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
 * `users:read` and `users:write` for the directory (CONTRACT §8); `metrics:read` for
 * GET /metrics, which is not among the contract's public routes, so a scraper holds a
 * credential of its own and a client of the directory need not see the service's internals.
 */
export const SCOPES = ['users:read', 'users:write', 'metrics:read'] as const;
export type Scope = (typeof SCOPES)[number];

/** One accepted API key: the SHA-256 (hex) of the key, never the key itself. */
export interface ApiKeyEntry {
  id: string;
  sha256: string;
  scopes: readonly Scope[];
}

export type AuthConfig =
  | { mode: 'none' }
  | { mode: 'api-key'; keys: readonly ApiKeyEntry[] }
  | {
      mode: 'jwt';
      issuer: string;
      audience: string;
      /** Where the verification keys come from: only configuration, never a token header. */
      jwks: { url: string } | { file: string; keys: { keys: Record<string, unknown>[] } };
      algorithms: readonly string[];
      clockToleranceS: number;
    };

export interface RateLimitConfig {
  max: number;
  windowS: number;
  /** Shared counters for all instances; per-process counters without it. */
  redisUrl?: string;
}

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
  auth: AuthConfig;
  /** Off when undefined. */
  rateLimit?: RateLimitConfig;
  /** Proxies whose X-Forwarded-For is believed (addresses, CIDRs or proxy-addr names); none by default. */
  trustProxy: readonly string[];
  /** Largest request head (request line and headers), in bytes; beyond it a 431. */
  maxHeaderBytes: number;
  /** Event-loop delay beyond which requests are shed with 503, in ms; 0 turns shedding off. */
  maxEventLoopDelayMs: number;
  /**
   * The time budget of a request, in ms (CONTRACT §7): its searches, counts and list walks
   * stop past it and it is answered 503 `budget-exceeded` (http/request-budget.ts).
   */
  requestBudgetMs: number;
  /** How long an Idempotency-Key and its answer are kept, in ms. */
  idempotencyTtlMs: number;
  /**
   * For crash tests only (TEST_DELAY_AFTER_WRITE_MS): how long a write with an
   * Idempotency-Key waits between its commit and its response. 0 in production.
   */
  delayAfterWriteMs: number;
  /** The change feed (CONTRACT §11, docs/events.md). */
  events: EventsConfig;
  /**
   * Whether responses are compressed (COMPRESSION, on by default; http/compression.ts). Off
   * behind a proxy that compresses, and to measure what compression costs.
   */
  compression: boolean;
  /** Origins whose pages may call the service (CORS_ORIGINS); CORS is off when undefined. */
  cors?: CorsOrigins;
  /** PUBLIC_URL without a trailing slash (http/public-url.ts); answers name root-relative URLs when undefined. */
  publicUrl?: string;
  /** Scheduled snapshots of the SQLite store (BACKUP_DIR); off when undefined. */
  backup?: BackupConfig;
  /**
   * For crash tests only (TEST_BACKUP_STEP_DELAY_MS): how long a snapshot's thread waits
   * after each step of its copy, so a test can stop it mid-copy. 0 in production.
   */
  backupStepDelayMs: number;
}

/** Scheduled snapshots (docs/deployment.md, "Scheduled snapshots"). */
export interface BackupConfig {
  /** The folder snapshots are written in (it must exist when the service starts). */
  dir: string;
  /** Time between the end of one snapshot and the start of the next, in ms. */
  intervalMs: number;
  /** How many complete snapshots are kept; older ones go once a new one is complete. */
  keep: number;
}

export interface EventsConfig {
  /** CloudEvents `source` of every event (a URI-reference). */
  source: string;
  /** Events older than this are deleted; 0 keeps them whatever their age. */
  retentionMs: number;
  /** At most this many of the newest events are kept; 0 for no limit. */
  retentionCount: number;
  /** How often retention runs, in ms. */
  retentionCheckMs: number;
  /** How often an idle Server-Sent Events stream gets a comment line, in ms. */
  heartbeatMs: number;
  /** Most Server-Sent Events streams one instance serves; one more is a 503. */
  maxSubscribers: number;
  /** Bytes a stream may have waiting for a slow subscriber before it is disconnected. */
  subscriberBufferBytes: number;
  /** Publishing to NATS JetStream, when EVENTS_NATS_URL is set. */
  nats?: NatsRelayConfig;
}

export interface NatsRelayConfig {
  /** Server URLs, comma-separated as in EVENTS_NATS_URL (nats://host:port). */
  servers: string[];
  /** The JetStream stream (made when missing, capturing `${subjectPrefix}.>`). */
  stream: string;
  /** Each event is published on `${subjectPrefix}.${type}`, e.g. users.events.user.created. */
  subjectPrefix: string;
}

type Env = Record<string, string | undefined>;

/** `why`: what goes wrong below `min`, said in the message (a bound an operator would not guess). */
function integer(env: Env, name: string, fallback: number, min: number, max: number, why?: string): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}${why ? ` (${why})` : ''}`);
  }
  return Number(raw);
}

/**
 * The shortest PG_STATEMENT_TIMEOUT_MS. The timeout holds for every statement of a connection,
 * the driver's own first query on it included (it reads the array types), and for the change
 * feed's sequencer: far below this they are cancelled, and the store could not even be opened.
 */
export const MIN_PG_STATEMENT_TIMEOUT_MS = 100;

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`);
  }
  return raw as T;
}

/** NATS names: a stream name has no spaces, dots, `*`, `>`, slashes; subject tokens are dot-separated and non-empty. */
const STREAM_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const SUBJECT_PREFIX = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

function natsRelayConfig(env: Env): NatsRelayConfig | undefined {
  const raw = env.EVENTS_NATS_URL;
  if (!raw) return undefined;
  const servers = raw.split(',').map((s) => s.trim());
  for (const server of servers) {
    let url: URL;
    try {
      url = new URL(server);
    } catch {
      throw new ConfigError('EVENTS_NATS_URL', `${JSON.stringify(server)} is not a URL (nats://host:port)`);
    }
    if (!['nats:', 'tls:'].includes(url.protocol)) throw new ConfigError('EVENTS_NATS_URL', 'must be nats:// or tls:// URLs, comma-separated');
  }
  const stream = env.EVENTS_NATS_STREAM || 'USER_EVENTS';
  if (!STREAM_NAME.test(stream)) throw new ConfigError('EVENTS_NATS_STREAM', 'must be 1-64 letters, digits, - or _');
  const subjectPrefix = env.EVENTS_NATS_SUBJECT_PREFIX || 'users.events';
  if (!SUBJECT_PREFIX.test(subjectPrefix)) throw new ConfigError('EVENTS_NATS_SUBJECT_PREFIX', 'must be dot-separated tokens of letters, digits, - or _ (no wildcards)');
  return { servers, stream, subjectPrefix };
}

function eventsConfig(env: Env): EventsConfig {
  const source = env.EVENTS_SOURCE || '/users';
  if (/[\s"\\]/.test(source) || source.length > 2048) throw new ConfigError('EVENTS_SOURCE', 'must be a URI-reference without spaces, quotes or backslashes');
  const nats = natsRelayConfig(env);
  return {
    source,
    retentionMs: integer(env, 'EVENTS_RETENTION_DAYS', 7, 0, 36_500) * 86_400_000,
    retentionCount: integer(env, 'EVENTS_RETENTION_COUNT', 0, 0, 1_000_000_000),
    retentionCheckMs: integer(env, 'EVENTS_RETENTION_CHECK_S', 60, 1, 86_400) * 1000,
    heartbeatMs: integer(env, 'EVENTS_HEARTBEAT_S', 15, 1, 3600) * 1000,
    maxSubscribers: integer(env, 'EVENTS_MAX_SUBSCRIBERS', 1000, 0, 100_000),
    subscriberBufferBytes: integer(env, 'EVENTS_SUBSCRIBER_BUFFER_BYTES', 1024 * 1024, 16 * 1024, 1024 * 1024 * 1024),
    ...(nats ? { nats } : {}),
  };
}

function bool(env: Env, name: string): boolean {
  return oneOf(env, name, ['true', 'false'], 'false') === 'true';
}

export const DEFAULT_DATABASE_URL = 'sqlite:./data/users.db';

/** BACKUP_DIR, BACKUP_INTERVAL_S, BACKUP_KEEP: checked at start; a folder that later fails is the schedule's to report. */
function backupConfig(env: Env, store: StoreConfig): BackupConfig | undefined {
  const dir = env.BACKUP_DIR;
  const intervalMs = integer(env, 'BACKUP_INTERVAL_S', 3600, 1, 30 * 86_400) * 1000;
  const keep = integer(env, 'BACKUP_KEEP', 7, 1, 10_000);
  if (!dir) return undefined;
  if (store.kind === 'postgres') throw new ConfigError('BACKUP_DIR', 'scheduled snapshots are for the SQLite store; on PostgreSQL use pg_dump -Fc or pgBackRest (docs/deployment.md)');
  if (store.path === ':memory:') throw new ConfigError('BACKUP_DIR', 'an in-memory SQLite store (sqlite::memory:) has nothing on disk to back up');
  let folder = false;
  try {
    folder = statSync(dir).isDirectory();
  } catch {
    folder = false;
  }
  if (!folder) throw new ConfigError('BACKUP_DIR', `${JSON.stringify(dir)} is not an existing folder`);
  return { dir, intervalMs, keep };
}

/** `sqlite:PATH`, `sqlite::memory:`, `postgres://…` or `postgresql://…`, with the settings of that store. */
function storeConfig(env: Env): StoreConfig {
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

const JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

function required(env: Env, name: string, why: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') throw new ConfigError(name, `is required ${why}`);
  return raw;
}

function readJsonFile(name: string, path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(name, `cannot read JSON from ${path}: ${(error as Error).message.split('\n')[0]}`);
  }
}

function apiKeys(env: Env): ApiKeyEntry[] {
  const path = required(env, 'API_KEYS_FILE', 'when AUTH_MODE=api-key');
  const entries = readJsonFile('API_KEYS_FILE', path);
  const fail = (why: string): never => {
    throw new ConfigError('API_KEYS_FILE', `${path}: ${why}`);
  };
  if (!Array.isArray(entries) || entries.length === 0) fail('must be a non-empty JSON array of { "id", "sha256", "scopes" }');
  const ids = new Set<string>();
  return (entries as unknown[]).map((entry, i) => {
    const { id, sha256, scopes } = (entry ?? {}) as Record<string, unknown>;
    if (typeof id !== 'string' || id === '' || /\p{Cc}/u.test(id) || ids.has(id)) fail(`entry ${i}: "id" must be a unique non-empty string without control characters`);
    if (typeof sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(sha256)) fail(`entry ${i}: "sha256" must be 64 hex digits (the SHA-256 of the key)`);
    if (!Array.isArray(scopes) || !scopes.every((s) => (SCOPES as readonly unknown[]).includes(s))) fail(`entry ${i}: "scopes" must list only ${SCOPES.join(', ')}`);
    ids.add(id as string);
    return { id: id as string, sha256: (sha256 as string).toLowerCase(), scopes: scopes as Scope[] };
  });
}

function authConfig(env: Env, host: string): AuthConfig {
  const mode = oneOf(env, 'AUTH_MODE', ['none', 'api-key', 'jwt'] as const, 'none');
  if (mode === 'none') {
    if (!isLoopback(host) && !bool(env, 'ALLOW_UNAUTHENTICATED')) {
      throw new ConfigError('HOST', `${host} is not a loopback address and AUTH_MODE=none; set ALLOW_UNAUTHENTICATED=true to serve without authentication`);
    }
    return { mode };
  }
  if (mode === 'api-key') return { mode, keys: Object.freeze(apiKeys(env)) };
  const url = env.JWT_JWKS_URL;
  const file = env.JWT_JWKS_FILE;
  if (!url === !file) throw new ConfigError('JWT_JWKS_URL', 'exactly one of JWT_JWKS_URL and JWT_JWKS_FILE is required when AUTH_MODE=jwt');
  let jwks: Extract<AuthConfig, { mode: 'jwt' }>['jwks'];
  if (url) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ConfigError('JWT_JWKS_URL', 'is not a URL');
    }
    if (parsed.protocol !== 'https:' && !isLoopback(parsed.hostname)) throw new ConfigError('JWT_JWKS_URL', 'must be https (http only for a loopback host)');
    jwks = { url };
  } else {
    const keys = readJsonFile('JWT_JWKS_FILE', file as string) as { keys?: unknown };
    if (!Array.isArray(keys?.keys)) throw new ConfigError('JWT_JWKS_FILE', 'must hold a JSON Web Key Set: { "keys": [...] }');
    jwks = { file: file as string, keys: keys as { keys: Record<string, unknown>[] } };
  }
  const algorithms = (env.JWT_ALGORITHMS || 'RS256,ES256,EdDSA').split(',').map((a) => a.trim());
  for (const alg of algorithms) {
    if (!(JWT_ALGORITHMS as readonly string[]).includes(alg)) {
      throw new ConfigError('JWT_ALGORITHMS', `${alg} is not allowed; choose from ${JWT_ALGORITHMS.join(', ')} (symmetric and "none" never are)`);
    }
  }
  return {
    mode,
    issuer: required(env, 'JWT_ISSUER', 'when AUTH_MODE=jwt'),
    audience: required(env, 'JWT_AUDIENCE', 'when AUTH_MODE=jwt'),
    jwks,
    algorithms: Object.freeze(algorithms),
    clockToleranceS: integer(env, 'JWT_CLOCK_TOLERANCE_S', 30, 0, 300),
  };
}

function corsConfig(env: Env, auth: AuthConfig): CorsOrigins | undefined {
  let cors: CorsOrigins | undefined;
  try {
    cors = parseCorsOrigins(env.CORS_ORIGINS);
  } catch (error) {
    if (error instanceof CorsOriginsError) throw new ConfigError('CORS_ORIGINS', error.message);
    throw error;
  }
  // Without authentication, "*" would let any page a user of this machine opens read and change the directory.
  if (cors?.any && auth.mode === 'none') throw new ConfigError('CORS_ORIGINS', '"*" needs AUTH_MODE=api-key or jwt: with AUTH_MODE=none any web page could read and change the directory; list the origins instead');
  return cors;
}

function publicUrlConfig(env: Env): string | undefined {
  try {
    return parsePublicUrl(env.PUBLIC_URL);
  } catch (error) {
    if (error instanceof PublicUrlError) throw new ConfigError('PUBLIC_URL', error.message);
    throw error;
  }
}

function rateLimitConfig(env: Env): RateLimitConfig | undefined {
  const max = integer(env, 'RATE_LIMIT_MAX', 0, 0, 1_000_000_000);
  const windowS = integer(env, 'RATE_LIMIT_WINDOW_S', 0, 0, 86_400);
  if (max === 0 && windowS === 0) {
    if (env.REDIS_URL) throw new ConfigError('REDIS_URL', 'is only used for rate limiting: set RATE_LIMIT_MAX and RATE_LIMIT_WINDOW_S too');
    return undefined;
  }
  if (max === 0 || windowS === 0) throw new ConfigError(max === 0 ? 'RATE_LIMIT_MAX' : 'RATE_LIMIT_WINDOW_S', 'RATE_LIMIT_MAX and RATE_LIMIT_WINDOW_S go together, both at least 1');
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://');
  return redisUrl === undefined ? { max, windowS } : { max, windowS, redisUrl };
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function trustProxy(env: Env): string[] {
  const raw = env.TRUST_PROXY;
  if (!raw) return [];
  const entries = raw.split(',').map((e) => e.trim());
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const ok = PROXY_NAMES.includes(entry) || (extra === undefined && isIP(address ?? '') !== 0 && (bits === undefined || /^[0-9]{1,3}$/.test(bits)));
    if (!ok) throw new ConfigError('TRUST_PROXY', `${JSON.stringify(entry)} is not an address, a CIDR or one of ${PROXY_NAMES.join(', ')}`);
  }
  return entries;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Whether `host` (an address, a name, or a URL's hostname, which keeps an IPv6
 * address in brackets: `[::1]`) is this machine's loopback. IPv4-mapped IPv6
 * loopback addresses (`::ffff:127.0.0.1`) count too.
 */
export function isLoopback(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare === 'localhost') return true;
  const family = isIP(bare);
  return family !== 0 && LOOPBACK.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const host = env.HOST || '127.0.0.1';
  const auth = authConfig(env, host);
  const rateLimit = rateLimitConfig(env);
  const cors = corsConfig(env, auth);
  const publicUrl = publicUrlConfig(env);
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1, 3_600_000);
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 1, 3_600_000);
  const store = Object.freeze(storeConfig(env));
  const backup = backupConfig(env, store);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError('HEADERS_TIMEOUT_MS', `must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  }
  return Object.freeze({
    host,
    port: integer(env, 'PORT', 8080, 0, 65535),
    store,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    bodyLimit: integer(env, 'BODY_LIMIT', 64 * 1024, 1024, 64 * 1024 * 1024),
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000, 1, 3_600_000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 1, 3_600_000),
    auth: Object.freeze(auth),
    ...(rateLimit ? { rateLimit: Object.freeze(rateLimit) } : {}),
    trustProxy: Object.freeze(trustProxy(env)),
    maxHeaderBytes: integer(env, 'MAX_HEADER_BYTES', 16 * 1024, 1024, 1024 * 1024),
    maxEventLoopDelayMs: integer(env, 'OVERLOAD_MAX_EVENT_LOOP_DELAY_MS', 1000, 0, 60_000),
    requestBudgetMs: integer(env, 'REQUEST_BUDGET_MS', 5_000, 10, 600_000),
    idempotencyTtlMs: integer(env, 'IDEMPOTENCY_TTL_S', 86_400, 1, 30 * 86_400) * 1000,
    delayAfterWriteMs: integer(env, 'TEST_DELAY_AFTER_WRITE_MS', 0, 0, 60_000),
    events: Object.freeze(eventsConfig(env)),
    compression: oneOf(env, 'COMPRESSION', ['on', 'off'] as const, 'on') === 'on',
    ...(cors ? { cors } : {}),
    ...(publicUrl ? { publicUrl } : {}),
    ...(backup ? { backup: Object.freeze(backup) } : {}),
    backupStepDelayMs: integer(env, 'TEST_BACKUP_STEP_DELAY_MS', 0, 0, 600_000),
  });
}
