/**
 * The fields the console shows and edits, and the merge patch (RFC 7396) an
 * edit becomes: only what the operator changed, `null` for a field emptied.
 */
import type { User } from './user-names.js';

export interface EditableField {
  /** The field's path: `title`, or `name.given_name` for a name part. */
  path: string;
  label: string;
  /** Whether the field may be removed (emptied): the keys may not. */
  nullable: boolean;
}

export const EDITABLE: readonly EditableField[] = [
  { path: 'username', label: 'Username', nullable: false },
  { path: 'email_address', label: 'Email address', nullable: false },
  { path: 'display_name', label: 'Display name', nullable: true },
  { path: 'name.given_name', label: 'Given name', nullable: true },
  { path: 'name.family_name', label: 'Family name', nullable: true },
  { path: 'title', label: 'Title', nullable: true },
  { path: 'department', label: 'Department', nullable: true },
  { path: 'organization', label: 'Organization', nullable: true },
  { path: 'division', label: 'Division', nullable: true },
  { path: 'cost_center', label: 'Cost center', nullable: true },
  { path: 'employee_number', label: 'Employee number', nullable: true },
  { path: 'user_type', label: 'User type', nullable: true },
  { path: 'nick_name', label: 'Nickname', nullable: true },
  { path: 'preferred_language', label: 'Preferred language', nullable: true },
  { path: 'locale', label: 'Locale', nullable: true },
  { path: 'timezone', label: 'Time zone', nullable: true },
  { path: 'external_id', label: 'External id', nullable: true },
];

export type Patch = Record<string, unknown>;

/** The value at `path` as the edit form shows it ('' when absent). */
export function valueAt(user: User, path: string): string {
  let value: unknown = user;
  for (const part of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  return typeof value === 'string' ? value : '';
}

/** Sets `path` in a merge patch (name parts go into a nested `name` object, which a merge patch merges). */
export function setIn(patch: Patch, path: string, value: string | null): void {
  const [head, tail] = path.split('.') as [string, string | undefined];
  if (tail === undefined) {
    patch[head] = value;
    return;
  }
  const nested = (patch[head] ??= {}) as Patch;
  nested[tail] = value;
}

/** The merge patch turning `user` into what the form says: only the changed fields. */
export function patchOf(user: User, edited: ReadonlyMap<string, string>): Patch {
  const patch: Patch = {};
  for (const field of EDITABLE) {
    const value = edited.get(field.path);
    if (value === undefined || value === valueAt(user, field.path)) continue;
    setIn(patch, field.path, value === '' && field.nullable ? null : value);
  }
  return patch;
}

const isObject = (value: unknown): value is Patch => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * One merge patch doing what `first` then `second` do (RFC 7396): objects in both are
 * merged member by member, so `{"name": {"formatted": …}}` keeps a given name edited in
 * the form; elsewhere `second` wins.
 */
export function mergePatches(first: Patch, second: Patch): Patch {
  const merged: Patch = { ...first };
  for (const [key, value] of Object.entries(second)) {
    const next = isObject(merged[key]) && isObject(value) ? mergePatches(merged[key] as Patch, value) : value;
    // Defined, not assigned: a member named `__proto__` stays a member (and the service answers it).
    Object.defineProperty(merged, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return merged;
}

/** The changes a patch makes, field by field, for the conflict view: [label, the operator's value]. */
export function changesOf(patch: Patch): [string, string][] {
  const out: [string, string][] = [];
  for (const field of EDITABLE) {
    const [head, tail] = field.path.split('.') as [string, string | undefined];
    const holder = tail === undefined ? patch : (patch[head] as Patch | undefined);
    const key = tail ?? head;
    if (holder && key in holder) out.push([field.path, holder[key] === null ? '' : String(holder[key])]);
  }
  for (const key of Object.keys(patch)) if (!EDITABLE.some((f) => f.path.split('.')[0] === key)) out.push([key, JSON.stringify(patch[key])]);
  return out;
}

/** A field's value for display: text as it is, anything else as JSON. */
export function display(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
