/**
 * AUTH_MODE=api-key: the bearer token is an API key; the configuration holds only
 * the SHA-256 of each key. The token's hash is compared with every entry in
 * constant time, so neither the match nor its position leaks through timing.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import type { ApiKeyEntry } from '../config.js';
import type { Credential, TokenVerifier } from './credential.js';

export function createApiKeyVerifier(entries: readonly ApiKeyEntry[]): TokenVerifier {
  const known = entries.map((entry) => ({
    hash: Buffer.from(entry.sha256, 'hex'),
    credential: { id: entry.id, scopes: new Set(entry.scopes) } satisfies Credential,
  }));
  return (token) => {
    const digest = hash('sha256', token, 'buffer');
    let found: Credential | undefined;
    for (const entry of known) {
      // Every entry is compared, whatever matched before.
      if (timingSafeEqual(digest, entry.hash)) found = entry.credential;
    }
    return found;
  };
}
