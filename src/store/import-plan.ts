/**
 * What an import does with one record, decided from who already holds its keys.
 * Shared by every store, so the stores only look up holders and write.
 *
 * - No key (nor the uid) is held: create the user.
 * - `skip` / `fail`: any key held is a conflict naming it.
 * - `update`: if every held key belongs to one existing user, that user is
 *   replaced by the record (unless it is already equal: then nothing is written,
 *   so re-running an import changes nothing); keys held by two users are a conflict.
 */
import { sameFields, type UniqueKey, type User } from '../users/user.js';

export type OnConflict = 'skip' | 'fail' | 'update';

export type ImportOutcome =
  | { status: 'created'; uid: string }
  | { status: 'updated'; uid: string }
  | { status: 'unchanged'; uid: string }
  | { status: 'conflict'; key: UniqueKey | 'uid' };

/** The first step, from the holders alone; `update-holder` still needs the holder read. */
export type ImportPlan = { action: 'create' } | { action: 'conflict'; key: UniqueKey | 'uid' } | { action: 'update-holder'; uid: string };

export interface Holder {
  key: UniqueKey | 'uid';
  uid: string;
}

/** Writable fields and identity of two users are the same (timestamps and version aside). */
export function sameContent(a: User, b: User): boolean {
  return a.uid === b.uid && sameFields(a, b);
}

/** `holders` in key order (uid, username, email_address, legacy ids). */
export function planImport(holders: Holder[], onConflict: OnConflict): ImportPlan {
  const first = holders[0];
  if (first === undefined) return { action: 'create' };
  if (onConflict !== 'update') return { action: 'conflict', key: first.key };
  const other = holders.find((h) => h.uid !== first.uid);
  return other === undefined ? { action: 'update-holder', uid: first.uid } : { action: 'conflict', key: other.key };
}

/** The user an update writes (uid and created_at kept, version +1), or undefined when nothing would change. */
export function updatedUser(record: User, existing: User, now: string): User | undefined {
  const next: User = { ...record, uid: existing.uid, created_at: existing.created_at, updated_at: now, version: existing.version + 1 };
  return sameContent(next, existing) ? undefined : next;
}
