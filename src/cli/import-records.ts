/**
 * From one parsed record of an import file to a User, by the same rules as the
 * API: the same schema (plus the read-only fields an export carries), the same
 * validator settings and formats, the same domain checks. A refused record gets
 * the reason and the JSON pointers a 400 would carry.
 */
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { bodyValidationItems, describe, type AjvError } from '../http/problem-handler.js';
import { ProblemError, type ProblemItem } from '../http/problems.js';
import { createUidGenerator } from '../users/new-uid.js';
import { isUid } from '../users/user.js';
import { findUnstorableValue, toUserFields } from '../users/user-input.js';
import { ImportUserRecord, UserPatch } from '../users/user-schemas.js';
import type { ImportUser } from '../store/import-plan.js';
import { AJV_OPTIONS } from '../validation-options.js';

export type RecordResult = { ok: true; user: ImportUser } | { ok: false; reason: string; errors?: ProblemItem[] };

/** Members of a record that are not written to an existing user: an export's read-only fields. */
const READ_ONLY = new Set(['uid', 'created_at', 'updated_at', 'version']);

/** The writable members a record carried, as a merge patch (`legacy_id` as the one-entry list it stands for). */
function givenMembers(record: ImportUserRecord): UserPatch {
  const given: Record<string, unknown> = {};
  for (const [member, value] of Object.entries(record)) {
    if (READ_ONLY.has(member)) continue;
    if (member === 'legacy_id') given.legacy_ids = [value];
    else given[member] = value;
  }
  return given as UserPatch;
}

/** Members whose objects a merge patch merges member by member, so a null inside them removes that member. */
const MERGED_OBJECTS = ['name', 'manager'];

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whether the record holds a null at its top level or inside name or manager. */
function withNulls(record: Record<string, unknown>): boolean {
  return Object.entries(record).some(([member, value]) => value === null || (MERGED_OBJECTS.includes(member) && isPlainObject(value) && Object.values(value).includes(null)));
}

/** The record with those nulls left out (each then takes its default), as a create reads it. */
function withoutNulls(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [member, value] of Object.entries(record)) {
    if (value === null) continue;
    if (MERGED_OBJECTS.includes(member) && isPlainObject(value)) {
      const kept = Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== null));
      if (Object.keys(kept).length > 0) out[member] = kept;
    } else out[member] = value;
  }
  return out;
}

// ajv-formats is CommonJS: its function is the default export's default under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export function createRecordChecker(now: () => string): (record: unknown) => RecordResult {
  const newUid = createUidGenerator();
  const ajv = new Ajv({ ...AJV_OPTIONS, strict: false });
  addFormats(ajv);
  for (const [name, check] of Object.entries(AJV_OPTIONS.formats)) ajv.addFormat(name, check);
  const validate = ajv.compile(ImportUserRecord);
  const validatePatch = ajv.compile(UserPatch);
  const refused = (errors: unknown): RecordResult => {
    const items = bodyValidationItems((errors ?? []) as unknown as AjvError[]);
    return { ok: false, reason: describe(items), errors: items };
  };
  return (record) => {
    if (record === null || typeof record !== 'object' || Array.isArray(record)) return { ok: false, reason: 'the record is not a JSON object' };
    const unstorable = findUnstorableValue(record);
    if (unstorable) return { ok: false, reason: `${unstorable.pointer} ${unstorable.detail}`, errors: [unstorable] };
    // A null is a merge patch's "remove": accepted wherever PATCH accepts one, and a default for a create.
    const nulls = withNulls(record as Record<string, unknown>);
    if (nulls && !validatePatch(givenMembers(record as ImportUserRecord))) return refused(validatePatch.errors);
    const checked = nulls ? withoutNulls(record as Record<string, unknown>) : record;
    if (!validate(checked)) return refused(validate.errors);
    const input = checked as ImportUserRecord;
    const uid = input.uid?.toLowerCase() ?? newUid();
    if (!isUid(uid)) return { ok: false, reason: '/uid must be a UUIDv7', errors: [{ pointer: '/uid', detail: 'must be a UUIDv7' }] };
    try {
      // Timestamps are kept, in the service's own form (UTC, milliseconds).
      const created = input.created_at ? new Date(input.created_at).toISOString() : now();
      const updated = input.updated_at ? new Date(input.updated_at).toISOString() : created;
      const given = givenMembers(record as ImportUserRecord);
      const user: ImportUser = { uid, ...toUserFields(input), created_at: created, updated_at: updated, version: input.version ?? 1, given };
      return { ok: true, user };
    } catch (error) {
      if (error instanceof ProblemError) return { ok: false, reason: error.detail, ...(error.extras.errors ? { errors: error.extras.errors } : {}) };
      throw error;
    }
  };
}
