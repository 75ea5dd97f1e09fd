import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AttrPath, CompareOp, Filter, FilterValue } from '../../src/scim/filter/filter-ast.js';
import { ScimFilterError } from '../../src/scim/filter/filter-error.js';
import { parseFilter, parsePatchPath } from '../../src/scim/filter/filter-parser.js';

const CORE_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE_USER = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

/** `name.familyName` → { attr: 'name', sub: 'familyName' } (no URI; those are spelled out). */
function path(text: string): AttrPath {
  const [attr = '', sub] = text.split('.');
  return sub === undefined ? { attr } : { attr, sub };
}
const cmp = (p: string | AttrPath, op: CompareOp, value: FilterValue): Filter => ({
  kind: 'compare',
  op,
  path: typeof p === 'string' ? path(p) : p,
  value,
});
const pr = (p: string | AttrPath): Filter => ({ kind: 'present', path: typeof p === 'string' ? path(p) : p });
const and = (left: Filter, right: Filter): Filter => ({ kind: 'and', left, right });
const or = (left: Filter, right: Filter): Filter => ({ kind: 'or', left, right });
const not = (filter: Filter): Filter => ({ kind: 'not', filter });
const has = (p: string, filter: Filter): Filter => ({ kind: 'has', path: path(p), filter });

function assertInvalid(text: string, scimType: 'invalidFilter' | 'invalidPath', parse: (text: string) => unknown, offset?: number): ScimFilterError {
  let caught: unknown;
  try {
    parse(text);
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof ScimFilterError, `expected a ScimFilterError for ${JSON.stringify(text)}, got ${String(caught)}`);
  assert.equal(caught.scimType, scimType);
  assert.match(caught.message, /at offset \d+/);
  assert.ok(caught.offset >= 0 && caught.offset <= text.length, 'the offset lies within the text');
  if (offset !== undefined) {
    assert.equal(caught.offset, offset, caught.message);
    assert.ok(caught.message.includes(`offset ${offset}`), caught.message);
  }
  return caught;
}
const assertInvalidFilter = (text: string, offset?: number) => assertInvalid(text, 'invalidFilter', parseFilter, offset);
const assertInvalidPath = (text: string, offset?: number) => assertInvalid(text, 'invalidPath', parsePatchPath, offset);

/** RFC 7644 §3.4.2.2, Figure 2, in order, with the tree each one means. */
const RFC7644_EXAMPLES: readonly [string, Filter][] = [
  ['userName eq "bjensen"', cmp('userName', 'eq', 'bjensen')],
  ['name.familyName co "O\'Malley"', cmp('name.familyName', 'co', "O'Malley")],
  ['userName sw "J"', cmp('userName', 'sw', 'J')],
  [`${CORE_USER}:userName sw "J"`, cmp({ uri: CORE_USER, attr: 'userName' }, 'sw', 'J')],
  ['title pr', pr('title')],
  ['meta.lastModified gt "2011-05-13T04:42:34Z"', cmp('meta.lastModified', 'gt', '2011-05-13T04:42:34Z')],
  ['meta.lastModified ge "2011-05-13T04:42:34Z"', cmp('meta.lastModified', 'ge', '2011-05-13T04:42:34Z')],
  ['meta.lastModified lt "2011-05-13T04:42:34Z"', cmp('meta.lastModified', 'lt', '2011-05-13T04:42:34Z')],
  ['meta.lastModified le "2011-05-13T04:42:34Z"', cmp('meta.lastModified', 'le', '2011-05-13T04:42:34Z')],
  ['title pr and userType eq "Employee"', and(pr('title'), cmp('userType', 'eq', 'Employee'))],
  ['title pr or userType eq "Intern"', or(pr('title'), cmp('userType', 'eq', 'Intern'))],
  [`schemas eq "${ENTERPRISE_USER}"`, cmp('schemas', 'eq', ENTERPRISE_USER)],
  [
    'userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")',
    and(cmp('userType', 'eq', 'Employee'), or(cmp('emails', 'co', 'example.com'), cmp('emails.value', 'co', 'example.org'))),
  ],
  [
    'userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")',
    and(cmp('userType', 'ne', 'Employee'), not(or(cmp('emails', 'co', 'example.com'), cmp('emails.value', 'co', 'example.org')))),
  ],
  ['userType eq "Employee" and (emails.type eq "work")', and(cmp('userType', 'eq', 'Employee'), cmp('emails.type', 'eq', 'work'))],
  [
    'userType eq "Employee" and emails[type eq "work" and value co "@example.com"]',
    and(cmp('userType', 'eq', 'Employee'), has('emails', and(cmp('type', 'eq', 'work'), cmp('value', 'co', '@example.com')))),
  ],
  [
    'emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]',
    or(
      has('emails', and(cmp('type', 'eq', 'work'), cmp('value', 'co', '@example.com'))),
      has('ims', and(cmp('type', 'eq', 'xmpp'), cmp('value', 'co', '@foo.com'))),
    ),
  ],
];

