/**
 * What an import does with one record, decided from who already holds its keys.
 * Shared by every store, so the stores only look up holders and write.
 *
 * - No key (nor the uid) is held: create the user.
 * - `skip` / `fail`: any key held is a conflict naming it.
 * - `merge` / `replace`: if every held key belongs to one existing user, that
 *   user is updated by the record (unless the result equals it: then nothing is
 *   written, so re-running an import changes nothing); keys held by two users
 *   are a conflict. `merge` applies only the members the record carried, as a
 *   JSON Merge Patch (the REST PATCH's own code, user-patch.ts), so a file with
 *   fewer columns never clears the others; `replace` makes the user the record,
 *   every member it lacks at its default, and names the fields that cleared.
 */
import { ProblemError, type ProblemItem } from '../http/problems.js';
import { fieldsOf, sameFields, WRITABLE_KEYS, type UniqueKey, type User, type UserFields } from '../users/user.js';
import { patchedFields } from '../users/user-patch.js';
import type { UserPatch } from '../users/user-schemas.js';

export type OnConflict = 'skip' | 'fail' | 'merge' | 'replace';

/**
 * One record of an import: the user it creates when none of its keys is held
 * (every member it lacks at its default), and for `merge` the writable members it
 * carried, as a merge patch of the user that holds its keys.
 */
export interface ImportUser extends User {
  readonly given?: UserPatch;
}

export type ImportOutcome =
  | { status: 'created'; uid: string }
  /** `cleared`: with `replace`, the writable fields that had a value and now hold their default. */
  | { status: 'updated'; uid: string; cleared?: string[] }
  | { status: 'unchanged'; uid: string }
  | { status: 'conflict'; key: UniqueKey | 'uid' }
  /** With `merge`: the user as patched by the record is not a valid user (the reason a PATCH's 400 would give). */
  | { status: 'invalid'; uid: string; reason: string; errors?: ProblemItem[] };

/** The first step, from the holders alone; `update-holder` still needs the holder read. */
export type ImportPlan = { action: 'create' } | { action: 'conflict'; key: UniqueKey | 'uid' } | { action: 'update-holder'; uid: string };

export interface Holder {
  key: UniqueKey | 'uid';
  uid: string;
}

/** `holders` in key order (uid, username, email_address, legacy ids). */
export function planImport(holders: Holder[], onConflict: OnConflict): ImportPlan {
  const first = holders[0];
  if (first === undefined) return { action: 'create' };
  if (onConflict === 'skip' || onConflict === 'fail') return { action: 'conflict', key: first.key };
  const other = holders.find((h) => h.uid !== first.uid);
  return other === undefined ? { action: 'update-holder', uid: first.uid } : { action: 'conflict', key: other.key };
}

/** What a record does to the user holding its keys: the user written, nothing (already equal), or a merge whose result is invalid. */
export type ImportUpdate = { next: User; cleared?: string[] } | { next: undefined } | { invalid: { reason: string; errors?: ProblemItem[] } };

/** The update of `existing` by `record` (uid and created_at kept, version +1): a merge with `merge`, else a replacement. */
export function updatedUser(record: ImportUser, existing: User, now: string, onConflict: OnConflict): ImportUpdate {
  let fields: UserFields | undefined;
  if (onConflict === 'merge') {
    try {
      // The record's members passed the user schema when it was read (import-records.ts).
      fields = patchedFields(existing, record.given ?? fieldsOf(record), true);
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      return { invalid: { reason: error.detail, ...(error.extras.errors ? { errors: error.extras.errors } : {}) } };
    }
    if (fields === undefined) return { next: undefined };
  } else {
    fields = fieldsOf(record);
    if (sameFields(fields, existing)) return { next: undefined };
  }
  const next: User = { uid: existing.uid, ...fields, created_at: existing.created_at, updated_at: now, version: existing.version + 1 };
  const cleared = onConflict === 'merge' || record.given === undefined ? [] : clearedFields(existing, next, record.given);
  return cleared.length > 0 ? { next, cleared } : { next };
}

/** The writable fields a replacement reset: those the record did not carry whose value it changed (to their default, `active` back to true included). */
export function clearedFields(before: UserFields, after: UserFields, given: UserPatch): string[] {
  return WRITABLE_KEYS.filter((key) => !Object.hasOwn(given, key) && JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

/** The ImportOutcome of an update planned by updatedUser(). */
export function updateOutcome(uid: string, update: ImportUpdate): ImportOutcome {
  if ('invalid' in update) return { status: 'invalid', uid, ...update.invalid };
  if (update.next === undefined) return { status: 'unchanged', uid };
  return update.cleared ? { status: 'updated', uid, cleared: update.cleared } : { status: 'updated', uid };
}
