import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { AttrPath, AttributeDefinition, AttributeLookup, Filter } from '../../src/scim/filter/filter-ast.js';
import { matchesFilter } from '../../src/scim/filter/filter-evaluator.js';
import { parseFilter } from '../../src/scim/filter/filter-parser.js';
import { userAttributes } from '../../src/scim/scim-user-schema.js';

const CORE_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE_USER = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

// --- a small User schema (RFC 7643 §4.1, §4.3), plus one integer attribute ------

type Type = AttributeDefinition['type'];
interface Attribute {
  name: string;
  type: Type;
  caseExact?: boolean;
  multiValued?: boolean;
  subs?: readonly Attribute[];
}
const str = (name: string, caseExact = false): Attribute => ({ name, type: 'string', caseExact });
const multiValuedContact = (name: string): Attribute => ({
  name,
  type: 'complex',
  multiValued: true,
  subs: [str('value'), str('display'), str('type'), { name: 'primary', type: 'boolean' }],
});

const CORE: readonly Attribute[] = [
  str('id', true),
  str('externalId', true),
  str('userName'),
  str('displayName'),
  str('title'),
  str('userType'),
  { name: 'active', type: 'boolean' },
  { name: 'loginCount', type: 'integer' },
  { name: 'score', type: 'decimal' },
  { name: 'schemas', type: 'reference', caseExact: true, multiValued: true },
  { name: 'name', type: 'complex', subs: [str('givenName'), str('familyName'), str('formatted')] },
  multiValuedContact('emails'),
  multiValuedContact('ims'),
  { name: 'roles', type: 'string', multiValued: true },
  {
    name: 'meta',
    type: 'complex',
    subs: [
      { name: 'created', type: 'dateTime' },
      { name: 'lastModified', type: 'dateTime' },
      str('resourceType', true),
    ],
  },
];
const ENTERPRISE: readonly Attribute[] = [
  str('employeeNumber'),
  str('department'),
  { name: 'manager', type: 'complex', subs: [str('value', true), { name: '$ref', type: 'reference', caseExact: true }, str('displayName')] },
];

const find = (list: readonly Attribute[] | undefined, name: string) => list?.find((a) => a.name.toLowerCase() === name.toLowerCase());
const definition = (attribute: Attribute, multiValued: boolean, name: string, subName?: string): AttributeDefinition => ({
  name,
  ...(subName === undefined ? {} : { subName }),
  type: attribute.type,
  caseExact: attribute.caseExact ?? false,
  multiValued,
});

const schema: AttributeLookup = {
  resolve(path: AttrPath, parent?: string) {
    if (parent !== undefined) {
      const sub = find(find(CORE, parent)?.subs, path.attr);
      return sub && path.sub === undefined ? definition(sub, false, sub.name) : undefined;
    }
    const uri = path.uri?.toLowerCase();
    const list = uri === undefined || uri === CORE_USER.toLowerCase() ? CORE : uri === ENTERPRISE_USER.toLowerCase() ? ENTERPRISE : undefined;
    const attribute = find(list, path.attr);
    if (attribute === undefined) return undefined;
    if (path.sub === undefined) return definition(attribute, attribute.multiValued ?? false, attribute.name);
    const sub = find(attribute.subs, path.sub);
    return sub && definition(sub, attribute.multiValued ?? false, attribute.name, sub.name);
  },
};

/** RFC 7643 §8.2's full representation of Barbara Jensen, trimmed to what the tests read. */
const BJENSEN: Record<string, unknown> = {
  schemas: [CORE_USER, ENTERPRISE_USER],
  id: '2819c223-7f76-453a-919d-413861904646',
  externalId: '701984',
  userName: 'bjensen@example.com',
  name: { formatted: 'Ms. Barbara J Jensen, III', familyName: 'Jensen', givenName: 'Barbara' },
  displayName: 'Babs Jensen',
  title: 'Tour Guide',
  userType: 'Employee',
  active: true,
  emails: [
    { value: 'bjensen@example.com', type: 'work', primary: true },
    { value: 'babs@jensen.org', type: 'home' },
  ],
  ims: [{ value: 'someaimhandle', type: 'aim' }],
  [ENTERPRISE_USER]: {
    employeeNumber: '701984',
    department: 'Tour Operations',
    manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d', $ref: '../Users/26118915-6090-4610-87e4-49d8ca9f808d', displayName: 'John Smith' },
  },
  meta: {
    resourceType: 'User',
    created: '2010-01-23T04:56:22Z',
    lastModified: '2011-05-13T04:42:34Z',
  },
};

const matches = (resource: Record<string, unknown>, filter: string | Filter) =>
  matchesFilter(resource, typeof filter === 'string' ? parseFilter(filter) : filter, schema);