describe('parseFilter: the example filters of RFC 7644 §3.4.2.2', () => {
  for (const [text, expected] of RFC7644_EXAMPLES) {
    it(`parses ${text}`, () => {
      assert.deepEqual(parseFilter(text), expected);
    });
  }

  it('spells out the value path example in full', () => {
    assert.deepEqual(parseFilter('userType eq "Employee" and emails[type eq "work" and value co "@example.com"]'), {
      kind: 'and',
      left: { kind: 'compare', op: 'eq', path: { attr: 'userType' }, value: 'Employee' },
      right: {
        kind: 'has',
        path: { attr: 'emails' },
        filter: {
          kind: 'and',
          left: { kind: 'compare', op: 'eq', path: { attr: 'type' }, value: 'work' },
          right: { kind: 'compare', op: 'co', path: { attr: 'value' }, value: '@example.com' },
        },
      },
    });
  });
});

describe('parseFilter: filters identity providers send', () => {
  it("parses Entra ID's test-connection probe", () => {
    assert.deepEqual(parseFilter('userName eq "Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1"'), {
      kind: 'compare',
      op: 'eq',
      path: { attr: 'userName' },
      value: 'Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1',
    });
  });

  it('parses a lookup by externalId', () => {
    assert.deepEqual(
      parseFilter('externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"'),
      cmp('externalId', 'eq', '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef'),
    );
  });

  it('a value path with a trailing sub-attribute comparison moves inside the brackets', () => {
    assert.deepEqual(parseFilter('emails[type eq "work"].value eq "a@b.c"'), {
      kind: 'has',
      path: { attr: 'emails' },
      filter: {
        kind: 'and',
        left: { kind: 'compare', op: 'eq', path: { attr: 'type' }, value: 'work' },
        right: { kind: 'compare', op: 'eq', path: { attr: 'value' }, value: 'a@b.c' },
      },
    });
  });

  it('a value path with a trailing sub-attribute presence test moves inside the brackets', () => {
    assert.deepEqual(parseFilter('emails[type eq "work"].value pr'), has('emails', and(cmp('type', 'eq', 'work'), pr('value'))));
  });

  it('a trailing sub-attribute comparison joins a bracket filter that is itself an or', () => {
    assert.deepEqual(
      parseFilter('emails[type eq "work" or primary eq true].value ew "@example.com" and active eq true'),
      and(has('emails', and(or(cmp('type', 'eq', 'work'), cmp('primary', 'eq', true)), cmp('value', 'ew', '@example.com'))), cmp('active', 'eq', true)),
    );
  });

  it('reads the literal True with a capital, as some providers send it', () => {
    assert.deepEqual(parseFilter('userName eq "x" and active eq True'), and(cmp('userName', 'eq', 'x'), cmp('active', 'eq', true)));
  });

  it('keeps a dotted path outside brackets as a plain comparison', () => {
    assert.deepEqual(parseFilter('emails.value eq "x"'), { kind: 'compare', op: 'eq', path: { attr: 'emails', sub: 'value' }, value: 'x' });
  });
});

