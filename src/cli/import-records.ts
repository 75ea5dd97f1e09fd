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
import { isUid, type User } from '../users/user.js';
import { findUnstorableValue, toUserFields } from '../users/user-input.js';
import { ImportUserRecord } from '../users/user-schemas.js';
import { AJV_OPTIONS } from '../validation-options.js';

export type RecordResult = { ok: true; user: User } | { ok: false; reason: string; errors?: ProblemItem[] };

// ajv-formats is CommonJS: its function is the default export's default under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export function createRecordChecker(now: () => string): (record: unknown) => RecordResult {
  const newUid = createUidGenerator();
  const ajv = new Ajv({ ...AJV_OPTIONS, strict: false });
  addFormats(ajv);
  for (const [name, check] of Object.entries(AJV_OPTIONS.formats)) ajv.addFormat(name, check);
  const validate = ajv.compile(ImportUserRecord);
  return (record) => {
    if (record === null || typeof record !== 'object' || Array.isArray(record)) return { ok: false, reason: 'the record is not a JSON object' };
    const unstorable = findUnstorableValue(record);
    if (unstorable) return { ok: false, reason: `${unstorable.pointer} ${unstorable.detail}`, errors: [unstorable] };
    if (!validate(record)) {
      const errors = bodyValidationItems((validate.errors ?? []) as unknown as AjvError[]);
      return { ok: false, reason: describe(errors), errors };
    }
    const input = record as ImportUserRecord;
    const uid = input.uid?.toLowerCase() ?? newUid();
    if (!isUid(uid)) return { ok: false, reason: '/uid must be a UUIDv7', errors: [{ pointer: '/uid', detail: 'must be a UUIDv7' }] };
    try {
      // Timestamps are kept, in the service's own form (UTC, milliseconds).
      const created = input.created_at ? new Date(input.created_at).toISOString() : now();
      const updated = input.updated_at ? new Date(input.updated_at).toISOString() : created;
      return { ok: true, user: { uid, ...toUserFields(input), created_at: created, updated_at: updated, version: input.version ?? 1 } };
    } catch (error) {
      if (error instanceof ProblemError) return { ok: false, reason: error.detail, ...(error.extras.errors ? { errors: error.extras.errors } : {}) };
      throw error;
    }
  };
}