function assertMatches(resource: Record<string, unknown>, filter: string, expected: boolean) {
  assert.equal(matches(resource, filter), expected, `${filter} should ${expected ? '' : 'not '}match`);
}

describe('matchesFilter: the RFC 7644 §3.4.2.2 examples against RFC 7643 §8.2 bjensen', () => {
  const cases: readonly [string, boolean][] = [
    ['userName eq "bjensen@example.com"', true],
    ['name.familyName co "ense"', true],
    ['userName sw "J"', false],
    ['userName sw "B"', true],
    [`${CORE_USER}:userName sw "bj"`, true],
    ['title pr', true],
    ['meta.lastModified gt "2011-05-13T04:42:34Z"', false],
    ['meta.lastModified ge "2011-05-13T04:42:34Z"', true],
    ['meta.lastModified lt "2011-05-13T04:42:34Z"', false],
    ['meta.lastModified le "2011-05-13T04:42:34Z"', true],
    ['title pr and userType eq "Employee"', true],
    ['title pr or userType eq "Intern"', true],
    [`schemas eq "${ENTERPRISE_USER}"`, true],
    ['userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")', true],
    ['userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")', false],
    ['userType eq "Employee" and (emails.type eq "work")', true],
    ['userType eq "Employee" and emails[type eq "work" and value co "@example.com"]', true],
    ['emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]', true],
    ['emails[type eq "home" and value co "@example.com"]', false],
  ];
  for (const [filter, expected] of cases) {
    it(`${filter} → ${expected}`, () => assertMatches(BJENSEN, filter, expected));
  }
});

describe('matchesFilter: strings', () => {
  it('compares case-insensitively unless the attribute is caseExact', () => {
    assertMatches(BJENSEN, 'userName eq "BJENSEN@EXAMPLE.COM"', true);
    assertMatches(BJENSEN, 'displayName co "BABS"', true);
    assertMatches(BJENSEN, 'title ew "GUIDE"', true);
    assertMatches(BJENSEN, 'id eq "2819C223-7F76-453A-919D-413861904646"', false);
    assertMatches(BJENSEN, 'id eq "2819c223-7f76-453a-919d-413861904646"', true);
    assertMatches(BJENSEN, `${ENTERPRISE_USER}:manager.value sw "26118915"`, true);
  });

  it('orders strings lexically after folding case', () => {
    assertMatches(BJENSEN, 'title gt "tour"', true);
    assertMatches(BJENSEN, 'title lt "TOUR GUIDE Z"', true);
    assertMatches(BJENSEN, 'title ge "Tour Guide"', true);
    assertMatches({ externalId: 'B' }, 'externalId gt "a"', false);
  });

  it('does not compare a string attribute with a number, boolean or null', () => {
    assertMatches({ userName: '42' }, 'userName eq 42', false);
    assertMatches({ userName: 'true' }, 'userName eq true', false);
  });

  it('finds resource members whatever their case', () => {
    assertMatches({ USERNAME: 'x' }, 'userName eq "x"', true);
    assertMatches({ Emails: [{ VALUE: 'a@b.c', Type: 'work' }] }, 'emails[type eq "work"].value eq "a@b.c"', true);
  });
});

describe('matchesFilter: multi-valued attributes', () => {
  it('matches when any member matches', () => {
    assertMatches(BJENSEN, 'emails.value eq "babs@jensen.org"', true);
    assertMatches(BJENSEN, 'emails.type eq "other"', false);
    assertMatches({ roles: ['reader', 'Writer'] }, 'roles eq "writer"', true);
  });

  it('compares the members’ value when the comparison names the complex attribute', () => {
    assertMatches(BJENSEN, 'emails eq "BJensen@example.com"', true);
    assertMatches(BJENSEN, 'emails co "jensen.org"', true);
    assertMatches(BJENSEN, 'emails co "work"', false);
  });

  it('makes ne the negation of eq: no member may equal the value', () => {
    assertMatches(BJENSEN, 'emails.type ne "work"', false);
    assertMatches(BJENSEN, 'emails.type ne "other"', true);
  });

  it('requires one member to satisfy the whole value filter', () => {
    const user = {
      emails: [
        { value: 'x@other.org', type: 'work' },
        { value: 'x@example.com', type: 'home' },
      ],
    };
    assertMatches(user, 'emails.type eq "work" and emails.value co "@example.com"', true);
    assertMatches(user, 'emails[type eq "work" and value co "@example.com"]', false);
    assertMatches(user, 'emails[type eq "home" and value co "@example.com"]', true);
  });

  it('evaluates a value path with a trailing sub-attribute comparison against the same member', () => {
    const user = {
      emails: [
        { value: 'a@b.c', type: 'home' },
        { value: 'w@b.c', type: 'work' },
      ],
    };
    assertMatches(user, 'emails[type eq "work"].value eq "w@b.c"', true);
    assertMatches(user, 'emails[type eq "work"].value eq "a@b.c"', false);
  });

  it('applies a value filter to a single-valued complex attribute', () => {
    assertMatches(BJENSEN, 'name[givenName eq "barbara"]', true);
    assertMatches(BJENSEN, 'name[givenName eq "Anne"]', false);
  });

  it('never matches a value filter on an absent attribute or on members that are not objects', () => {
    assertMatches({}, 'emails[type pr]', false);
    assertMatches({ emails: ['a@b.c', null, 3] }, 'emails[value pr]', false);
  });
});

