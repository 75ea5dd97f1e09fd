import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchesFilter } from '../../src/scim/filter/filter-evaluator.js';
import { parseFilter } from '../../src/scim/filter/filter-parser.js';
import {
  CORE_USER_SCHEMA,
  ENTERPRISE_USER_SCHEMA,
  resolveAttribute,
  userAttributes,
  userSchemaDocuments,
  userSchemaUrn,
  type ScimAttribute,
} from '../../src/scim/scim-user-schema.js';

type Doc = { schemas: string[]; id: string; name: string; description: string; attributes: ScimAttribute[]; meta: { resourceType: string; location: string } };
const documents = (base = 'https://example.com/scim/v2') => userSchemaDocuments(base) as Doc[];
const attribute = (doc: Doc, name: string) => doc.attributes.find((a) => a.name === name);
const sub = (a: ScimAttribute | undefined, name: string) => a?.subAttributes?.find((s) => s.name === name);

describe('userSchemaDocuments (RFC 7643 §7)', () => {
  it('returns the core User and the enterprise extension, each with meta.location under the base URL', () => {
    const [core, enterprise] = documents('https://example.com/scim/v2/');
    assert.equal(core?.id, CORE_USER_SCHEMA);
    assert.equal(core?.name, 'User');
    assert.deepEqual(core?.schemas, ['urn:ietf:params:scim:schemas:core:2.0:Schema']);
    assert.deepEqual(core?.meta, { resourceType: 'Schema', location: `https://example.com/scim/v2/Schemas/${CORE_USER_SCHEMA}` });
    assert.equal(enterprise?.id, ENTERPRISE_USER_SCHEMA);
    assert.equal(enterprise?.name, 'EnterpriseUser');
    assert.equal(enterprise?.meta.location, `https://example.com/scim/v2/Schemas/${ENTERPRISE_USER_SCHEMA}`);
    assert.equal(documents().length, 2);
  });

  it('lists exactly the attributes the service stores, without the common attributes id, externalId and meta', () => {
    const [core, enterprise] = documents();
    assert.deepEqual(
      core?.attributes.map((a) => a.name),
      ['userName', 'name', 'displayName', 'nickName', 'title', 'userType', 'preferredLanguage', 'locale', 'timezone', 'active', 'password', 'emails', 'phoneNumbers', 'addresses'],
    );
    assert.deepEqual(
      enterprise?.attributes.map((a) => a.name),
      ['employeeNumber', 'costCenter', 'organization', 'division', 'department', 'manager'],
    );
  });

  it('gives every attribute and sub-attribute all the characteristics §7 names', () => {
    const keys = ['name', 'type', 'multiValued', 'description', 'required', 'caseExact', 'mutability', 'returned', 'uniqueness'];
    const check = (a: ScimAttribute) => {
      for (const key of keys) assert.ok(key in a, `${a.name} lacks ${key}`);
      assert.equal(a.type === 'complex', a.subAttributes !== undefined, `${a.name}: subAttributes exactly on complex attributes`);
      if (a.type === 'reference') assert.ok(a.referenceTypes && a.referenceTypes.length > 0, `${a.name} lacks referenceTypes`);
      a.subAttributes?.forEach(check);
    };
    for (const doc of documents()) doc.attributes.forEach(check);
  });

  it('states the facts of the core attributes: userName required, server-unique, not case-exact; password write-only, never returned', () => {
    const [core] = documents();
    assert.ok(core);
    assert.deepEqual(
      pick(attribute(core, 'userName'), ['type', 'required', 'caseExact', 'uniqueness', 'mutability']),
      { type: 'string', required: true, caseExact: false, uniqueness: 'server', mutability: 'readWrite' },
    );
    assert.deepEqual(pick(attribute(core, 'password'), ['mutability', 'returned']), { mutability: 'writeOnly', returned: 'never' });
    assert.equal(attribute(core, 'active')?.type, 'boolean');
    assert.deepEqual(
      attribute(core, 'name')?.subAttributes?.map((s) => s.name),
      ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'],
    );
  });

  it('describes emails, phoneNumbers and addresses as multi-valued complex attributes with typed, canonical sub-attributes', () => {
    const [core] = documents();
    assert.ok(core);
    const emails = attribute(core, 'emails');
    assert.equal(emails?.multiValued, true);
    assert.equal(emails?.type, 'complex');
    assert.deepEqual(emails?.subAttributes?.map((s) => s.name), ['value', 'type', 'primary']);
    assert.deepEqual(sub(emails, 'type')?.canonicalValues, ['work', 'home', 'other']);
    assert.equal(sub(emails, 'primary')?.type, 'boolean');
    assert.deepEqual(attribute(core, 'phoneNumbers')?.subAttributes?.map((s) => s.name), ['value', 'type', 'primary']);
    assert.equal(sub(emails, 'value')?.required, true, 'the service refuses an email entry without a value');
    assert.equal(sub(attribute(core, 'phoneNumbers'), 'value')?.required, true);
    assert.deepEqual(
      attribute(core, 'addresses')?.subAttributes?.map((s) => s.name),
      ['formatted', 'streetAddress', 'locality', 'region', 'postalCode', 'country', 'type', 'primary'],
    );
  });

  it('describes the enterprise manager as value, $ref (a User reference) and a read-only displayName', () => {
    const [, enterprise] = documents();
    assert.ok(enterprise);
    const manager = attribute(enterprise, 'manager');
    assert.equal(manager?.type, 'complex');
    assert.equal(manager?.multiValued, false);
    assert.equal(sub(manager, 'value')?.type, 'string');
    assert.deepEqual(pick(sub(manager, '$ref'), ['type', 'referenceTypes', 'mutability']), { type: 'reference', referenceTypes: ['User'], mutability: 'readOnly' });
    assert.equal(sub(manager, 'displayName')?.mutability, 'readOnly');
  });

  it('renders as JSON without loss (no undefined members)', () => {
    const docs = documents();
    assert.deepEqual(JSON.parse(JSON.stringify(docs)), docs);
  });
});

