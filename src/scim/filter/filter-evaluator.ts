/**
 * Evaluates a SCIM filter (RFC 7644 §3.4.2.2) against one resource held in
 * memory: residual predicates a store cannot express, and the value filters of
 * PATCH paths (RFC 7644 §3.5.2), e.g. `emails[type eq "work"]`.
 *
 * Semantics:
 * - Attribute types and case sensitivity come from the `AttributeLookup`; an
 *   attribute it does not know is absent. Member names in the resource are
 *   matched case-insensitively (an exact match wins), as RFC 7643 §2.1 makes
 *   attribute names case-insensitive.
 * - A URI-qualified path reads the member named by the URI (the extension
 *   object, RFC 7643 §3.3); when there is none, a core schema URI
 *   (`urn:ietf:params:scim:schemas:core:…`) reads the top level and any other
 *   URI makes the attribute absent. Inside a value filter the URI is ignored.
 * - Strings (and references) compare case-insensitively unless `caseExact`, in
 *   the directory's canonical form (users/canonical.ts: width mapping, lower
 *   case, NFC), so `sw "jose\u0301"` finds "josé" as `eq` and uniqueness do;
 *   `gt`/`ge`/`lt`/`le` on strings are lexical by UTF-16 code unit, after that
 *   folding when not `caseExact`.
 * - Numbers compare numerically and accept no `co`/`sw`/`ew`; booleans accept
 *   only `eq`/`ne`; a complex attribute compares its members' `value`
 *   (`emails co "example.com"`); a type mismatch never matches.
 * - dateTime values compare as instants when both sides are xsd:dateTime text
 *   (`2011-05-13T04:42:34Z`; without an offset, UTC); `co`/`sw`/`ew` on
 *   dateTime compare the text.
 * - A multi-valued attribute matches when any member matches; `ne` is exactly
 *   the negation of `eq`, so `emails.type ne "work"` means no member is `work`.
 * - `pr` is true for a value that is not null, not "", not an empty array and
 *   not an object without such a value; `eq null` is the negation of `pr`.
 *   Other operators never match `null`.
 * - `has` is true when some member of the attribute (or the attribute itself,
 *   if single-valued) is an object satisfying the inner filter, whose paths
 *   are resolved with the attribute's canonical name as `parent`.
 *
 * Each node reads only the attribute it names, and a value filter visits each
 * member once, so the cost is linear in the filter size times the resource
 * size. Recursion follows the filter tree, whose depth the parser bounds.
 */
import type { AttrPath, AttributeDefinition, AttributeLookup, CompareOp, Filter, FilterValue } from './filter-ast.js';
import { canon } from '../../users/canonical.js';

export function matchesFilter(resource: Record<string, unknown>, filter: Filter, schema: AttributeLookup): boolean {
  return evaluate(filter, { object: resource }, schema);
}

/** Where paths are read: the resource, or one member of a multi-valued attribute. */
interface Scope {
  object: Record<string, unknown>;
  parent?: string;
}

const CORE_SCHEMA_PREFIX = 'urn:ietf:params:scim:schemas:core:';

function evaluate(filter: Filter, scope: Scope, schema: AttributeLookup): boolean {
  switch (filter.kind) {
    case 'and':
      return evaluate(filter.left, scope, schema) && evaluate(filter.right, scope, schema);
    case 'or':
      return evaluate(filter.left, scope, schema) || evaluate(filter.right, scope, schema);
    case 'not':
      return !evaluate(filter.filter, scope, schema);
    case 'present': {
      const definition = schema.resolve(filter.path, scope.parent);
      return definition !== undefined && isPresent(read(scope, filter.path));
    }
    case 'compare':
      if (filter.op === 'ne') return !compare('eq', filter.path, filter.value, scope, schema);
      return compare(filter.op, filter.path, filter.value, scope, schema);
    case 'has':
      return has(filter.path, filter.filter, scope, schema);
  }
}

function has(path: AttrPath, inner: Filter, scope: Scope, schema: AttributeLookup): boolean {
  const definition = schema.resolve(path, scope.parent);
  if (definition === undefined) return false;
  const parent = definition.subName === undefined ? definition.name : `${definition.name}.${definition.subName}`;
  const value = read(scope, path);
  const members = Array.isArray(value) ? value : [value];
  return members.some((member) => isObject(member) && evaluate(inner, { object: member, parent }, schema));
}

function compare(op: Exclude<CompareOp, 'ne'>, path: AttrPath, expected: FilterValue, scope: Scope, schema: AttributeLookup): boolean {
  let definition = schema.resolve(path, scope.parent);
  if (definition === undefined) return false;
  let value = read(scope, path);
  if (definition.type === 'complex') {
    // RFC 7644 §3.4.2.2: a filter on a multi-valued complex attribute without
    // a sub-attribute compares the members' `value`.
    if (path.sub !== undefined) return false;
    definition = schema.resolve({ ...path, sub: 'value' }, scope.parent);
    if (definition === undefined) return false;
    value = subValues(value, 'value');
  }
  if (expected === null) return op === 'eq' && !isPresent(value);
  const leafDefinition = definition;
  return leaves(value).some((leaf) => compareLeaf(op, leaf, expected, leafDefinition));
}

