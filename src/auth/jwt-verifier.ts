/**
 * AUTH_MODE=jwt: OIDC bearer tokens verified with jose. The key set comes only
 * from configuration (a JWKS URL or file), never from the token's header (no
 * `jku`, `x5u` or embedded `jwk`); algorithms are an allow-list of asymmetric
 * ones, so `alg: none` and HS256-signed-with-the-public-key are refused.
 * Checked: signature, `exp` (required), `nbf`, `iss`, `aud`, with a small clock tolerance.
 */
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { SCOPES, type AuthConfig, type Scope } from '../config.js';
import { ProblemError } from '../problems.js';
import type { Credential, TokenVerifier } from './credential.js';

type JwtConfig = Extract<AuthConfig, { mode: 'jwt' }>;

/** Scopes from `scope` (space-separated, RFC 8693) or `scp` (a list or a string, as Entra ID and Okta send). */
function scopesOf(payload: JWTPayload): Set<Scope> {
  const raw = payload.scope ?? payload.scp;
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(' ') : [];
  return new Set(list.filter((s): s is Scope => (SCOPES as readonly unknown[]).includes(s)));
}

export function createJwtVerifier(config: JwtConfig): TokenVerifier {
  const keys =
    'url' in config.jwks
      ? createRemoteJWKSet(new URL(config.jwks.url), { timeoutDuration: 5000, cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 })
      : createLocalJWKSet(config.jwks.keys as unknown as Parameters<typeof createLocalJWKSet>[0]);
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
      const id = typeof payload.sub === 'string' && payload.sub !== '' ? payload.sub : String(payload.client_id ?? payload.azp ?? 'unknown');
      return { id, scopes: scopesOf(payload) };
    } catch (error) {
      // A key set that cannot be fetched is our outage, not the caller's fault.
      const code = (error as { code?: string }).code;
      if (code === 'ERR_JWKS_TIMEOUT' || (error instanceof TypeError && 'url' in config.jwks)) {
        throw new ProblemError('authentication-unavailable', 'The signing keys cannot be fetched; retry shortly.', {}, { 'retry-after': '5' });
      }
      return undefined;
    }
  };
}