describe('resolveAttribute', () => {
  it('resolves core attributes case-insensitively, with or without the core URN, to their canonical spelling', () => {
    for (const path of ['userName', 'USERNAME', 'username', `${CORE_USER_SCHEMA}:userName`, 'URN:IETF:PARAMS:SCIM:SCHEMAS:CORE:2.0:USER:username']) {
      const resolved = resolveAttribute(path);
      assert.equal(resolved?.schema, CORE_USER_SCHEMA, path);
      assert.equal(resolved?.name, 'userName', path);
      assert.equal(resolved?.sub, undefined, path);
    }
  });

  it('resolves sub-attributes: name.givenName, emails.value, meta.lastModified', () => {
    assert.deepEqual(strip(resolveAttribute('NAME.GIVENNAME')), { schema: CORE_USER_SCHEMA, name: 'name', sub: 'givenName' });
    assert.deepEqual(strip(resolveAttribute(`${CORE_USER_SCHEMA}:emails.Value`)), { schema: CORE_USER_SCHEMA, name: 'emails', sub: 'value' });
    assert.deepEqual(strip(resolveAttribute('meta.lastmodified')), { schema: CORE_USER_SCHEMA, name: 'meta', sub: 'lastModified' });
    assert.equal(resolveAttribute('meta.lastModified')?.subAttribute?.type, 'dateTime');
  });

  it('resolves the common attributes id, externalId, schemas and meta.* (they live at the top level)', () => {
    for (const [path, name, sub] of [
      ['id', 'id', undefined],
      ['externalid', 'externalId', undefined],
      ['schemas', 'schemas', undefined],
      ['meta.created', 'meta', 'created'],
      ['meta.version', 'meta', 'version'],
      ['meta.resourceType', 'meta', 'resourceType'],
      ['meta.location', 'meta', 'location'],
    ] as const) {
      const resolved = resolveAttribute(path);
      assert.equal(resolved?.schema, CORE_USER_SCHEMA, path);
      assert.equal(resolved?.name, name, path);
      assert.equal(resolved?.sub, sub, path);
    }
    assert.equal(resolveAttribute('id')?.attribute.mutability, 'readOnly');
    assert.equal(resolveAttribute('id')?.attribute.caseExact, true);
  });

  it('resolves enterprise attributes only with their URN (any case), never bare', () => {
    assert.deepEqual(strip(resolveAttribute(`${ENTERPRISE_USER_SCHEMA}:department`)), { schema: ENTERPRISE_USER_SCHEMA, name: 'department' });
    assert.deepEqual(strip(resolveAttribute(`${ENTERPRISE_USER_SCHEMA.toLowerCase()}:MANAGER.value`)), {
      schema: ENTERPRISE_USER_SCHEMA,
      name: 'manager',
      sub: 'value',
    });
    assert.deepEqual(strip(resolveAttribute({ uri: ENTERPRISE_USER_SCHEMA, attr: 'employeeNumber' })), { schema: ENTERPRISE_USER_SCHEMA, name: 'employeeNumber' });
    assert.equal(resolveAttribute('department'), undefined);
    assert.equal(resolveAttribute('manager.value'), undefined);
    assert.equal(resolveAttribute(`${CORE_USER_SCHEMA}:department`), undefined);
  });

  it('resolves a URN-less path inside a schema when asked to (the URN-keyed object of a PATCH value)', () => {
    assert.deepEqual(strip(resolveAttribute('Department', ENTERPRISE_USER_SCHEMA)), { schema: ENTERPRISE_USER_SCHEMA, name: 'department' });
    assert.equal(resolveAttribute('userName', ENTERPRISE_USER_SCHEMA), undefined);
    assert.equal(resolveAttribute(`${CORE_USER_SCHEMA}:department`, ENTERPRISE_USER_SCHEMA), undefined);
  });

  it('returns undefined for unknown names, sub-attributes, unknown URNs and paths with two dots', () => {
    for (const path of ['profileUrl', 'name.nickName', 'emails.display', 'urn:example:custom:User:userName', 'name.givenName.x', '', 'name.', '.name', 'meta.created.x']) {
      assert.equal(resolveAttribute(path), undefined, path);
    }
  });

  it('maps a schema URN in any case to its canonical spelling', () => {
    assert.equal(userSchemaUrn(ENTERPRISE_USER_SCHEMA.toUpperCase()), ENTERPRISE_USER_SCHEMA);
    assert.equal(userSchemaUrn(CORE_USER_SCHEMA), CORE_USER_SCHEMA);
    assert.equal(userSchemaUrn('urn:ietf:params:scim:schemas:core:2.0:Group'), undefined);
  });
});

