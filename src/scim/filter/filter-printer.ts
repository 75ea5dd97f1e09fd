/**
 * Prints a filter tree as canonical SCIM filter text (RFC 7644 §3.4.2.2):
 * lower-case keywords, strings as JSON, value paths as `attr[filter]`, `not (…)`,
 * and parentheses only where precedence (`not` > `and` > `or`, both binary
 * operators left-associative) would otherwise regroup the tree.
 *
 * Contract: for every tree `parseFilter` can return, `parseFilter(printFilter(t))`
 * is deep-equal to `t`. Trees outside the grammar (nested value paths, names
 * that are not attribute names) print, but do not parse back; a number that is
 * not finite has no text at all and throws a RangeError.
 */
import type { AttrPath, Filter, FilterValue } from './filter-ast.js';

export function printFilter(filter: Filter): string {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return `${printOperand(filter.left, filter.kind, 'left')} ${filter.kind} ${printOperand(filter.right, filter.kind, 'right')}`;
    case 'not':
      return `not (${printFilter(filter.filter)})`;
    case 'present':
      return `${printAttrPath(filter.path)} pr`;
    case 'compare':
      return `${printAttrPath(filter.path)} ${filter.op} ${printValue(filter.value)}`;
    case 'has':
      return `${printAttrPath(filter.path)}[${printFilter(filter.filter)}]`;
  }
}

export function printAttrPath(path: AttrPath): string {
  const name = path.sub === undefined ? path.attr : `${path.attr}.${path.sub}`;
  return path.uri === undefined ? name : `${path.uri}:${name}`;
}

function printOperand(operand: Filter, parent: 'and' | 'or', side: 'left' | 'right'): string {
  const text = printFilter(operand);
  if (operand.kind !== 'and' && operand.kind !== 'or') return text;
  // An `or` under an `and` binds looser; a right operand of the same kind
  // would re-associate to the left.
  const needsParentheses = (parent === 'and' && operand.kind === 'or') || (operand.kind === parent && side === 'right');
  return needsParentheses ? `(${text})` : text;
}

function printValue(value: FilterValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError('a SCIM filter has no text for a number that is not finite');
    return Object.is(value, -0) ? '-0' : String(value);
  }
  return String(value);
}
