import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { AttrPath, CompareOp, Filter, FilterValue } from '../../src/scim/filter/filter-ast.js';
import { ScimFilterError } from '../../src/scim/filter/filter-error.js';
import { parseFilter, parsePatchPath } from '../../src/scim/filter/filter-parser.js';
import { printFilter } from '../../src/scim/filter/filter-printer.js';

const RUNS = { numRuns: 1000, seed: 20261125 };

// --- generators ---------------------------------------------------------------

/** Ordinary names, names that spell keywords (the grammar is positional), and `$ref`. */
const nameArb = fc.oneof(
  fc.constantFrom('userName', 'emails', 'value', 'type', 'not', 'and', 'or', 'pr', 'eq', 'true', 'null', '$ref', 'x509-cert_2$'),
  fc.stringMatching(/^[A-Za-z$][A-Za-z0-9$_-]{0,8}$/),
);

const uriArb = fc.oneof(
  fc.constantFrom('urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'),
  fc.stringMatching(/^[a-z][a-z0-9]{0,4}(:[A-Za-z0-9._$-]{1,6}){0,3}$/),
);

const attrPathArb: fc.Arbitrary<AttrPath> = fc
  .tuple(fc.option(uriArb, { nil: undefined }), nameArb, fc.option(nameArb, { nil: undefined }))
  .map(([uri, attr, sub]) => ({ ...(uri === undefined ? {} : { uri }), attr, ...(sub === undefined ? {} : { sub }) }));

/** Every UTF-16 code unit, lone surrogates and control characters included. */
const anyCodeUnitString = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 12 });

const valueArb: fc.Arbitrary<FilterValue> = fc.oneof(
  anyCodeUnitString,
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1e21, 5e-324, Number.MAX_VALUE),
  fc.boolean(),
  fc.constant(null),
);

const opArb = fc.constantFrom<CompareOp>('eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le');

const leafArb: fc.Arbitrary<Filter> = fc.oneof(
  fc.tuple(opArb, attrPathArb, valueArb).map(([op, path, value]): Filter => ({ kind: 'compare', op, path, value })),
  attrPathArb.map((path): Filter => ({ kind: 'present', path })),
);

/**
 * Trees the parser can produce: value paths do not nest, and the depth bounds
 * keep nesting and the comparison count well inside the parser's limits.
 */
const { filter: filterArb, inner: valueFilterArb } = fc.letrec<{ filter: Filter; inner: Filter }>((tie) => ({
  filter: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'filter' },
    leafArb,
    fc.tuple(attrPathArb, tie('inner')).map(([path, filter]): Filter => ({ kind: 'has', path, filter })),
    fc.tuple(fc.constantFrom<'and' | 'or'>('and', 'or'), tie('filter'), tie('filter')).map(([kind, left, right]): Filter => ({ kind, left, right })),
    tie('filter').map((filter): Filter => ({ kind: 'not', filter })),
  ),
  inner: fc.oneof(
    { maxDepth: 2, depthIdentifier: 'inner' },
    leafArb,
    fc.tuple(fc.constantFrom<'and' | 'or'>('and', 'or'), tie('inner'), tie('inner')).map(([kind, left, right]): Filter => ({ kind, left, right })),
    tie('inner').map((filter): Filter => ({ kind: 'not', filter })),
  ),
}));