describe('userAttributes (the AttributeLookup)', () => {
  it('describes attributes by type and case sensitivity: userName is not case-exact, id and externalId are', () => {
    assert.deepEqual(userAttributes.resolve({ attr: 'USERNAME' }), { name: 'userName', type: 'string', caseExact: false, multiValued: false });
    assert.deepEqual(userAttributes.resolve({ attr: 'id' }), { name: 'id', type: 'string', caseExact: true, multiValued: false });
    assert.equal(userAttributes.resolve({ attr: 'externalId' })?.caseExact, true);
    assert.deepEqual(userAttributes.resolve({ attr: 'active' }), { name: 'active', type: 'boolean', caseExact: false, multiValued: false });
    assert.deepEqual(userAttributes.resolve({ attr: 'meta', sub: 'created' }), { name: 'meta', subName: 'created', type: 'dateTime', caseExact: false, multiValued: false });
  });

  it('describes a sub-attribute of a multi-valued attribute reached from the resource as multi-valued', () => {
    assert.deepEqual(userAttributes.resolve({ attr: 'emails', sub: 'value' }), { name: 'emails', subName: 'value', type: 'string', caseExact: false, multiValued: true });
    assert.deepEqual(userAttributes.resolve({ attr: 'emails' }), { name: 'emails', type: 'complex', caseExact: false, multiValued: true });
  });

  it('resolves paths relative to a member when given the attribute as parent', () => {
    assert.deepEqual(userAttributes.resolve({ attr: 'TYPE' }, 'emails'), { name: 'emails', subName: 'type', type: 'string', caseExact: false, multiValued: false });
    assert.equal(userAttributes.resolve({ attr: 'primary' }, 'addresses')?.type, 'boolean');
    assert.equal(userAttributes.resolve({ attr: 'givenName' }, 'name')?.subName, 'givenName');
    assert.equal(userAttributes.resolve({ attr: 'value' }, 'manager')?.caseExact, true);
    assert.equal(userAttributes.resolve({ attr: 'userName' }, 'emails'), undefined);
    assert.equal(userAttributes.resolve({ attr: 'type', sub: 'x' }, 'emails'), undefined);
    assert.equal(userAttributes.resolve({ attr: 'type' }, 'userName'), undefined);
  });

  it('resolves enterprise attributes with the URN, or with the URN as parent, but not bare', () => {
    assert.deepEqual(userAttributes.resolve({ uri: ENTERPRISE_USER_SCHEMA, attr: 'department' }), {
      name: 'department',
      type: 'string',
      caseExact: false,
      multiValued: false,
    });
    assert.equal(userAttributes.resolve({ attr: 'department' }, ENTERPRISE_USER_SCHEMA)?.name, 'department');
    assert.equal(userAttributes.resolve({ attr: 'department' }), undefined);
    assert.equal(userAttributes.resolve({ uri: 'urn:example:other', attr: 'department' }), undefined);
  });

  it('lets the filter evaluator match Users with the schema case rules', () => {
    const user = {
      schemas: [CORE_USER_SCHEMA, ENTERPRISE_USER_SCHEMA],
      id: 'ab-12',
      userName: 'BJensen',
      emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }],
      [ENTERPRISE_USER_SCHEMA]: { department: 'R&D', manager: { value: 'mgr-1' } },
    };
    const matches = (filter: string) => matchesFilter(user, parseFilter(filter), userAttributes);
    assert.equal(matches('userName eq "bjensen"'), true);
    assert.equal(matches('id eq "AB-12"'), false);
    assert.equal(matches('emails[type eq "WORK" and primary eq true]'), true);
    assert.equal(matches(`${ENTERPRISE_USER_SCHEMA}:department eq "r&d"`), true);
    assert.equal(matches(`${ENTERPRISE_USER_SCHEMA}:manager.value eq "MGR-1"`), false);
    assert.equal(matches('department eq "R&D"'), false);
  });
});

function pick(a: ScimAttribute | undefined, keys: readonly (keyof ScimAttribute)[]) {
  return Object.fromEntries(keys.map((key) => [key, a?.[key]]));
}

/** The canonical spelling alone. */
function strip(resolved: ReturnType<typeof resolveAttribute>) {
  if (resolved === undefined) return undefined;
  const { schema, name, sub } = resolved;
  return { schema, name, ...(sub === undefined ? {} : { sub }) };
}