function compareLeaf(op: Exclude<CompareOp, 'ne'>, actual: unknown, expected: string | number | boolean, definition: AttributeDefinition): boolean {
  switch (definition.type) {
    case 'boolean':
      return op === 'eq' && typeof actual === 'boolean' && actual === expected;
    case 'integer':
    case 'decimal':
      return typeof actual === 'number' && typeof expected === 'number' && order(op, actual, expected);
    case 'dateTime': {
      if (typeof actual !== 'string' || typeof expected !== 'string') return false;
      if (op === 'co' || op === 'sw' || op === 'ew') return compareText(op, actual, expected, definition.caseExact);
      const a = instant(actual);
      const b = instant(expected);
      return a !== undefined && b !== undefined && order(op, a, b);
    }
    case 'string':
    case 'reference':
      return typeof actual === 'string' && typeof expected === 'string' && compareText(op, actual, expected, definition.caseExact);
    case 'complex':
      return false;
  }
}

function compareText(op: Exclude<CompareOp, 'ne'>, actual: string, expected: string, caseExact: boolean): boolean {
  const a = caseExact ? actual : canon(actual);
  const b = caseExact ? expected : canon(expected);
  switch (op) {
    case 'co':
      return a.includes(b);
    case 'sw':
      return a.startsWith(b);
    case 'ew':
      return a.endsWith(b);
    default:
      return order(op, a, b);
  }
}

function order<T extends number | string>(op: Exclude<CompareOp, 'ne'>, a: T, b: T): boolean {
  switch (op) {
    case 'eq':
      return a === b;
    case 'gt':
      return a > b;
    case 'ge':
      return a >= b;
    case 'lt':
      return a < b;
    case 'le':
      return a <= b;
    default:
      return false;
  }
}

/**
 * xsd:dateTime (RFC 7643 §2.3.5) as milliseconds since the epoch. The shape is
 * checked first because `Date.parse` also accepts free-form text, and text
 * without an offset is read as UTC rather than the host's local time.
 */
function instant(text: string): number | undefined {
  const zone = dateTimeZone(text);
  if (zone === undefined) return undefined;
  const ms = Date.parse(zone === '' ? `${text}Z` : text);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The zone designator of `YYYY-MM-DDThh:mm:ss[.fraction][Z|±hh:mm]` ('' when
 * there is none), or undefined when the text has another shape.
 */
function dateTimeZone(text: string): string | undefined {
  const digitsAt = (s: string, positions: readonly number[]): boolean => positions.every((i) => isDigitCode(s.charCodeAt(i)));
  if (text.length < 19) return undefined;
  if (!digitsAt(text, [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18])) return undefined;
  if (text[4] !== '-' || text[7] !== '-' || (text[10] !== 'T' && text[10] !== 't') || text[13] !== ':' || text[16] !== ':') return undefined;
  let i = 19;
  if (text[i] === '.') {
    i++;
    const fractionStart = i;
    while (isDigitCode(text.charCodeAt(i))) i++;
    if (i === fractionStart) return undefined;
  }
  const zone = text.slice(i);
  if (zone === '' || zone === 'Z' || zone === 'z') return zone;
  const isOffset = zone.length === 6 && (zone[0] === '+' || zone[0] === '-') && zone[3] === ':' && digitsAt(zone, [1, 2, 4, 5]);
  return isOffset ? zone : undefined;
}

function isDigitCode(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

// --- reading the resource -----------------------------------------------------

function read(scope: Scope, path: AttrPath): unknown {
  let base: unknown = scope.object;
  if (path.uri !== undefined && scope.parent === undefined) {
    const extension = member(base, path.uri);
    if (isObject(extension)) base = extension;
    else if (!path.uri.toLowerCase().startsWith(CORE_SCHEMA_PREFIX)) return undefined;
  }
  const value = member(base, path.attr);
  return path.sub === undefined ? value : subValues(value, path.sub);
}

/** The `sub` of a complex value, or of each member of a multi-valued one. */
function subValues(value: unknown, sub: string): unknown {
  if (!Array.isArray(value)) return member(value, sub);
  const out: unknown[] = [];
  for (const item of value) {
    const v = member(item, sub);
    if (Array.isArray(v)) out.push(...v);
    else if (v !== undefined) out.push(v);
  }
  return out;
}

function member(container: unknown, name: string): unknown {
  if (!isObject(container)) return undefined;
  if (Object.hasOwn(container, name)) return container[name];
  const folded = name.toLowerCase();
  for (const key of Object.keys(container)) {
    if (key.toLowerCase() === folded) return container[key];
  }
  return undefined;
}

function leaves(value: unknown): readonly unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function isPresent(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(isNonEmpty);
  if (isObject(value)) return Object.values(value).some(isNonEmpty);
  return isNonEmpty(value);
}

/** One level deep only: resources are at most two levels deep (RFC 7643 §2.4), and this keeps `pr` linear. */
function isNonEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.keys(value).length > 0;
  return true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
