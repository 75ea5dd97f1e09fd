/**
 * Who is calling, as the rest of the service sees it: an id for logs, audit and
 * rate limits, and the scopes it holds. A verifier turns a bearer token into a
 * Credential or refuses it; it never says why to the client.
 */
import type { Scope } from '../config.js';

export interface Credential {
  /** The API key's id, or the token's subject. Never the secret itself. */
  id: string;
  scopes: ReadonlySet<Scope>;
}

/**
 * Verifies a bearer token: undefined for anything not acceptable; a promise only
 * when verification has to wait (a JWKS fetch).
 */
export type TokenVerifier = (token: string) => Credential | undefined | Promise<Credential | undefined>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authentication hook on routes that need it. */
    credential?: Credential;
  }
}

/** CONTRACT §8: `users:read` for GET and HEAD (and OPTIONS), `users:write` for every other method. */
export function requiredScope(method: string): Scope {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 'users:read' : 'users:write';
}
