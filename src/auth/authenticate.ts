/**
 * Authentication (CONTRACT §8) of `/users…` requests. It runs first, before the
 * body is read and before any lookup, so a 401 or 403 never depends on whether a
 * user exists. The service routes (/healthz, /readyz, /openapi.json, /docs) and
 * paths outside /users are public. The token is taken only from the Authorization
 * header, never from the query string.
 */
import type { FastifyRequest } from 'fastify';
import type { AuthConfig } from '../config.js';
import { ProblemError } from '../problems.js';
import { createApiKeyVerifier } from './api-key-verifier.js';
import { requiredScope, type Credential, type TokenVerifier } from './credential.js';
import { createJwtVerifier } from './jwt-verifier.js';

const REALM = 'Bearer realm="user-service"';

/** RFC 6750 §2.1: `Authorization: Bearer <token>`; the scheme is case-insensitive. */
function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i);
  return match?.[1];
}

/** Every path under /users, routed or not: an unknown method or sub-path there is refused before it is answered. */
function isProtected(request: FastifyRequest): boolean {
  return request.url === '/users' || request.url.startsWith('/users/') || request.url.startsWith('/users?');
}

/**
 * Sets `request.credential` for a verified token (even one lacking the scope, so
 * the audit trail and the rate limiter can name it) and returns the 401/403
 * problem to answer with, if any. The caller decides when to throw it. The
 * answer is a promise only when the verifier has to wait (JWT with a remote key set).
 */
export type Authenticator = (request: FastifyRequest) => Refusal | Promise<Refusal>;
type Refusal = ProblemError | undefined;

function verifierFor(auth: AuthConfig): TokenVerifier | undefined {
  if (auth.mode === 'api-key') return createApiKeyVerifier(auth.keys);
  if (auth.mode === 'jwt') return createJwtVerifier(auth);
  return undefined;
}

/** The outcome for a request that sent `token` (undefined: none) verified as `credential`. */
function decide(request: FastifyRequest, token: string | undefined, credential: Credential | undefined): Refusal {
  if (!credential) {
    // RFC 6750 §3: no error code when no credentials were sent; invalid_token otherwise.
    const challenge = token === undefined ? REALM : `${REALM}, error="invalid_token"`;
    return new ProblemError('unauthorized', 'Send a valid bearer token in the Authorization header.', {}, { 'www-authenticate': challenge });
  }
  request.credential = credential;
  const scope = requiredScope(request.method);
  if (!credential.scopes.has(scope)) {
    const challenge = `${REALM}, error="insufficient_scope", scope="${scope}"`;
    return new ProblemError('forbidden', `This request needs the scope ${scope}.`, {}, { 'www-authenticate': challenge });
  }
  return undefined;
}

/** `undefined` with AUTH_MODE=none: every request is let through. */
export function createAuthenticator(auth: AuthConfig): Authenticator | undefined {
  const verify = verifierFor(auth);
  if (!verify) return undefined;
  return (request) => {
    if (!isProtected(request)) return undefined;
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) return decide(request, token, undefined);
    const credential = verify(token);
    return credential instanceof Promise ? credential.then((verified) => decide(request, token, verified)) : decide(request, token, credential);
  };
}