describe('matchesFilter: dateTime, numbers and booleans', () => {
  it('compares dateTime values as instants', () => {
    assertMatches(BJENSEN, 'meta.created gt "2010-01-23T04:56:21Z"', true);
    assertMatches(BJENSEN, 'meta.created gt "2010-01-23T04:56:22Z"', false);
    assertMatches(BJENSEN, 'meta.lastModified eq "2011-05-13T06:42:34+02:00"', true);
    assertMatches(BJENSEN, 'meta.lastModified eq "2011-05-13T04:42:34.000Z"', true);
    assertMatches(BJENSEN, 'meta.lastModified gt "2011-05-13T04:42:33.999Z"', true);
    assertMatches(BJENSEN, 'meta.lastModified lt "2011-05-13T04:42:35"', true);
  });

  it('does not order text that is not an xsd:dateTime', () => {
    assertMatches(BJENSEN, 'meta.lastModified gt "1"', false);
    assertMatches(BJENSEN, 'meta.lastModified lt "May 2020"', false);
    assertMatches({ meta: { lastModified: 'yesterday' } }, 'meta.lastModified lt "2011-05-13T04:42:34Z"', false);
  });

  it('applies co, sw and ew to the text of a dateTime', () => {
    assertMatches(BJENSEN, 'meta.lastModified sw "2011-05"', true);
  });

  it('compares integers and decimals numerically', () => {
    assertMatches({ loginCount: 10 }, 'loginCount gt 9', true);
    assertMatches({ loginCount: 10 }, 'loginCount le 9.5', false);
    assertMatches({ score: 0.5 }, 'score eq 5e-1', true);
    assertMatches({ loginCount: 10 }, 'loginCount co 1', false);
    assertMatches({ loginCount: '10' }, 'loginCount eq 10', false);
  });

  it('supports only eq and ne on booleans', () => {
    assertMatches(BJENSEN, 'active eq true', true);
    assertMatches(BJENSEN, 'active eq True', true);
    assertMatches(BJENSEN, 'active ne false', true);
    assertMatches(BJENSEN, 'active eq false', false);
    assertMatches(BJENSEN, 'active gt false', false);
    assertMatches(BJENSEN, 'active eq "true"', false);
    assertMatches({ active: 'true' }, 'active eq true', false);
  });
});

describe('matchesFilter: presence and null', () => {
  it('treats an empty string, an empty array, null and an empty object as not present', () => {
    assertMatches({ title: '' }, 'title pr', false);
    assertMatches({ title: null }, 'title pr', false);
    assertMatches({ emails: [] }, 'emails pr', false);
    assertMatches({ emails: [{}] }, 'emails pr', false);
    assertMatches({ name: {} }, 'name pr', false);
    assertMatches({ name: { givenName: '' } }, 'name pr', false);
    assertMatches({}, 'title pr', false);
  });

  it('treats a value, a false boolean and a zero as present', () => {
    assertMatches({ title: 'x' }, 'title pr', true);
    assertMatches({ active: false }, 'active pr', true);
    assertMatches({ loginCount: 0 }, 'loginCount pr', true);
    assertMatches({ emails: [{ value: 'a@b.c' }] }, 'emails pr', true);
    assertMatches(BJENSEN, 'name.givenName pr', true);
    assertMatches(BJENSEN, 'emails.display pr', false);
  });

  it('makes eq null the negation of pr', () => {
    assertMatches({ title: '' }, 'title eq null', true);
    assertMatches({}, 'title eq null', true);
    assertMatches({ title: 'x' }, 'title eq null', false);
    assertMatches({ title: 'x' }, 'title ne null', true);
    assertMatches({ title: 'x' }, 'title gt null', false);
  });
});

