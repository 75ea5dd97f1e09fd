/**
 * AUTH_MODE=jwt: OIDC bearer tokens verified with jose. The key set comes only
 * from configuration (a JWKS URL or file), never from the token's header (no
 * `jku`, `x5u` or embedded `jwk`); algorithms are an allow-list of asymmetric
 * ones, so `alg: none` and HS256-signed-with-the-public-key are refused.
 * Checked: signature, `exp` (required), `nbf`, `iss`, `aud`, with a small clock tolerance.
 *
 * A token the service cannot judge because the key set cannot be had (the JWKS
 * URL refuses, times out, answers an HTTP error or something that is not a key
 * set) is a 503 `authentication-unavailable`: the outage is the service's, not
 * the caller's. Only faults of the token itself are a 401.
 */
import { hash } from 'node:crypto';
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { SCOPES, type AuthConfig, type Scope } from '../config.js';
import { ProblemError } from '../http/problems.js';
import type { Credential, TokenVerifier } from './credential.js';

type JwtConfig = Extract<AuthConfig, { mode: 'jwt' }>;
type KeyResolver = ReturnType<typeof createLocalJWKSet>;

/** Scopes from `scope` (space-separated, RFC 8693) or `scp` (a list or a string, as Entra ID and Okta send). */
function scopesOf(payload: JWTPayload): Set<Scope> {
  const raw = payload.scope ?? payload.scp;
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(' ') : [];
  return new Set(list.filter((s): s is Scope => (SCOPES as readonly unknown[]).includes(s)));
}

/** Raised by the key resolver when the key set itself cannot be had. */
class KeySetUnavailable extends Error {}

/** What the key resolver may fail with because of the token: its `kid` or `alg` matches no usable key. */
const TOKEN_FAULTS = new Set(['ERR_JWKS_NO_MATCHING_KEY', 'ERR_JWKS_MULTIPLE_MATCHING_KEYS', 'ERR_JOSE_NOT_SUPPORTED']);

/**
 * After a failed fetch, the key set is not fetched again for this long. jose's own
 * cooldown only follows a successful fetch, so without this every token with an
 * unknown `kid` would make one request to a failing identity provider.
 */
export const KEY_SET_RETRY_MS = 1000;

const isTokenFault = (error: unknown) => TOKEN_FAULTS.has((error as { code?: string }).code ?? '');

/**
 * The remote key set. When it cannot be fetched, the keys last fetched still
 * verify the tokens they signed; a token they cannot verify is a KeySetUnavailable
 * (the service cannot tell whether it is good), never a 401.
 */
function remoteKeys(url: string): KeyResolver {
  const remote = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
  let failedAt = -Infinity;
  /** Verifies with the keys last fetched; `cause` is the failure that sent us here (logged once, not per request). */
  const lastKnown = async (args: Parameters<KeyResolver>, cause?: unknown) => {
    const jwks = remote.jwks();
    try {
      if (jwks === undefined) throw new KeySetUnavailable('no key set has been fetched yet');
      return await createLocalJWKSet(jwks)(...args);
    } catch (error) {
      if (error instanceof KeySetUnavailable || isTokenFault(error)) throw new KeySetUnavailable('the JSON Web Key Set cannot be fetched', cause === undefined ? {} : { cause });
      throw error;
    }
  };
  const resolve = async (...args: Parameters<KeyResolver>) => {
    if (Date.now() - failedAt < KEY_SET_RETRY_MS) return lastKnown(args);
    try {
      return await remote(...args);
    } catch (error) {
      if (isTokenFault(error)) throw error;
      failedAt = Date.now();
      return lastKnown(args, error);
    }
  };
  return resolve as KeyResolver;
}

/**
 * Who the token names, for audit lines and rate limits: `sub`, else `client_id`,
 * else `azp` (string claims only). Some providers use an email address as the
 * subject: logs must not hold one, so such an id is replaced by a stable pseudonym.
 */
function credentialId(payload: JWTPayload): string {
  const id = [payload.sub, payload.client_id, payload.azp].find((claim): claim is string => typeof claim === 'string' && claim !== '');
  if (id === undefined) return 'unknown';
  return id.includes('@') ? `sha256:${hash('sha256', id, 'hex').slice(0, 16)}` : id;
}

/** The OAuth client the token was issued to (`azp`, else `client_id`), unless it is the credential's id already. */
function clientOf(payload: JWTPayload, id: string): string | undefined {
  const client = [payload.azp, payload.client_id].find((claim): claim is string => typeof claim === 'string' && claim !== '');
  return client === undefined || client === id ? undefined : client;
}

export function createJwtVerifier(config: JwtConfig): TokenVerifier {
  const keys = 'url' in config.jwks ? remoteKeys(config.jwks.url) : createLocalJWKSet(config.jwks.keys as unknown as Parameters<typeof createLocalJWKSet>[0]);
  const options = {
    issuer: config.issuer,
    audience: config.audience,
    algorithms: [...config.algorithms],
    clockTolerance: config.clockToleranceS,
    requiredClaims: ['exp'],
  };
  return async (token): Promise<Credential | undefined> => {
    try {
      const { payload } = await jwtVerify(token, keys, options);
      // `exp` is required, so always present here.
      const id = credentialId(payload);
      const client = clientOf(payload, id);
      return { id, scopes: scopesOf(payload), expiresAt: (payload.exp as number) * 1000, ...(client === undefined ? {} : { client }) };
    } catch (error) {
      if (error instanceof KeySetUnavailable) {
        const retryAfter = String(Math.ceil(KEY_SET_RETRY_MS / 1000));
        throw new ProblemError('authentication-unavailable', 'The signing keys cannot be fetched; retry shortly.', {}, { 'retry-after': retryAfter }, { cause: error.cause });
      }
      return undefined;
    }
  };
}
