/**
 * PATCH (CONTRACT §9): a JSON Merge Patch applied to the user's current writable
 * fields, inside the write's transaction, and the result validated exactly as a
 * PUT body would be (the same schema, settings and domain checks: 400 with
 * pointers, 409 from the store). A patch that changes nothing (`{}`, or values
 * equal to the current ones) writes nothing and keeps the version.
 */
import { bodyValidationItems, describe, listedItems, type AjvError } from '../http/problem-handler.js';
import { ProblemError } from '../http/problems.js';
import { compileValidator } from '../validation-options.js';
import { applyMergePatch, type Json } from './merge-patch.js';
import { fieldsOf, sameFields, type User, type UserFields } from './user.js';
import { toUserFields } from './user-input.js';
import { ReplaceUserBody, type UserPatch } from './user-schemas.js';

const validateReplacement = compileValidator(ReplaceUserBody);

/**
 * The fields after `patch`, or undefined when it changes nothing. Throws the 400 of an invalid result.
 * `membersValid`: every member of `patch` already passed the user schema (an import record does),
 * so the merged user needs only the checks that span members (toUserFields: attributes' size, one
 * primary entry, emails against email_address), not the schema again: a valid user with valid
 * members merged in is valid member by member, as merging keeps each member's shape and depth.
 */
export function patchedFields(current: User, patch: UserPatch, membersValid = false): UserFields | undefined {
  const merged = applyMergePatch(fieldsOf(current) as unknown as Json, patch as unknown as Json) as Record<string, unknown>;
  // Defaults are written as null or []: a PUT body omits them, as a removed optional field takes its default.
  for (const [key, value] of Object.entries(merged)) if (value === null || (Array.isArray(value) && value.length === 0)) delete merged[key];
  // `primary` of emails is derived from email_address (user-profile.ts): the stored flags are not input.
  if (Array.isArray(merged.emails)) merged.emails = (merged.emails as { primary?: boolean }[]).map(({ primary: _derived, ...entry }) => entry);
  if (!membersValid) return validatedFields(current, merged, 'The patched user');
  const fields = toUserFields(merged as ReplaceUserBody);
  return sameFields(fields, current) ? undefined : fields;
}

/**
 * The fields `candidate` describes, validated exactly as a PUT body (400 with pointers
 * naming what is wrong, in a sentence that starts with `subject`), or undefined when
 * they equal `current`'s: a write computed from the current user (PATCH, SCIM PUT and PATCH).
 */
export function validatedFields(current: User, candidate: Record<string, unknown>, subject: string): UserFields | undefined {
  const fields = toUserFields(validatedBody(candidate, subject));
  return sameFields(fields, current) ? undefined : fields;
}

/** `candidate` validated exactly as a PUT body (a create of another door too): the 400 names what is wrong. */
export function validatedBody(candidate: Record<string, unknown>, subject: string): ReplaceUserBody {
  const errors = validateReplacement(candidate);
  if (errors !== undefined) {
    const items = listedItems(bodyValidationItems(errors as unknown as AjvError[]));
    throw new ProblemError('validation-failed', `${subject} is not valid: ${describe(items)}`, { errors: items });
  }
  return candidate as ReplaceUserBody;
}