describe('matchesFilter: schema URIs and unknown attributes', () => {
  it('reads extension attributes from the extension object', () => {
    assertMatches(BJENSEN, `${ENTERPRISE_USER}:department eq "tour operations"`, true);
    assertMatches(BJENSEN, `${ENTERPRISE_USER.toUpperCase()}:department eq "tour operations"`, true);
    assertMatches(BJENSEN, `${ENTERPRISE_USER}:manager.displayName eq "John Smith"`, true);
    assertMatches({ department: 'Tour Operations' }, `${ENTERPRISE_USER}:department pr`, false);
  });

  it('reads core attributes from the top level', () => {
    assertMatches(BJENSEN, `${CORE_USER}:name.givenName eq "Barbara"`, true);
  });

  it('treats an attribute the schema does not know as absent', () => {
    const user = { nickName: 'Babs' };
    assertMatches(user, 'nickName eq "Babs"', false);
    assertMatches(user, 'nickName ne "Babs"', true);
    assertMatches(user, 'nickName pr', false);
    assertMatches(user, 'nickName[value pr]', false);
    assertMatches(BJENSEN, 'emails[nickName pr]', false);
    assertMatches(BJENSEN, 'urn:example:other:department pr', false);
  });

  it('reads only a resource’s own members', () => {
    assertMatches(Object.create({ userName: 'x' }) as Record<string, unknown>, 'userName pr', false);
    assertMatches(JSON.parse('{"__proto__": {"userName": "x"}}') as Record<string, unknown>, 'userName pr', false);
  });
});

describe('matchesFilter properties', () => {
  const names = ['userName', 'title', 'active', 'loginCount', 'emails', 'name', 'meta', 'nickName', 'emails.value', 'emails.type', 'name.givenName', 'meta.lastModified'];
  const leafValue = fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -3, max: 3 }), fc.boolean(), fc.constant(null), fc.constantFrom('2011-05-13T04:42:34Z', 'a', 'A'));
  const resourceValue = fc.oneof(
    leafValue,
    fc.array(leafValue, { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('value', 'type', 'givenName', 'lastModified', 'Value'), leafValue, { maxKeys: 3 }),
    fc.array(fc.dictionary(fc.constantFrom('value', 'type', 'primary', 'VALUE'), leafValue, { maxKeys: 3 }), { maxLength: 3 }),
  );
  const resourceArb = fc.dictionary(fc.constantFrom('userName', 'USERNAME', 'title', 'active', 'loginCount', 'emails', 'name', 'meta', 'nickName'), resourceValue, {
    maxKeys: 6,
  });
  const comparisonArb = fc
    .tuple(fc.constantFrom(...names), fc.constantFrom('eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le', 'pr'), leafValue)
    .map(([path, op, value]) => (op === 'pr' ? `${path} pr` : `${path} ${op} ${JSON.stringify(value)}`));
  const filterTextArb = fc.oneof(
    comparisonArb,
    fc.tuple(comparisonArb, comparisonArb).map(([a, b]) => `${a} and ${b}`),
    fc.tuple(comparisonArb, comparisonArb).map(([a, b]) => `emails[${a.replace(/^emails\./, '')}] or ${b}`),
  );
  const RUNS = { numRuns: 1000, seed: 20261125 };

  it('never throws, and not inverts the result', () => {
    fc.assert(
      fc.property(resourceArb, filterTextArb, (resource, text) => {
        const filter = parseFilter(text);
        const result = matchesFilter(resource, filter, schema);
        assert.equal(typeof result, 'boolean');
        assert.equal(matchesFilter(resource, { kind: 'not', filter }, schema), !result);
      }),
      RUNS,
    );
  });

  it('makes ne the negation of eq', () => {
    fc.assert(
      fc.property(resourceArb, fc.constantFrom(...names), leafValue, (resource, path, value) => {
        const eq = matches(resource, `${path} eq ${JSON.stringify(value)}`);
        const ne = matches(resource, `${path} ne ${JSON.stringify(value)}`);
        assert.equal(ne, !eq);
      }),
      RUNS,
    );
  });
});

describe('matchesFilter with the User schema: canonical folding', () => {
  it('compares a case-insensitive attribute in the directory\'s canonical form: sw, co and eq agree on "José" spelled decomposed or in full width', () => {
    const user = { userName: 'José.García', externalId: 'Ext-1' };
    for (const filter of ['userName sw "jose\u0301"', 'userName co "GARCI\u0301A"', 'userName eq "ＪＯＳÉ.garcía"']) {
      assert.equal(matchesFilter(user, parseFilter(filter), userAttributes), true, filter);
    }
    assert.equal(matchesFilter(user, parseFilter('externalId eq "ext-1"'), userAttributes), false, 'externalId is case-exact');
  });
});