describe('parseFilter: attribute paths', () => {
  it('splits the enterprise extension URN off the attribute name', () => {
    assert.deepEqual(parseFilter(`${ENTERPRISE_USER}:department eq "Sales"`), cmp({ uri: ENTERPRISE_USER, attr: 'department' }, 'eq', 'Sales'));
  });

  it('splits the URN off a path with a sub-attribute', () => {
    assert.deepEqual(parseFilter(`${ENTERPRISE_USER}:manager.value eq "26118915-6090-4610-87e4-49d8ca9f808d"`), {
      kind: 'compare',
      op: 'eq',
      path: { uri: ENTERPRISE_USER, attr: 'manager', sub: 'value' },
      value: '26118915-6090-4610-87e4-49d8ca9f808d',
    });
  });

  it('splits the core schema URN off too', () => {
    assert.deepEqual(parseFilter(`${CORE_USER}:userName eq "bjensen"`), cmp({ uri: CORE_USER, attr: 'userName' }, 'eq', 'bjensen'));
  });

  it('keeps a URN-qualified value path', () => {
    assert.deepEqual(parseFilter(`${CORE_USER}:emails[type eq "work"]`), {
      kind: 'has',
      path: { uri: CORE_USER, attr: 'emails' },
      filter: cmp('type', 'eq', 'work'),
    });
  });

  it('keeps attribute names as written', () => {
    assert.deepEqual(parseFilter('USERNAME Eq "x"'), cmp('USERNAME', 'eq', 'x'));
    assert.deepEqual(parseFilter('Name.GivenName pr'), pr('Name.GivenName'));
  });

  it('accepts $ref as a sub-attribute name', () => {
    assert.deepEqual(parseFilter('members.$ref eq "https://example.com/v2/Users/1"'), cmp('members.$ref', 'eq', 'https://example.com/v2/Users/1'));
  });

  it('accepts digits, hyphens and underscores after the first letter', () => {
    assert.deepEqual(parseFilter('x509-cert_2 pr'), pr('x509-cert_2'));
  });

  it('reads keywords in attribute position as attribute names', () => {
    assert.deepEqual(parseFilter('not pr'), pr('not'));
    assert.deepEqual(parseFilter('and eq 1 or or pr'), or(cmp('and', 'eq', 1), pr('or')));
    assert.deepEqual(parseFilter('pr pr'), pr('pr'));
  });
});

