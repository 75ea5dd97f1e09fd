/**
 * Checks a PATCH `value` against the attribute it is written to (RFC 7643 §2.3
 * data types, §7 characteristics) and returns it in canonical form: sub-attribute
 * names spelled as the schema spells them, members' keys in schema order,
 * booleans as booleans. Anything else is a 400 `invalidValue`; a sub-attribute
 * the schema lacks is a 400 `invalidPath`, as an unknown name in a path is.
 *
 * Two identity-provider habits are accepted rather than refused:
 * - Microsoft Entra ID sends booleans as strings ("True", "False"); a string
 *   that is `true` or `false` in any case becomes the boolean.
 * - Entra sends the enterprise `manager` as the manager's id alone; a string
 *   given for a single-valued complex attribute with a `value` sub-attribute
 *   becomes `{ value: thatString }`.
 *
 * A `null` sub-attribute inside a complex value is kept as `null`: for a merge
 * it means "unassign" (RFC 7643 §2.5: null and unassigned are one state).
 * A readOnly sub-attribute inside a complex value (`manager.displayName`) is
 * dropped, as RFC 7644 §3.5.1 has PUT ignore such values; naming one in a path
 * is refused elsewhere.
 */
import { badRequest } from '../scim-error.js';
import { subAttributeOf, type ScimAttribute } from '../scim-user-schema.js';

export type SimpleValue = string | number | boolean;
export type ComplexValue = Record<string, SimpleValue | null>;

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const BOOLEAN_STRING = /^(?:true|false)$/i;

/** A SCIM boolean, with the string spellings IdPs send (`"True"`, `"false"`): for PATCH values and the bodies of POST and PUT alike. */
export function scimBoolean(value: unknown, label: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && BOOLEAN_STRING.test(value)) return value.toLowerCase() === 'true';
  throw badRequest('invalidValue', `${label} must be a boolean`);
}

/** A value for a simple (non-complex) attribute or sub-attribute; `label` names it in messages. */
export function simpleValue(attribute: ScimAttribute, value: unknown, label: string): SimpleValue {
  switch (attribute.type) {
    case 'boolean':
      return scimBoolean(value, label);
    case 'integer':
      if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
      throw badRequest('invalidValue', `${label} must be an integer`);
    case 'decimal':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      throw badRequest('invalidValue', `${label} must be a number`);
    case 'complex':
      throw badRequest('invalidValue', `${label} is complex: it takes an object`);
    default:
      // string, reference and dateTime are all JSON strings (RFC 7643 §2.3).
      if (typeof value === 'string') return value;
      throw badRequest('invalidValue', `${label} must be a string`);
  }
}

/** Sorts an object's keys into the order the schema lists the sub-attributes. */
function inSchemaOrder(attribute: ScimAttribute, object: ComplexValue): ComplexValue {
  const ordered: ComplexValue = {};
  for (const sub of attribute.subAttributes ?? []) {
    const value = object[sub.name];
    if (value !== undefined) ordered[sub.name] = value;
  }
  return ordered;
}

/**
 * A complex value for `attribute` (or one member of it, when multi-valued):
 * canonical keys, typed values, `null` kept for unassigned sub-attributes.
 */
export function complexValue(attribute: ScimAttribute, value: unknown): ComplexValue {
  if (typeof value === 'string' && !attribute.multiValued && subAttributeOf(attribute, 'value') !== undefined) {
    return { value };
  }
  if (!isPlainObject(value)) {
    throw badRequest('invalidValue', `${attribute.name} takes ${attribute.multiValued ? 'objects as its values' : 'an object'}`);
  }
  const result: ComplexValue = {};
  for (const [key, given] of Object.entries(value)) {
    const sub = subAttributeOf(attribute, key);
    if (sub === undefined) throw badRequest('invalidPath', `${attribute.name} has no sub-attribute of that name`);
    if (sub.mutability === 'readOnly' || given === undefined) continue;
    result[sub.name] = given === null ? null : simpleValue(sub, given, `${attribute.name}.${sub.name}`);
  }
  return inSchemaOrder(attribute, result);
}

/** `value` without its `null` members, for a value that replaces rather than merges. */
export function withoutNulls(value: ComplexValue): Record<string, SimpleValue> {
  const result: Record<string, SimpleValue> = {};
  for (const [key, member] of Object.entries(value)) if (member !== null) result[key] = member;
  return result;
}

/**
 * The members a value adds to, or replaces in, a multi-valued attribute: an
 * array of objects, or one object (RFC 7644 §3.5.2.1 allows either). At most
 * one may be primary (RFC 7643 §2.4).
 */
export function memberValues(attribute: ScimAttribute, value: unknown): Record<string, SimpleValue>[] {
  const members = (Array.isArray(value) ? value : [value]).map((member) => withoutNulls(complexValue(attribute, member)));
  if (members.filter((member) => member.primary === true).length > 1) {
    throw badRequest('invalidValue', `at most one of the values of ${attribute.name} may be primary`);
  }
  return members.filter((member) => Object.keys(member).length > 0);
}
