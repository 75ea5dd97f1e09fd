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
  /** The OAuth client a token was issued to (`azp`, else `client_id`), when it differs from `id`; none for an API key. */
  client?: string;
  /** When it stops being valid, in ms since the epoch (a JWT's `exp`); none for an API key. */
  expiresAt?: number;
}

/**
 * Verifies a bearer token: undefined for anything not acceptable; a promise only
 * when verification has to wait (a JWKS fetch).
 */
export type TokenVerifier = (token: string) => Credential | undefined | Promise<Credential | undefined>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authentication step on routes that need a scope (route-access.ts). */
    credential?: Credential;
  }
}