describe('parseFilter: keywords, precedence and grouping', () => {
  it('treats operators and logical keywords case-insensitively', () => {
    assert.deepEqual(
      parseFilter('userName EQ "a" AND Not (title PR) oR userType Sw "E"'),
      or(and(cmp('userName', 'eq', 'a'), not(pr('title'))), cmp('userType', 'sw', 'E')),
    );
  });

  it('parses every comparison operator', () => {
    for (const op of ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'] as const) {
      assert.deepEqual(parseFilter(`a ${op} "v"`), cmp('a', op, 'v'));
    }
  });

  it('binds and tighter than or', () => {
    assert.deepEqual(parseFilter('a pr or b pr and c pr'), or(pr('a'), and(pr('b'), pr('c'))));
    assert.deepEqual(parseFilter('a pr and b pr or c pr'), or(and(pr('a'), pr('b')), pr('c')));
  });

  it('associates and and or to the left', () => {
    assert.deepEqual(parseFilter('a pr and b pr and c pr'), and(and(pr('a'), pr('b')), pr('c')));
    assert.deepEqual(parseFilter('a pr or b pr or c pr'), or(or(pr('a'), pr('b')), pr('c')));
  });

  it('binds not tighter than and', () => {
    assert.deepEqual(parseFilter('not (a pr) and b pr'), and(not(pr('a')), pr('b')));
  });

  it('lets parentheses override precedence', () => {
    assert.deepEqual(parseFilter('(a pr or b pr) and c pr'), and(or(pr('a'), pr('b')), pr('c')));
    assert.deepEqual(parseFilter('a pr and (b pr and c pr)'), and(pr('a'), and(pr('b'), pr('c'))));
  });

  it('drops redundant parentheses from the tree', () => {
    assert.deepEqual(parseFilter('((a pr))'), pr('a'));
  });

  it('accepts not directly followed by a parenthesis, and not inside a value filter', () => {
    assert.deepEqual(parseFilter('not(a pr)'), not(pr('a')));
    assert.deepEqual(parseFilter('emails[not (type eq "work")]'), has('emails', not(cmp('type', 'eq', 'work'))));
  });

  it('accepts tabs, line breaks and spaces around tokens and the whole text', () => {
    assert.deepEqual(parseFilter(' \t(a eq 1)and( b pr )\r\n'), and(cmp('a', 'eq', 1), pr('b')));
    assert.deepEqual(parseFilter('emails[ type eq "work" ]'), has('emails', cmp('type', 'eq', 'work')));
  });
});

describe('parseFilter: values', () => {
  it('decodes every JSON string escape', () => {
    assert.deepEqual(parseFilter(String.raw`a eq "q\" b\\ s\/ \b\f\n\r\t \u00e9 \ud83d\ude00"`), cmp('a', 'eq', 'q" b\\ s/ \b\f\n\r\t é 😀'));
  });

  it('keeps unescaped non-ASCII text and brackets inside strings', () => {
    assert.deepEqual(parseFilter('displayName eq "Zoë (ops) [x] and or not"'), cmp('displayName', 'eq', 'Zoë (ops) [x] and or not'));
  });

  it('reads JSON numbers', () => {
    assert.deepEqual(parseFilter('a eq 42'), cmp('a', 'eq', 42));
    assert.deepEqual(parseFilter('a gt -1.5'), cmp('a', 'gt', -1.5));
    assert.deepEqual(parseFilter('a lt 1e3'), cmp('a', 'lt', 1000));
    assert.deepEqual(parseFilter('a le 2.5E-2'), cmp('a', 'le', 0.025));
    assert.deepEqual(parseFilter('a eq 0'), cmp('a', 'eq', 0));
    assert.ok(Object.is((parseFilter('a eq -0') as { value: unknown }).value, -0));
  });

  it('reads true, false and null in any case', () => {
    assert.deepEqual(parseFilter('a eq TRUE'), cmp('a', 'eq', true));
    assert.deepEqual(parseFilter('a eq False'), cmp('a', 'eq', false));
    assert.deepEqual(parseFilter('a eq NULL'), cmp('a', 'eq', null));
  });
});

