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
import { sameFields, type User, type UserFields } from './user.js';
import { toUserFields } from './user-input.js';
import { ReplaceUserBody, type UserPatch } from './user-schemas.js';

const validateReplacement = compileValidator(ReplaceUserBody);

/** The fields after `patch`, or undefined when it changes nothing. Throws the 400 of an invalid result. */
export function patchedFields(current: User, patch: UserPatch): UserFields | undefined {
  const writable: UserFields = {
    username: current.username,
    email_address: current.email_address,
    legacy_ids: current.legacy_ids,
    display_name: current.display_name,
    attributes: current.attributes,
  };
  const merged = applyMergePatch(writable as unknown as Json, patch as unknown as Json) as Record<string, unknown>;
  // A removed optional field takes its default, as in a PUT that omits it.
  if (merged.display_name === undefined) delete merged.display_name;
  const errors = validateReplacement(merged);
  if (errors !== undefined) {
    const items = listedItems(bodyValidationItems(errors as unknown as AjvError[]));
    throw new ProblemError('validation-failed', `The patched user is not valid: ${describe(items)}`, { errors: items });
  }
  const fields = toUserFields(merged as ReplaceUserBody);
  return sameFields(fields, current) ? undefined : fields;
}
