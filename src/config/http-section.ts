/**
 * The HTTP server's section of the configuration (where it listens, how long and how large a
 * request may be, which proxies are believed, the public URL) and the sections of the two
 * response rooms that have settings of their own: CORS (CORS_ORIGINS) and compression (COMPRESSION).
 */
import { isIP } from 'node:net';
import { CorsOriginsError, parseCorsOrigins, type CorsOrigins } from '../http/cors-origins.js';
import { parsePublicUrl, PublicUrlError } from '../http/public-url.js';
import type { AuthConfig } from './auth-section.js';
import { ConfigError, integer, oneOf, type Env } from './read-env.js';

export interface HttpSection {
  host: string;
  port: number;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** Whole-request deadline, header deadline and idle keep-alive, in ms. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How long a graceful stop waits for requests in flight before exiting anyway, in ms. */
  shutdownTimeoutMs: number;
  /** Proxies whose X-Forwarded-For is believed (addresses, CIDRs or proxy-addr names); none by default. */
  trustProxy: readonly string[];
  /** Largest request head (request line and headers), in bytes; beyond it a 431. */
  maxHeaderBytes: number;
  /** PUBLIC_URL without a trailing slash (http/public-url.ts); answers name root-relative URLs when undefined. */
  publicUrl?: string;
}

export interface CorsSection {
  /** Origins whose pages may call the service (CORS_ORIGINS); CORS is off when undefined. */
  cors?: CorsOrigins;
}

export interface CompressionSection {
  /**
   * Whether responses are compressed (COMPRESSION, on by default; http/compression.ts). Off
   * behind a proxy that compresses, and to measure what compression costs.
   */
  compression: boolean;
}

export function corsConfig(env: Env, auth: AuthConfig): CorsOrigins | undefined {
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

export function publicUrlConfig(env: Env): string | undefined {
  try {
    return parsePublicUrl(env.PUBLIC_URL);
  } catch (error) {
    if (error instanceof PublicUrlError) throw new ConfigError('PUBLIC_URL', error.message);
    throw error;
  }
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

export function trustProxy(env: Env): string[] {
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


/** The request timeouts, read together: the header deadline may not exceed the whole request's. */
export function requestTimeouts(env: Env): Pick<HttpSection, 'requestTimeoutMs' | 'headersTimeoutMs'> {
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1, 3_600_000);
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 1, 3_600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError('HEADERS_TIMEOUT_MS', `must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  }
  return { requestTimeoutMs, headersTimeoutMs };
}

export function compressionSection(env: Env): CompressionSection {
  return { compression: oneOf(env, 'COMPRESSION', ['on', 'off'] as const, 'on') === 'on' };
}