describe('parseFilter: rejected filters', () => {
  const cases: readonly [string, string, number?][] = [
    ['an empty filter', '', 0],
    ['a filter of blanks', '   '],
    ['trailing garbage', 'userName eq "x" garbage', 16],
    ['an unterminated string', 'userName eq "bjensen', 12],
    ['an unknown operator', 'userName eqq "x"', 9],
    ['pr with a value', 'title pr "x"', 9],
    ['pr with a literal value', 'title pr true'],
    ['a comparison without a value', 'userName eq', 11],
    ['a comparison followed by and instead of a value', 'userName eq and title pr'],
    ['an attribute without an operator', 'userName'],
    ['nested brackets inside brackets', 'emails[value[x eq 1]]', 12],
    ['not without parentheses', 'not title pr', 0],
    ['a missing closing parenthesis', '(title pr', 9],
    ['a stray closing parenthesis', 'title pr)', 8],
    ['a missing closing bracket', 'emails[type eq "work"'],
    ['an empty value filter', 'emails[]'],
    ['empty parentheses', '()'],
    ['two sub-attributes', 'name.givenName.x pr', 14],
    ['two sub-attributes after brackets', 'emails[type eq "work"].value.x eq 1'],
    ['a number with a leading zero', 'a eq 01'],
    ['a number with a trailing dot', 'a eq 1.'],
    ['a number with letters after it', 'a eq 12abc'],
    ['a number too large for a double', 'a eq 1e999'],
    ['an invalid escape', String.raw`a eq "\x"`],
    ['a short unicode escape', String.raw`a eq "\u12"`],
    ['a raw control character in a string', 'a eq "a\u0001b"'],
    ['an unquoted string value', 'userName eq bjensen'],
    ['a single-quoted string', "userName eq 'bjensen'"],
    ['a dangling and', 'title pr and'],
    ['a leading and', 'and title pr'],
    ['a value in attribute position', '"x" eq "x"', 0],
    ['an attribute name starting with a digit', '1abc pr', 0],
    ['an empty URI prefix', ':userName pr', 0],
    ['a URI prefix without an attribute name', 'urn:x: pr'],
    ['a URI prefix starting with a digit', '1urn:x pr'],
    ['a comparison on a value path', 'emails[type eq "work"] eq "x"'],
    ['a space between an attribute and its brackets', 'emails [type eq "work"]'],
    ['a filter operator from another language', 'userName == "x"'],
  ];
  for (const [what, text, offset] of cases) {
    it(`refuses ${what}`, () => {
      assertInvalidFilter(text, offset);
    });
  }

  it('says what is wrong and where', () => {
    const error = assertInvalidFilter('userName eqq "x"', 9);
    assert.match(error.message, /unknown operator/);
    assert.match(assertInvalidFilter('a eq "x').message, /unterminated string/);
    assert.match(assertInvalidFilter('emails[value[x eq 1]]').message, /nested/);
  });

  it('does not quote the input in its message', () => {
    const error = assertInvalidFilter('userName eqSELECT "x"');
    assert.doesNotMatch(error.message, /SELECT/);
  });

  it('refuses anything but a string', () => {
    assert.throws(() => parseFilter(undefined as unknown as string), ScimFilterError);
    assert.throws(() => parseFilter(42 as unknown as string), ScimFilterError);
  });
});

describe('parseFilter: limits', () => {
  it('accepts a filter of exactly 4096 characters and refuses one of 4097', () => {
    const exact = `userName eq "${'x'.repeat(4096 - 'userName eq ""'.length)}"`;
    assert.equal(exact.length, 4096);
    assert.equal(parseFilter(exact).kind, 'compare');
    assertInvalidFilter(`${exact} `, 4096);
  });

  it('accepts 32 levels of parentheses and refuses 33', () => {
    assert.deepEqual(parseFilter(`${'('.repeat(32)}a pr${')'.repeat(32)}`), pr('a'));
    assertInvalidFilter(`${'('.repeat(33)}a pr${')'.repeat(33)}`, 32);
  });

  it('accepts 32 nested nots and refuses 33', () => {
    assert.equal(parseFilter(`${'not ('.repeat(32)}a pr${')'.repeat(32)}`).kind, 'not');
    assertInvalidFilter(`${'not ('.repeat(33)}a pr${')'.repeat(33)}`);
  });

  it('counts brackets as a level of nesting', () => {
    assert.equal(parseFilter(`${'('.repeat(31)}emails[type pr]${')'.repeat(31)}`).kind, 'has');
    assertInvalidFilter(`${'('.repeat(32)}emails[type pr]${')'.repeat(32)}`);
  });

  it('accepts 100 comparisons and refuses 101', () => {
    const comparisons = (n: number) => Array.from({ length: n }, (_, i) => `a${i} eq ${i}`).join(' and ');
    assert.equal(parseFilter(comparisons(100)).kind, 'and');
    assertInvalidFilter(comparisons(101));
    assertInvalidFilter(Array.from({ length: 101 }, () => 'a pr').join(' or '));
  });

  it('refuses 10,000 opening parentheses', () => {
    assertInvalidFilter(`${'('.repeat(10_000)}a pr${')'.repeat(10_000)}`);
    assertInvalidFilter('('.repeat(10_000));
  });

  it('refuses 10,000 nested nots', () => {
    assertInvalidFilter(`${'not ('.repeat(10_000)}a pr${')'.repeat(10_000)}`);
  });

  it('refuses deep nesting that fits in the length limit', () => {
    assertInvalidFilter('('.repeat(4000));
    assertInvalidFilter('not ('.repeat(800));
  });

  it('refuses a 100,000-character filter', () => {
    assertInvalidFilter(`userName eq "${'x'.repeat(100_000)}"`);
    assertInvalidFilter(Array.from({ length: 20_000 }, () => 'a pr').join(' or '));
  });
});

