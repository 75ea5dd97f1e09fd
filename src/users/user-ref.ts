/**
 * The path segment after `/users/` (seed §4, CONTRACT §3): a uid, or `{key}:{value}`.
 * The router has percent-decoded it exactly once; here it is split at its first
 * colon, so a value may hold further colons (`legacy_id:crm:77`). A uid never
 * contains a colon, so the two forms cannot be confused.
 */
import { ProblemError } from '../http/problems.js';
import { LOOKUP_KEYS, comparedValue, isUid, type LookupKey } from './user.js';

export type UserRef = { kind: 'uid'; uid: string } | { kind: 'key'; key: LookupKey; value: string };

export function isKeyRef(segment: string): boolean {
  return segment.includes(':');
}

/** Parses a decoded segment; throws the 400 problems of CONTRACT §3. */
export function parseUserRef(segment: string): UserRef {
  if (segment.includes('\u0000')) throw new ProblemError('malformed-request', 'The path must not contain U+0000.');
  const colon = segment.indexOf(':');
  if (colon === -1) return { kind: 'uid', uid: segment.toLowerCase() };
  const key = segment.slice(0, colon);
  const value = segment.slice(colon + 1);
  if (!(LOOKUP_KEYS as readonly string[]).includes(key)) {
    throw new ProblemError('invalid-lookup-key', `Unknown lookup key; use one of: ${LOOKUP_KEYS.join(', ')}.`, {
      errors: [{ parameter: 'key', detail: `must be one of ${LOOKUP_KEYS.join(', ')}` }],
    });
  }
  if (value === '') throw new ProblemError('malformed-request', 'The lookup value is empty.');
  return { kind: 'key', key: key as LookupKey, value: comparedValue(key as LookupKey, value) };
}

/**
 * The decoded segment as logs may show it: a uid as it is (it names no person),
 * a lookup as its key name (`email_address:…`), anything else as `…`. A key name
 * that is not one of the lookup keys could itself be an address, so it is not shown.
 */
export function loggableRef(segment: string): string {
  const colon = segment.indexOf(':');
  if (colon === -1) return isUid(segment.toLowerCase()) ? segment.toLowerCase() : '…';
  const key = segment.slice(0, colon);
  return (LOOKUP_KEYS as readonly string[]).includes(key) ? `${key}:…` : '…:…';
}