/** Text made of the grammar's own pieces, so that it sometimes almost parses. */
const grammarishText = fc
  .array(
    fc.oneof(
      fc.constantFrom('(', ')', '[', ']', '"', '\\', ' ', '.', ':', '$', '-', 'a', 'e', 'u', 'E', '0', '1', '9', "'", '\t', '\n'),
      fc.constantFrom('eq', ' and ', ' or ', 'not (', ' pr', ' True', 'null', '\\u00e9', '\\ud800', '\u00e9', '\ud800', '😀', 'emails', 'urn:x:'),
      fc.constantFrom('userName eq "x"', 'emails[type eq "work"]', '.value', ' eq "a@b.c"', '1e999', '-0.5e+3'),
      anyCodeUnitString,
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

/** A printed filter with one character inserted, deleted or replaced. */
const mutatedFilterText = fc
  .tuple(filterArb.map(printFilter), fc.nat(), fc.constantFrom('insert', 'delete', 'replace'), fc.constantFrom('(', ')', '[', ']', '"', '\\', ' ', '.', ':', 'x', '1', '-'))
  .map(([text, at, how, c]) => {
    const i = text.length === 0 ? 0 : at % text.length;
    if (how === 'insert') return text.slice(0, i) + c + text.slice(i);
    if (how === 'delete') return text.slice(0, i) + text.slice(i + 1);
    return text.slice(0, i) + c + text.slice(i + 1);
  });

function failsOnlyWithScimFilterError(parse: (text: string) => unknown, scimType: string) {
  return (text: string) => {
    try {
      parse(text);
    } catch (error) {
      if (!(error instanceof ScimFilterError)) throw error;
      assert.equal(error.scimType, scimType);
      assert.ok(error.offset >= 0 && error.offset <= text.length, `offset ${error.offset} within ${text.length}`);
    }
  };
}

// --- properties -----------------------------------------------------------------

describe('filter properties', () => {
  it('every generated tree prints and parses back to a deep-equal tree', () => {
    fc.assert(
      fc.property(filterArb, (filter) => {
        assert.deepEqual(parseFilter(printFilter(filter)), filter);
      }),
      RUNS,
    );
  });

  it('printing is canonical: a re-parsed tree prints to the same text', () => {
    fc.assert(
      fc.property(filterArb, (filter) => {
        const text = printFilter(filter);
        assert.equal(printFilter(parseFilter(text)), text);
      }),
      RUNS,
    );
  });

  it('random text never makes parseFilter throw anything but an invalidFilter ScimFilterError', () => {
    fc.assert(fc.property(grammarishText, failsOnlyWithScimFilterError(parseFilter, 'invalidFilter')), RUNS);
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), failsOnlyWithScimFilterError(parseFilter, 'invalidFilter')), RUNS);
  });

  it('a printed filter with one character changed parses or fails with invalidFilter', () => {
    fc.assert(fc.property(mutatedFilterText, failsOnlyWithScimFilterError(parseFilter, 'invalidFilter')), RUNS);
  });

  it('random text never makes parsePatchPath throw anything but an invalidPath ScimFilterError', () => {
    fc.assert(fc.property(grammarishText, failsOnlyWithScimFilterError(parsePatchPath, 'invalidPath')), RUNS);
    fc.assert(fc.property(mutatedFilterText, failsOnlyWithScimFilterError(parsePatchPath, 'invalidPath')), RUNS);
  });

  it('a value path printed as a PATCH path parses back to its parts', () => {
    fc.assert(
      fc.property(attrPathArb, valueFilterArb, fc.option(nameArb, { nil: undefined }), (path, filter, sub) => {
        const printed = printFilter({ kind: 'has', path, filter });
        const text = sub === undefined ? printed : `${printed}.${sub}`;
        assert.deepEqual(parsePatchPath(text), { path, filter, ...(sub === undefined ? {} : { sub }) });
      }),
      RUNS,
    );
  });

  it('hostile nesting and length fail with invalidFilter however they are built', () => {
    const hostile = fc.oneof(
      fc.integer({ min: 33, max: 20_000 }).map((n) => `${'('.repeat(n)}a pr${')'.repeat(n)}`),
      fc.integer({ min: 33, max: 20_000 }).map((n) => `${'not ('.repeat(n)}a pr${')'.repeat(n)}`),
      fc.integer({ min: 33, max: 2_000 }).map((n) => `${'not ( ('.repeat(n)}`),
      fc.integer({ min: 4097, max: 100_000 }).map((n) => `userName eq "${'x'.repeat(n)}"`),
      fc.integer({ min: 101, max: 400 }).map((n) => Array.from({ length: n }, () => 'a pr').join(' and ')),
    );
    fc.assert(
      fc.property(hostile, (text) => {
        assert.throws(() => parseFilter(text), (error: unknown) => error instanceof ScimFilterError && error.scimType === 'invalidFilter');
      }),
      { ...RUNS, numRuns: 100 },
    );
  });
});
