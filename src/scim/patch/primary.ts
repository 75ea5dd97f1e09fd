/**
 * RFC 7643 §2.4: `primary: true` appears on at most one value of a multi-valued
 * attribute. A PATCH operation that leaves several primary values resolves it
 * in favour of what the client just said: the members the operation made
 * primary (new members, or members that were not primary before) keep it and
 * the others get `primary: false`. An operation that itself makes two members
 * primary is refused (400 `invalidValue`), there being no way to pick one.
 *
 * Members are compared by identity: `primaryBefore` is taken on the working
 * copy before an operation, which edits members in place or replaces them by
 * new objects.
 */
import { badRequest } from '../scim-error.js';
import { CORE_USER_ATTRIBUTES } from '../scim-user-schema.js';

// Every multi-valued attribute with a `primary` sub-attribute lives in the core schema.
const WITH_PRIMARY = CORE_USER_ATTRIBUTES.filter((a) => a.multiValued && a.subAttributes?.some((s) => s.name === 'primary')).map((a) => a.name);

type Members = unknown[];
const isPrimary = (member: unknown): boolean =>
  typeof member === 'object' && member !== null && (member as Record<string, unknown>).primary === true;

/** The members that are primary now, per attribute. */
export function primaryBefore(resource: Record<string, unknown>): Map<string, Set<unknown>> {
  const before = new Map<string, Set<unknown>>();
  for (const name of WITH_PRIMARY) {
    const members = resource[name];
    if (Array.isArray(members)) before.set(name, new Set((members as Members).filter(isPrimary)));
  }
  return before;
}

/** Leaves at most one primary member per attribute, preferring those made primary since `before`. */
export function settlePrimary(resource: Record<string, unknown>, before: Map<string, Set<unknown>>): void {
  for (const name of WITH_PRIMARY) {
    const members = resource[name];
    if (!Array.isArray(members)) continue;
    const primaries = (members as Members).filter(isPrimary);
    if (primaries.length < 2) continue;
    const earlier = before.get(name) ?? new Set();
    const winners = primaries.filter((member) => !earlier.has(member));
    if (winners.length > 1) throw badRequest('invalidValue', `the operation makes more than one value of ${name} primary`);
    // With no winner the resource arrived that way: not this operation's doing, so left as it is.
    if (winners.length === 0) continue;
    for (const member of primaries) if (member !== winners[0]) (member as Record<string, unknown>).primary = false;
  }
}
