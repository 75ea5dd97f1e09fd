/**
 * One PATCH operation (RFC 7644 §3.5.2.1–3) applied to one target of a working
 * copy of a User, which it edits in place. The caller has already checked the
 * target's mutability; values are checked here, against the schema.
 *
 * - add (§3.5.2.1): a single-valued attribute is set; a complex one has the
 *   given sub-attributes set and keeps the others; a multi-valued one gets the
 *   values appended, except those it already holds ("no changes SHOULD be made").
 * - replace (§3.5.2.3): the same, except that a multi-valued attribute without
 *   value filter is replaced whole and a member selected by a filter is
 *   replaced whole. A complex single-valued attribute is merged, not replaced:
 *   identity providers send the sub-attributes they manage, not all of them.
 * - remove (§3.5.2.2): the attribute, the sub-attribute, or the members the
 *   filter selects. Removing what is absent changes nothing, but a filter that
 *   selects nothing is a 400 `noTarget`.
 * - With a value filter, add and replace change the selected members (or their
 *   sub-attribute); when none is selected, a member is created from the
 *   filter's `eq` comparisons (see value-filter.ts), else 400 `noTarget`.
 * - A sub-attribute of a multi-valued attribute without filter
 *   (`emails.type`) designates that sub-attribute in every member; written to
 *   an attribute without members, it creates one.
 * - `null` as the value of add or replace unassigns (RFC 7643 §2.5), like a
 *   remove that finds nothing to do when the target is absent.
 */
import { badRequest } from '../scim-error.js';
import { CORE_USER_SCHEMA, type ScimAttribute } from '../scim-user-schema.js';
import type { PatchTarget } from './patch-target.js';
import { complexValue, isPlainObject, memberValues, simpleValue, withoutNulls, type ComplexValue } from './patch-values.js';
import { memberFromFilter, memberMatches } from './value-filter.js';

export type WriteOp = 'add' | 'replace';
type Json = Record<string, unknown>;

/** The object holding the target's attribute: the resource, or its extension object (created if absent). */
function containerFor(resource: Json, target: PatchTarget): Json {
  if (target.schema === CORE_USER_SCHEMA) return resource;
  const existing = resource[target.schema];
  if (isPlainObject(existing)) return existing;
  const extension: Json = {};
  resource[target.schema] = extension;
  return extension;
}

/** The same without creating: an absent extension reads as an empty one. */
function existingContainer(resource: Json, target: PatchTarget): Json {
  if (target.schema === CORE_USER_SCHEMA) return resource;
  const existing = resource[target.schema];
  return isPlainObject(existing) ? existing : {};
}

const membersOf = (container: Json, name: string): Json[] => {
  const value = container[name];
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
};

const labelOf = (target: PatchTarget) => (target.sub ? `${target.attribute.name}.${target.sub.name}` : target.attribute.name);

export function writeTarget(resource: Json, target: PatchTarget, op: WriteOp, value: unknown): void {
  if (value === null) return removeTarget(resource, target, true);
  const { attribute, sub, filter } = target;
  if (attribute.mutability === 'writeOnly') {
    // `password`: checked, then dropped; the service keeps none.
    simpleValue(attribute, value, attribute.name);
    return;
  }
  const container = containerFor(resource, target);
  const name = attribute.name;

  if (!attribute.multiValued) {
    if (attribute.type !== 'complex') container[name] = simpleValue(attribute, value, name);
    else {
      const before = asObject(container[name]);
      const changes = sub ? { [sub.name]: simpleValue(sub, value, labelOf(target)) } : complexValue(attribute, value);
      container[name] = withoutStaleDerived(attribute, before, mergeInto({ ...before }, changes));
    }
    return;
  }

  const members = membersOf(container, name);
  if (filter === undefined) {
    if (sub === undefined) {
      const given = memberValues(attribute, value);
      container[name] = op === 'replace' ? given : [...members, ...given.filter((g) => !members.some((m) => sameMember(m, g)))];
    } else {
      const subValue = simpleValue(sub, value, labelOf(target));
      for (const member of members) member[sub.name] = subValue;
      container[name] = members.length === 0 ? [{ [sub.name]: subValue }] : members;
    }
    return;
  }

  const selected = new Set(members.filter((member) => memberMatches(attribute, member, filter)));
  if (selected.size === 0) {
    const fixed = memberFromFilter(attribute, filter);
    if (fixed === undefined) throw badRequest('noTarget', `the value filter selects no value of ${name}`);
    const given = sub ? { [sub.name]: simpleValue(sub, value, labelOf(target)) } : withoutNulls(complexValue(attribute, value));
    container[name] = [...members, inSchemaOrder(attribute, { ...fixed, ...given })];
    return;
  }
  // Members edited in place keep their identity, which primary.ts relies on; a
  // member replaced whole is a new object, so its `primary` counts as this operation's.
  const changes: ComplexValue = sub ? { [sub.name]: simpleValue(sub, value, labelOf(target)) } : complexValue(attribute, value);
  container[name] = members.map((member) => {
    if (!selected.has(member)) return member;
    if (op === 'replace' && !sub) return withoutNulls(changes);
    mergeInto(member, changes);
    return member;
  });
}

/** `allowMissing`: a filter that selects nothing is not an error (a `null` written through a filter). */
export function removeTarget(resource: Json, target: PatchTarget, allowMissing = false): void {
  const { attribute, sub, filter } = target;
  const container = existingContainer(resource, target);
  const name = attribute.name;
  const members = membersOf(container, name);
  if (filter !== undefined) {
    const selected = new Set(members.filter((member) => memberMatches(attribute, member, filter)));
    if (selected.size === 0) {
      if (allowMissing) return;
      throw badRequest('noTarget', `the value filter selects no value of ${name}`);
    }
    if (sub) for (const member of selected) delete member[sub.name];
    else container[name] = members.filter((member) => !selected.has(member));
    return;
  }
  if (container[name] === undefined) return;
  if (sub === undefined) delete container[name];
  else if (attribute.multiValued) for (const member of members) delete member[sub.name];
  else if (isPlainObject(container[name])) delete container[name][sub.name];
}

/**
 * A complex attribute's read-only sub-attributes (`manager.displayName`) are
 * derived by the service from the others (the manager's id); once those
 * change, the derived ones describe something else and are dropped.
 */
function withoutStaleDerived(attribute: ScimAttribute, before: Json, after: Json): Json {
  const derived = (attribute.subAttributes ?? []).filter((s) => s.mutability === 'readOnly').map((s) => s.name);
  const changed = Object.keys({ ...before, ...after }).some((key) => !derived.includes(key) && before[key] !== after[key]);
  if (changed) for (const key of derived) delete after[key];
  return after;
}

const asObject = (value: unknown): Json => (isPlainObject(value) ? value : {});

/** Applies `changes` to `target`: a `null` change unassigns, any other sets. */
function mergeInto(target: Json, changes: ComplexValue): Json {
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete target[key];
    else target[key] = value;
  }
  return target;
}

function inSchemaOrder(attribute: ScimAttribute, member: Json): Json {
  const ordered: Json = {};
  for (const sub of attribute.subAttributes ?? []) if (member[sub.name] !== undefined) ordered[sub.name] = member[sub.name];
  return ordered;
}

/** Members are flat objects of simple values: equal when they hold the same sub-attributes with the same values. */
function sameMember(a: Json, b: Json): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}
