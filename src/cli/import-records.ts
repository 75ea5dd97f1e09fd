/**
 * From one parsed record of an import file to a User, by the same rules as the
 * API: the same schema (plus the read-only fields an export carries), the same
 * validator settings and formats, the same domain checks. A refused record gets
 * the reason and the JSON pointers a 400 would carry.
 */
import { randomFillSync } from 'node:crypto';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { v7 as uuidv7 } from 'uuid';
import { bodyValidationItems, describe, type AjvError } from '../http/problem-handler.js';
import { ProblemError, type ProblemItem } from '../http/problems.js';
import { isUid, type User } from '../users/user.js';
import { findUnstorableValue, toUserFields } from '../users/user-input.js';
import { ImportUserRecord } from '../users/user-schemas.js';
import { AJV_OPTIONS } from '../validation-options.js';

export type RecordResult = { ok: true; user: User } | { ok: false; reason: string; errors?: ProblemItem[] };

// ajv-formats is CommonJS: its function is the default export's default under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * The random part of new uids, from a pool: one call to the system's generator
 * per 1,024 uids instead of one per uid (the uid's time and version bits are
 * set by uuid's v7 as always).
 */
function pooledRandom(): () => Uint8Array {
  let pool = new Uint8Array(0);
  let at = 0;
  return () => {
    if (at + 16 > pool.length) {
      pool = randomFillSync(new Uint8Array(16 * 1024));
      at = 0;
    }
    at += 16;
    return pool.subarray(at - 16, at);
  };
}

export function createRecordChecker(now: () => string): (record: unknown) => RecordResult {
  const random = pooledRandom();
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
    const uid = input.uid?.toLowerCase() ?? uuidv7({ random: random() });
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
