/**
 * From a validated request body to the writable fields of a user: the rules of
 * CONTRACT §1 that the schema cannot state (shorthand, defaults, NFC, size of
 * attributes). Failures are `validation-failed` problems with JSON pointers.
 */
import { ProblemError } from '../problems.js';
import type { UserFields } from './user.js';
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
  return {
    username: body.username.normalize('NFC'),
    email_address: body.email_address,
    legacy_ids: body.legacy_ids ?? (body.legacy_id !== undefined ? [body.legacy_id] : []),
    display_name: body.display_name ?? null,
    attributes,
  };
}

/**
 * The JSON pointer of the first string (value or member name) in `value` that
 * PostgreSQL and JSON text cannot hold: one with U+0000 or a lone surrogate.
 */
export function findUnstorableString(value: unknown, pointer = ''): string | undefined {
  if (typeof value === 'string') return isStorable(value) ? undefined : pointer;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableString(value[i], `${pointer}/${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [name, member] of Object.entries(value)) {
      const here = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (!isStorable(name)) return here;
      const found = findUnstorableString(member, here);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

export function isStorable(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}

/** Rejects a body holding an unstorable string, naming where. */
export function assertStorableBody(body: unknown): void {
  const pointer = findUnstorableString(body);
  if (pointer !== undefined) throw invalid(pointer, 'must not contain U+0000 or unpaired surrogates');
}