describe('parsePatchPath (RFC 7644 §3.5.2)', () => {
  it('parses an attribute with a sub-attribute', () => {
    assert.deepEqual(parsePatchPath('name.givenName'), { path: { attr: 'name', sub: 'givenName' } });
  });

  it('parses a plain attribute', () => {
    assert.deepEqual(parsePatchPath('displayName'), { path: { attr: 'displayName' } });
  });

  it('parses a value path with a sub-attribute', () => {
    assert.deepEqual(parsePatchPath('emails[type eq "work"].value'), {
      path: { attr: 'emails' },
      filter: { kind: 'compare', op: 'eq', path: { attr: 'type' }, value: 'work' },
      sub: 'value',
    });
    assert.deepEqual(parsePatchPath('addresses[type eq "work"].streetAddress'), {
      path: { attr: 'addresses' },
      filter: cmp('type', 'eq', 'work'),
      sub: 'streetAddress',
    });
  });

  it('parses a URN-qualified extension attribute', () => {
    assert.deepEqual(parsePatchPath(`${ENTERPRISE_USER}:manager`), { path: { uri: ENTERPRISE_USER, attr: 'manager' } });
  });

  it('parses a value path without a sub-attribute', () => {
    assert.deepEqual(parsePatchPath('members[value eq "2819c223-7f76-453a-919d-413861904646"]'), {
      path: { attr: 'members' },
      filter: cmp('value', 'eq', '2819c223-7f76-453a-919d-413861904646'),
    });
  });

  it('parses a value path whose filter is compound', () => {
    assert.deepEqual(parsePatchPath('emails[type eq "work" and primary eq true].display'), {
      path: { attr: 'emails' },
      filter: and(cmp('type', 'eq', 'work'), cmp('primary', 'eq', true)),
      sub: 'display',
    });
  });

  it('refuses an unterminated value path', () => {
    assertInvalidPath('emails[');
    assertInvalidPath('emails[type eq "work"');
  });

  it('refuses text after the closing bracket', () => {
    assertInvalidPath('emails[type eq "work"]x', 22);
  });

  it('refuses an empty path', () => {
    assertInvalidPath('', 0);
    assertInvalidPath('  ');
  });

  it('reports errors in a value filter as invalidPath', () => {
    assertInvalidPath('emails[type eqq "work"]');
    assertInvalidPath('emails[value[x eq 1]]');
    assertInvalidPath('emails[type eq "work"].value.x');
  });

  it('refuses filters and other text that is not a path', () => {
    assertInvalidPath('userName eq "x"');
    assertInvalidPath('(userName)');
    assertInvalidPath('name.givenName.x');
    assertInvalidPath('"userName"');
  });

  it('applies the same limits as filters', () => {
    assertInvalidPath(`emails[value eq "${'x'.repeat(5000)}"]`);
    assertInvalidPath(`emails[${'('.repeat(10_000)}`);
  });
});
