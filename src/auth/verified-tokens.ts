/**
 * Verified bearer tokens, remembered for their lifetime: a client sends the same
 * token with every request, and verifying it (a SHA-256 and a compare with every
 * API key; a signature check for a JWT) is per-request work a read need not repeat.
 *
 * What keeps it safe:
 * - only tokens that verified are kept; a refused one is verified again each time,
 *   so garbage tokens cannot fill the cache;
 * - an entry lives until the credential expires (a JWT's `exp`) and never longer
 *   than MAX_AGE_MS, so a change the verifier would notice (a key removed from the
 *   JWKS) takes effect within that time, as the key set's own cache already allows;
 * - at most MAX_ENTRIES tokens (services, not end users, call this API); the
 *   oldest is forgotten first;
 * - the lookup compares whole strings in a hash map, so its timing depends on a
 *   token that already verified, never on how much of a guess matched a secret.
 */
import type { Credential, TokenVerifier } from './credential.js';

export const MAX_AGE_MS = 60_000;
export const MAX_ENTRIES = 1000;

interface Entry {
  credential: Credential;
  /** ms since the epoch after which the entry is not used. */
  until: number;
}

export function rememberVerified(verify: TokenVerifier, now: () => number = Date.now): TokenVerifier {
  const verified = new Map<string, Entry>();

  const remember = (token: string, credential: Credential | undefined): Credential | undefined => {
    if (credential === undefined) return undefined;
    const at = now();
    const until = Math.min(at + MAX_AGE_MS, credential.expiresAt ?? Infinity);
    if (until <= at) return credential;
    if (verified.size >= MAX_ENTRIES) verified.delete(verified.keys().next().value as string);
    verified.set(token, { credential, until });
    return credential;
  };

  return (token) => {
    const entry = verified.get(token);
    if (entry !== undefined) {
      if (entry.until > now()) return entry.credential;
      verified.delete(token);
    }
    const credential = verify(token);
    return credential instanceof Promise ? credential.then((c) => remember(token, c)) : remember(token, credential);
  };
}
