/**
 * Authentication (CONTRACT §8) of a request to a route that needs a scope. The
 * route decides whether a credential is needed and which scope (route-access.ts);
 * nothing here looks at the URL. It runs before the body is read and before any
 * lookup, so a 401 or 403 never depends on whether a user exists. The token is
 * taken only from the Authorization header (one of them: admission refuses two),
 * never from the query string.
 */
import type { FastifyRequest } from 'fastify';
import type { AuthConfig, Scope } from '../config.js';
import { ProblemError } from '../http/problems.js';
import { createApiKeyVerifier } from './api-key-verifier.js';
import type { Credential, TokenVerifier } from './credential.js';
import { createJwtVerifier } from './jwt-verifier.js';
import { rememberVerified } from './verified-tokens.js';

const REALM = 'Bearer realm="user-service"';

/** RFC 6750 §2.1: `Authorization: Bearer <token>`; the scheme is case-insensitive. */
function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i);
  return match?.[1];
}

/**
 * Sets `request.credential` for a verified token (even one lacking the scope, so
 * the audit trail and the rate limiter can name it) and returns the 401/403
 * problem to answer with, if any. The caller decides when to throw it. The
 * answer is a promise only when the verifier has to wait (JWT with a remote key set).
 */
export type Authenticator = (request: FastifyRequest, scope: Scope | undefined) => Refusal | Promise<Refusal>;
type Refusal = ProblemError | undefined;

/** The verifier of the configured mode, behind the cache of verified tokens (verified-tokens.ts). */
function verifierFor(auth: AuthConfig): TokenVerifier | undefined {
  if (auth.mode === 'api-key') return rememberVerified(createApiKeyVerifier(auth.keys));
  if (auth.mode === 'jwt') return rememberVerified(createJwtVerifier(auth));
  return undefined;
}

/** The outcome for a request that sent `token` (undefined: none) verified as `credential`; no scope: any valid credential passes. */
function decide(request: FastifyRequest, scope: Scope | undefined, token: string | undefined, credential: Credential | undefined): Refusal {
  if (!credential) {
    // RFC 6750 §3: no error code when no credentials were sent; invalid_token otherwise.
    const challenge = token === undefined ? REALM : `${REALM}, error="invalid_token"`;
    return new ProblemError('unauthorized', 'Send a valid bearer token in the Authorization header.', {}, { 'www-authenticate': challenge });
  }
  request.credential = credential;
  if (scope !== undefined && !credential.scopes.has(scope)) {
    const challenge = `${REALM}, error="insufficient_scope", scope="${scope}"`;
    return new ProblemError('forbidden', `This request needs the scope ${scope}.`, {}, { 'www-authenticate': challenge });
  }
  return undefined;
}

/** `undefined` with AUTH_MODE=none: no route asks for a credential. */
export function createAuthenticator(auth: AuthConfig): Authenticator | undefined {
  const verify = verifierFor(auth);
  if (!verify) return undefined;
  return (request, scope) => {
    const header = request.headers.authorization;
    const token = bearerToken(header);
    // A header that is present but not a bearer token is an invalid credential, not a missing one.
    if (token === undefined) return decide(request, scope, header, undefined);
    const credential = verify(token);
    return credential instanceof Promise ? credential.then((verified) => decide(request, scope, token, verified)) : decide(request, scope, token, credential);
  };
}
