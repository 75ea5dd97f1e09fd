/**
 * Entity tags of a user (RFC 9110 §8.8.3): strong, quoted and opaque. The tag
 * covers the uid and the version, so it changes on every write and differs
 * between a deleted user and a new one that later takes the same username.
 */
import { createHash } from 'node:crypto';
import type { User } from './user.js';

export function etagOf(user: Pick<User, 'uid' | 'version'>): string {
  const digest = createHash('sha256').update(`${user.uid}/${user.version}`).digest('base64url').slice(0, 22);
  return `"${digest}"`;
}
