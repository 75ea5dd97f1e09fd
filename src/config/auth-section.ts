/**
 * Authentication's section of the configuration (AUTH_MODE and its keys or tokens) and the
 * rate limit's (RATE_LIMIT_MAX, RATE_LIMIT_WINDOW_S, REDIS_URL): the access rooms read these.
 */
import { bool, ConfigError, integer, isLoopback, oneOf, readJsonFile, required, type Env } from './read-env.js';

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

const JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

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

export function authConfig(env: Env, host: string): AuthConfig {
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

export function rateLimitConfig(env: Env): RateLimitConfig | undefined {
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

export interface AuthSection {
  auth: AuthConfig;
  /** Off when undefined. */
  rateLimit?: RateLimitConfig;
}
