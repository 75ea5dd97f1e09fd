/**
 * What a PATCH `path` (RFC 7644 §3.5.2) designates in a User: the attribute, in
 * canonical spelling, and optionally a value filter on a multi-valued attribute
 * and a sub-attribute. Every way a path can be wrong is a 400 `invalidPath`:
 * text the parser refuses, a name the schema lacks (a filter's names included),
 * a value filter on a single-valued attribute (§3.5.2: "valuePath" selects
 * values of a multi-valued attribute). Messages name the canonical attribute at
 * most, never the client's text.
 */
import type { Filter } from '../filter/filter-ast.js';
import { ScimFilterError } from '../filter/filter-error.js';
import { parsePatchPath } from '../filter/filter-parser.js';
import { badRequest } from '../scim-error.js';
import { resolveAttribute, subAttributeOf, type ScimAttribute, type UserSchemaUrn } from '../scim-user-schema.js';

export interface PatchTarget {
  /** Where the attribute lives: top level for the core schema, under the URN key for the enterprise one. */
  schema: UserSchemaUrn;
  attribute: ScimAttribute;
  /** `name.givenName`, `emails.value`, or the `.value` of `emails[type eq "work"].value`. */
  sub?: ScimAttribute;
  /** `[type eq "work"]`: present only on multi-valued attributes; its paths name sub-attributes. */
  filter?: Filter;
}

export function patchTarget(path: string): PatchTarget {
  let parsed;
  try {
    parsed = parsePatchPath(path);
  } catch (error) {
    // A bad value filter is a bad path too (§3.5.2: "invalidPath" for a path that is invalid or malformed).
    if (error instanceof ScimFilterError) throw badRequest('invalidPath', error.message);
    throw error;
  }
  const resolved = resolveAttribute(parsed.path);
  if (resolved === undefined) throw badRequest('invalidPath', 'the path names no attribute of the User');
  const { schema, attribute, subAttribute } = resolved;
  if (parsed.filter === undefined) return { schema, attribute, ...(subAttribute && { sub: subAttribute }) };

  if (!attribute.multiValued || attribute.type !== 'complex') {
    throw badRequest('invalidPath', `${attribute.name} is not a multi-valued complex attribute: it takes no value filter`);
  }
  checkFilterNames(attribute, parsed.filter);
  let sub: ScimAttribute | undefined;
  if (parsed.sub !== undefined) {
    sub = subAttributeOf(attribute, parsed.sub);
    if (sub === undefined) throw badRequest('invalidPath', `${attribute.name} has no sub-attribute of that name`);
  }
  return { schema, attribute, filter: parsed.filter, ...(sub && { sub }) };
}

/** The names in a value filter must be sub-attributes of the filtered attribute, written without URN or further dot. */
function checkFilterNames(attribute: ScimAttribute, filter: Filter): void {
  switch (filter.kind) {
    case 'and':
    case 'or':
      checkFilterNames(attribute, filter.left);
      checkFilterNames(attribute, filter.right);
      return;
    case 'not':
      checkFilterNames(attribute, filter.filter);
      return;
    case 'has':
      throw badRequest('invalidPath', 'value filters cannot be nested');
    case 'present':
    case 'compare':
      if (filter.path.uri !== undefined || filter.path.sub !== undefined || subAttributeOf(attribute, filter.path.attr) === undefined) {
        throw badRequest('invalidPath', `the value filter names no sub-attribute of ${attribute.name}`);
      }
  }
}

// Common attributes the service alone sets (RFC 7643 §3, §3.1).
const SERVICE_OWNED = new Set(['id', 'meta', 'schemas']);

/**
 * Refuses a write (or removal) the attribute's mutability forbids, with 400
 * `mutability` (RFC 7644 §3.5.2, Table 9), and the removal of a required
 * attribute (`userName`) with 400 `invalidValue` (§3.5.2.2).
 */
export function checkMutable(target: PatchTarget, removing: boolean): void {
  const { attribute, sub } = target;
  const label = sub ? `${attribute.name}.${sub.name}` : attribute.name;
  if (SERVICE_OWNED.has(attribute.name) || attribute.mutability === 'readOnly' || sub?.mutability === 'readOnly') {
    throw badRequest('mutability', `${label} is read-only`);
  }
  // A multi-valued attribute the service requires (emails) may be emptied by one operation and
  // filled by the next; the mapping refuses a result without it.
  if (removing && attribute.required && !attribute.multiValued && sub === undefined && target.filter === undefined) {
    throw badRequest('invalidValue', `${label} is required: it cannot be removed`);
  }
}
