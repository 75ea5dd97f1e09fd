/**
 * From a validated request body to the writable fields of a user: the rules of
 * CONTRACT §1 that the schema cannot state (shorthand, defaults, NFC, size of
 * attributes). Failures are `validation-failed` problems with JSON pointers.
 */
import { pointerToken } from '../json-pointer.js';
import { ProblemError } from '../http/problems.js';
import type { UserFields } from './user.js';
import { toProfile, type ProfileInput } from './user-profile.js';
import { ATTRIBUTES_MAX_BYTES, type CreateUserBody } from './user-schemas.js';

function invalid(pointer: string, detail: string): ProblemError {
  return new ProblemError('validation-failed', `${pointer} ${detail}`, { errors: [{ pointer, detail }] });
}

/** The writable fields a POST or PUT body describes; omitted optional fields take their defaults. */
export function toUserFields(body: CreateUserBody): UserFields {
  if (body.legacy_id !== undefined && body.legacy_ids !== undefined) {
    throw invalid('/legacy_id', 'cannot be sent together with legacy_ids');
  }
  const attributes = (body.attributes ?? {}) as Record<string, unknown>;
  if (Buffer.byteLength(JSON.stringify(attributes)) > ATTRIBUTES_MAX_BYTES) {
    throw invalid('/attributes', `must serialise to at most ${ATTRIBUTES_MAX_BYTES} bytes`);
  }
  for (const list of ['phone_numbers', 'addresses'] as const) {
    if ((body[list] ?? []).filter((entry) => entry.primary === true).length > 1) throw invalid(`/${list}`, 'must have at most one primary entry');
  }
  return {
    username: body.username.normalize('NFC'),
    email_address: body.email_address,
    legacy_ids: body.legacy_ids ?? (body.legacy_id !== undefined ? [body.legacy_id] : []),
    external_id: body.external_id ?? null,
    active: body.active ?? true,
    display_name: body.display_name ?? null,
    ...toProfile(body as ProfileInput, body.email_address),
    attributes,
  };
}

/** Deepest nesting of arrays and objects accepted anywhere in a body. */
export const MAX_JSON_DEPTH = 32;

export interface UnstorableValue {
  pointer: string;
  detail: string;
}

/**
 * The first value in a parsed body that cannot be stored faithfully: a string or
 * member name with U+0000 or an unpaired surrogate (PostgreSQL and JSON text
 * cannot hold them), a number JSON.parse turned into Infinity or rounded (beyond
 * ±2^53), or nesting deeper than MAX_JSON_DEPTH. Iterative, so no input depth can
 * exhaust the stack.
 */
export function findUnstorableValue(body: unknown): UnstorableValue | undefined {
  const pending: { value: unknown; pointer: string; depth: number }[] = [{ value: body, pointer: '', depth: 0 }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const { value, pointer, depth } = item;
    if (typeof value === 'string') {
      if (!isStorable(value)) return { pointer, detail: 'must not contain U+0000 or unpaired surrogates' };
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { pointer, detail: 'is a number too large to represent' };
      if (Number.isInteger(value) && !Number.isSafeInteger(value)) return { pointer, detail: 'is an integer beyond ±2^53 that would lose precision; send it as a string' };
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_JSON_DEPTH) return { pointer, detail: `nests deeper than ${MAX_JSON_DEPTH} levels` };
      const entries = Array.isArray(value) ? value.map((member, i) => [String(i), member] as const) : Object.entries(value);
      for (const [name, member] of entries) {
        const here = `${pointer}/${pointerToken(name)}`;
        if (!isStorable(name)) return { pointer: here, detail: 'must not contain U+0000 or unpaired surrogates' };
        pending.push({ value: member, pointer: here, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

export function isStorable(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}

/** Rejects a body holding an unstorable value, naming where. */
export function assertStorableBody(body: unknown): void {
  const found = findUnstorableValue(body);
  if (found !== undefined) throw invalid(found.pointer, found.detail);
}
