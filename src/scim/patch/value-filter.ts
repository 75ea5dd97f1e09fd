/**
 * The value filter of a PATCH path (`emails[type eq "work"]`, RFC 7644 §3.5.2):
 * which members of a multi-valued attribute it selects, and the member it
 * describes when none exists yet.
 *
 * Creating a member is what Microsoft Entra ID relies on: it writes
 * `emails[type eq "work"].value` (and `phoneNumbers[type eq "mobile"].value`,
 * `addresses[type eq "work"].locality`, …) whether or not such a member exists.
 * RFC 7644 §3.5.2.3 would answer `noTarget`; accepting it instead is harmless
 * only where the filter pins the member down, so only a filter made of `eq`
 * comparisons joined by `and` describes one.
 */
import type { AttributeLookup, Filter } from '../filter/filter-ast.js';
import { matchesFilter } from '../filter/filter-evaluator.js';
import { subAttributeOf, userAttributes, type ScimAttribute } from '../scim-user-schema.js';
import { isPlainObject, simpleValue, type SimpleValue } from './patch-values.js';

/** Whether `member`, one value of `attribute`, satisfies `filter` (case rules from the schema). */
export function memberMatches(attribute: ScimAttribute, member: unknown, filter: Filter): boolean {
  if (!isPlainObject(member)) return false;
  // The filter's paths are relative to the member: resolve them with the attribute as parent.
  const lookup: AttributeLookup = { resolve: (path, parent) => userAttributes.resolve(path, parent ?? attribute.name) };
  return matchesFilter(member, filter, lookup);
}

/**
 * The sub-attributes the filter fixes (`type eq "work" and primary eq true` →
 * `{ type: 'work', primary: true }`), typed as the schema says; undefined when
 * the filter is not a conjunction of `eq` comparisons with non-null values, or
 * contradicts itself.
 */
export function memberFromFilter(attribute: ScimAttribute, filter: Filter): Record<string, SimpleValue> | undefined {
  const fixed: Record<string, SimpleValue> = {};
  const collect = (node: Filter): boolean => {
    if (node.kind === 'and') return collect(node.left) && collect(node.right);
    if (node.kind !== 'compare' || node.op !== 'eq' || node.value === null) return false;
    const sub = subAttributeOf(attribute, node.path.attr);
    if (sub === undefined || sub.type === 'complex') return false;
    const value = typed(sub, node.value);
    if (value === undefined) return false;
    const earlier = fixed[sub.name];
    if (earlier !== undefined && !sameText(earlier, value, sub.caseExact)) return false;
    fixed[sub.name] = earlier ?? value;
    return true;
  };
  return collect(filter) ? fixed : undefined;
}

/** The filter's literal as a value of `sub`, or undefined if it cannot be one (`type eq 5`: no member can match). */
function typed(sub: ScimAttribute, literal: string | number | boolean): SimpleValue | undefined {
  try {
    return simpleValue(sub, literal, sub.name);
  } catch {
    return undefined;
  }
}

const sameText = (a: SimpleValue, b: SimpleValue, caseExact: boolean) =>
  typeof a === 'string' && typeof b === 'string' && !caseExact ? a.toLowerCase() === b.toLowerCase() : a === b;
