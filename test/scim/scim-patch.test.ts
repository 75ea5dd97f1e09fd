import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScimError, type ScimType } from '../../src/scim/scim-error.js';
import { applyScimPatch, MAX_PATCH_OPERATIONS, type PatchOperation } from '../../src/scim/scim-patch.js';
import { CORE_USER_SCHEMA, ENTERPRISE_USER_SCHEMA } from '../../src/scim/scim-user-schema.js';

const ENT = ENTERPRISE_USER_SCHEMA;

/** Barbara Jensen, after RFC 7643 §8.2, as this service holds her. */
function bjensen(): Record<string, unknown> {
  return {
    schemas: [CORE_USER_SCHEMA, ENT],
    id: '0190c5a2-7f76-7a3b-919d-413861904646',
    externalId: 'bjensen',
    userName: 'bjensen',
    name: { familyName: 'Jensen', givenName: 'Barbara', middleName: 'Jane' },
    displayName: 'Babs Jensen',
    active: true,
    emails: [
      { value: 'bjensen@example.com', type: 'work', primary: true },
      { value: 'babs@jensen.org', type: 'home' },
    ],
    phoneNumbers: [{ value: '555-555-5555', type: 'work' }],
    addresses: [
      { streetAddress: '100 Universal City Plaza', locality: 'Hollywood', region: 'CA', postalCode: '91608', country: 'US', type: 'work', primary: true },
      { streetAddress: '456 Hollywood Blvd', locality: 'Hollywood', region: 'CA', postalCode: '91608', country: 'US', type: 'home' },
    ],
    [ENT]: { employeeNumber: '701984', department: 'Tour Operations', manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d', displayName: 'John Smith' } },
  };
}

/** A minimal user: no optional attribute, no extension. */
function minimal(): Record<string, unknown> {
  return { schemas: [CORE_USER_SCHEMA], id: '0190c5a2-0000-7000-8000-000000000001', userName: 'ann', active: true };
}

const patch = (resource: Record<string, unknown>, ...operations: PatchOperation[]) => applyScimPatch(resource, operations);

function rejects(scimType: ScimType, run: () => unknown): ScimError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof ScimError, `expected a ScimError, got ${String(caught)}`);
  assert.equal(caught.status, 400);
  assert.equal(caught.scimType, scimType, caught.message);
  return caught;
}

const emailsOf = (resource: Record<string, unknown>) => resource.emails as Record<string, unknown>[] | undefined;
const extensionOf = (resource: Record<string, unknown>) => resource[ENT] as Record<string, unknown> | undefined;

describe('applyScimPatch: the request', () => {
  it('accepts op in any case: add, Add, REPLACE, Remove', () => {
    const result = patch(
      bjensen(),
      { op: 'add', path: 'nickName', value: 'Babs' },
      { op: 'Add', path: 'title', value: 'Tour Guide' },
      { op: 'REPLACE', path: 'displayName', value: 'Barbara' },
      { op: 'Remove', path: 'externalId' },
    );
    assert.equal(result.nickName, 'Babs');
    assert.equal(result.title, 'Tour Guide');
    assert.equal(result.displayName, 'Barbara');
    assert.equal('externalId' in result, false);
  });

  it('refuses any other op with invalidSyntax (move, copy, test, a missing or non-string op)', () => {
    for (const op of ['move', 'copy', 'test', 'delete', '', undefined, 1]) {
      rejects('invalidSyntax', () => applyScimPatch(bjensen(), [{ op, path: 'nickName', value: 'x' } as unknown as PatchOperation]));
    }
  });

  it('refuses an operation that is not an object with invalidSyntax', () => {
    rejects('invalidSyntax', () => applyScimPatch(bjensen(), ['add' as unknown as PatchOperation]));
    rejects('invalidSyntax', () => applyScimPatch(bjensen(), [null as unknown as PatchOperation]));
  });

  it('refuses remove without a path with noTarget (RFC 7644 §3.5.2.2)', () => {
    rejects('noTarget', () => patch(bjensen(), { op: 'remove' }));
  });

  it('refuses add and replace without a value with invalidValue', () => {
    rejects('invalidValue', () => patch(bjensen(), { op: 'add', path: 'nickName' }));
    rejects('invalidValue', () => patch(bjensen(), { op: 'replace' }));
  });

  it('refuses a path that is not a string with invalidPath', () => {
    rejects('invalidPath', () => applyScimPatch(bjensen(), [{ op: 'add', path: 3, value: 'x' } as unknown as PatchOperation]));
  });

  it('returns an equal copy for an empty list of operations', () => {
    const user = bjensen();
    const result = patch(user);
    assert.deepEqual(result, user);
    assert.notEqual(result, user);
  });

  it('never modifies its argument, also when an operation fails half-way', () => {
    const user = bjensen();
    const snapshot = structuredClone(user);
    patch(
      user,
      { op: 'replace', path: 'emails[type eq "work"].value', value: 'b@example.com' },
      { op: 'remove', path: 'name.givenName' },
      { op: 'add', value: { [ENT]: { department: 'R&D' } } },
    );
    assert.deepEqual(user, snapshot);
    rejects('noTarget', () => patch(user, { op: 'replace', path: 'emails[type eq "work"].value', value: 'x' }, { op: 'remove', path: 'emails[type eq "fax"]' }));
    assert.deepEqual(user, snapshot);
  });

  it('names the failing operation by its index in the message', () => {
    const error = rejects('invalidPath', () => patch(bjensen(), { op: 'add', path: 'nickName', value: 'x' }, { op: 'add', path: 'shoeSize', value: '9' }));
    assert.match(error.message, /^Operations\[1\]: /);
  });

  it(`accepts ${MAX_PATCH_OPERATIONS} operations and refuses more with tooMany (status 400)`, () => {
    const op: PatchOperation = { op: 'replace', path: 'nickName', value: 'x' };
    assert.equal(applyScimPatch(bjensen(), Array(MAX_PATCH_OPERATIONS).fill(op)).nickName, 'x');
    rejects('tooMany', () => applyScimPatch(bjensen(), Array(MAX_PATCH_OPERATIONS + 1).fill(op)));
  });

  it('applies operations in order, each seeing the result of the previous one', () => {
    const result = patch(
      minimal(),
      { op: 'add', path: 'emails', value: { value: 'a@example.com', type: 'work' } },
      { op: 'replace', path: 'emails[type eq "work"].value', value: 'b@example.com' },
      { op: 'add', path: 'nickName', value: 'first' },
      { op: 'replace', path: 'nickName', value: 'second' },
    );
    assert.deepEqual(result.emails, [{ value: 'b@example.com', type: 'work' }]);
    assert.equal(result.nickName, 'second');
  });
});

describe('applyScimPatch: the examples of RFC 7644 §3.5.2 (Group members read as User emails)', () => {
  it('§3.5.2.1 add with path appends values to a multi-valued attribute', () => {
    const result = patch(bjensen(), { op: 'add', path: 'emails', value: [{ value: 'barbara@example.org', type: 'other' }] });
    assert.deepEqual(result.emails, [...(emailsOf(bjensen()) ?? []), { value: 'barbara@example.org', type: 'other' }]);
  });

  it('§3.5.2.1 add without path: emails appended and nickname (any case) set as nickName', () => {
    const result = patch(minimal(), { op: 'add', value: { emails: [{ value: 'babs@jensen.org', type: 'home' }], nickname: 'Babs' } });
    assert.deepEqual(result.emails, [{ value: 'babs@jensen.org', type: 'home' }]);
    assert.equal(result.nickName, 'Babs');
    assert.equal('nickname' in result, false);
  });

  it('§3.5.2.2 remove a single value selected by a filter', () => {
    const result = patch(bjensen(), { op: 'remove', path: 'emails[value eq "babs@jensen.org"]' });
    assert.deepEqual(result.emails, [{ value: 'bjensen@example.com', type: 'work', primary: true }]);
  });

  it('§3.5.2.2 remove all values of a multi-valued attribute', () => {
    const result = patch(bjensen(), { op: 'remove', path: 'emails' });
    assert.equal('emails' in result, false);
  });

  it('§3.5.2.2 remove a value from a complex multi-valued attribute with a compound filter', () => {
    const result = patch(bjensen(), { op: 'remove', path: 'emails[type eq "work" and value ew "example.com"]' });
    assert.deepEqual(result.emails, [{ value: 'babs@jensen.org', type: 'home' }]);
  });

  it('§3.5.2.2 remove one value by filter, then add another', () => {
    const result = patch(
      bjensen(),
      { op: 'remove', path: 'emails[value eq "babs@jensen.org"]' },
      { op: 'add', path: 'emails', value: [{ value: 'barbara@jensen.org', type: 'home' }] },
    );
    assert.deepEqual(result.emails, [
      { value: 'bjensen@example.com', type: 'work', primary: true },
      { value: 'barbara@jensen.org', type: 'home' },
    ]);
  });

  it('§3.5.2.2 replace all values by remove then add', () => {
    const values = [
      { value: 'babs@example.org', type: 'work' },
      { value: 'barbara@jensen.org', type: 'home' },
    ];
    const result = patch(bjensen(), { op: 'remove', path: 'emails' }, { op: 'add', path: 'emails', value: values });
    assert.deepEqual(result.emails, values);
  });

  it('§3.5.2.3 replace all values of a multi-valued attribute in one operation', () => {
    const values = [
      { value: 'babs@example.org', type: 'work' },
      { value: 'barbara@jensen.org', type: 'home' },
    ];
    const result = patch(bjensen(), { op: 'replace', path: 'emails', value: values });
    assert.deepEqual(result.emails, values);
  });

  it('§3.5.2.3 replace a whole value selected by a filter: addresses[type eq "work"]', () => {
    const work = {
      type: 'work',
      streetAddress: '911 Universal City Plaza',
      locality: 'Hollywood',
      region: 'CA',
      postalCode: '91608',
      country: 'US',
      formatted: '911 Universal City Plaza\nHollywood, CA 91608 US',
      primary: true,
    };
    const result = patch(bjensen(), { op: 'replace', path: 'addresses[type eq "work"]', value: work });
    const addresses = result.addresses as Record<string, unknown>[];
    assert.deepEqual(addresses[0], {
      formatted: '911 Universal City Plaza\nHollywood, CA 91608 US',
      streetAddress: '911 Universal City Plaza',
      locality: 'Hollywood',
      region: 'CA',
      postalCode: '91608',
      country: 'US',
      type: 'work',
      primary: true,
    });
    assert.deepEqual(addresses[1], (bjensen().addresses as unknown[])[1]);
  });

  it('§3.5.2.3 replace a sub-attribute of the values a filter selects: addresses[type eq "work"].streetAddress', () => {
    const result = patch(bjensen(), { op: 'replace', path: 'addresses[type eq "work"].streetAddress', value: '1010 Broadway Ave' });
    const addresses = result.addresses as Record<string, unknown>[];
    assert.deepEqual(addresses[0], { ...(bjensen().addresses as Record<string, unknown>[])[0], streetAddress: '1010 Broadway Ave' });
    assert.equal(addresses[1]?.streetAddress, '456 Hollywood Blvd');
  });

  it('§3.5.2.3 replace without path: emails replaced whole and nickname set', () => {
    const emails = [
      { value: 'bjensen@example.com', type: 'work', primary: true },
      { value: 'babs@jensen.org', type: 'home' },
    ];
    const result = patch({ ...bjensen(), emails: [{ value: 'old@example.com', type: 'other' }] }, { op: 'replace', value: { emails, nickname: 'Babs' } });
    assert.deepEqual(result.emails, emails);
    assert.equal(result.nickName, 'Babs');
  });
});

describe('applyScimPatch: add, replace and remove semantics', () => {
  it('add to a single-valued attribute replaces its value', () => {
    assert.equal(patch(bjensen(), { op: 'add', path: 'displayName', value: 'Barbara J.' }).displayName, 'Barbara J.');
  });

  it('add of a single object to a multi-valued attribute appends it', () => {
    const result = patch(bjensen(), { op: 'add', path: 'phoneNumbers', value: { value: '555-555-4444', type: 'mobile' } });
    assert.deepEqual(result.phoneNumbers, [
      { value: '555-555-5555', type: 'work' },
      { value: '555-555-4444', type: 'mobile' },
    ]);
  });

  it('add of a value the multi-valued attribute already holds changes nothing', () => {
    const result = patch(bjensen(), { op: 'add', path: 'emails', value: { type: 'home', value: 'babs@jensen.org' } });
    assert.deepEqual(result.emails, emailsOf(bjensen()));
  });

  it('add of a complex value merges into the existing one, keeping unspecified sub-attributes', () => {
    const result = patch(bjensen(), { op: 'add', path: 'name', value: { givenName: 'Babs' } });
    assert.deepEqual(result.name, { familyName: 'Jensen', givenName: 'Babs', middleName: 'Jane' });
  });

  it('replace of a complex value replaces the given sub-attributes and keeps the others', () => {
    const result = patch(bjensen(), { op: 'replace', path: 'name', value: { GivenName: 'Babs', familyName: 'Jensen-Smith' } });
    assert.deepEqual(result.name, { familyName: 'Jensen-Smith', givenName: 'Babs', middleName: 'Jane' });
  });

  it('replace without path merges a complex attribute the same way', () => {
    const result = patch(bjensen(), { op: 'replace', value: { name: { givenName: 'Babs' } } });
    assert.deepEqual(result.name, { familyName: 'Jensen', givenName: 'Babs', middleName: 'Jane' });
  });

  it('add or replace of a sub-attribute creates the complex attribute when absent', () => {
    assert.deepEqual(patch(minimal(), { op: 'add', path: 'name.givenName', value: 'Ann' }).name, { givenName: 'Ann' });
    assert.deepEqual(patch(minimal(), { op: 'replace', path: 'name.familyName', value: 'Lee' }).name, { familyName: 'Lee' });
  });

  it('replace of an absent attribute adds it (RFC 7644 §3.5.2.3)', () => {
    assert.equal(patch(minimal(), { op: 'replace', path: 'title', value: 'Engineer' }).title, 'Engineer');
  });

  it('add with a filter merges the value into the selected members', () => {
    const result = patch(bjensen(), { op: 'add', path: 'emails[type eq "home"]', value: { value: 'barbara@jensen.org' } });
    assert.deepEqual(emailsOf(result)?.[1], { value: 'barbara@jensen.org', type: 'home' });
  });

  it('add or replace with a filter and a sub-attribute changes every selected member', () => {
    const user = { ...minimal(), phoneNumbers: [{ value: '1', type: 'work' }, { value: '2', type: 'WORK' }, { value: '3', type: 'home' }] };
    const result = patch(user, { op: 'replace', path: 'phoneNumbers[type eq "work"].value', value: '9' });
    assert.deepEqual(result.phoneNumbers, [{ value: '9', type: 'work' }, { value: '9', type: 'WORK' }, { value: '3', type: 'home' }]);
  });

  it('compares filter values with the schema case rules: email type is not case-exact', () => {
    const result = patch(bjensen(), { op: 'remove', path: 'emails[TYPE eq "Home"]' });
    assert.deepEqual(result.emails, [{ value: 'bjensen@example.com', type: 'work', primary: true }]);
  });

  it('remove of a sub-attribute in a value path removes just that sub-attribute', () => {
    const result = patch(bjensen(), { op: 'remove', path: 'emails[type eq "work"].type' });
    assert.deepEqual(result.emails, [
      { value: 'bjensen@example.com', primary: true },
      { value: 'babs@jensen.org', type: 'home' },
    ]);
  });

  it('remove of a sub-attribute of a multi-valued attribute without filter removes it from every member', () => {
    const result = patch(bjensen(), { op: 'remove', path: 'emails.type' });
    assert.deepEqual(result.emails, [{ value: 'bjensen@example.com', primary: true }, { value: 'babs@jensen.org' }]);
  });

  it('remove of a sub-attribute of a complex attribute removes just that, and the attribute once empty', () => {
    assert.deepEqual(patch(bjensen(), { op: 'remove', path: 'name.middleName' }).name, { familyName: 'Jensen', givenName: 'Barbara' });
    const result = patch({ ...minimal(), name: { givenName: 'Ann' } }, { op: 'remove', path: 'name.givenName' });
    assert.equal('name' in result, false);
  });

  it('remove of the last member leaves the attribute unassigned, not an empty array', () => {
    const result = patch(bjensen(), { op: 'remove', path: 'phoneNumbers[type eq "work"]' });
    assert.equal('phoneNumbers' in result, false);
  });

  it('remove of an absent attribute changes nothing', () => {
    assert.deepEqual(patch(minimal(), { op: 'remove', path: 'nickName' }, { op: 'remove', path: 'emails' }, { op: 'remove', path: 'name.givenName' }), minimal());
  });

  it('remove with a filter that selects nothing is noTarget, also when the attribute is absent', () => {
    rejects('noTarget', () => patch(bjensen(), { op: 'remove', path: 'emails[type eq "other"]' }));
    rejects('noTarget', () => patch(minimal(), { op: 'remove', path: 'emails[type eq "work"]' }));
    rejects('noTarget', () => patch(minimal(), { op: 'remove', path: 'emails[type eq "work"].value' }));
  });

  it('replace with null unassigns the attribute (RFC 7643 §2.5)', () => {
    const result = patch(bjensen(), { op: 'replace', path: 'displayName', value: null }, { op: 'replace', value: { title: null, name: { middleName: null } } });
    assert.equal('displayName' in result, false);
    assert.deepEqual(result.name, { familyName: 'Jensen', givenName: 'Barbara' });
  });
});

describe('applyScimPatch: attribute names', () => {
  it('writes canonical spellings whatever case the client used, in paths, value keys and sub-attributes', () => {
    const result = patch(
      minimal(),
      { op: 'add', path: 'DISPLAYNAME', value: 'Ann' },
      { op: 'add', value: { NAME: { GIVENNAME: 'Ann' }, Emails: [{ VALUE: 'ann@example.com', Type: 'work', PRIMARY: true }] } },
      { op: 'add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:user:Department', value: 'R&D' },
    );
    assert.deepEqual(result, {
      schemas: [CORE_USER_SCHEMA, ENT],
      id: minimal().id,
      userName: 'ann',
      active: true,
      displayName: 'Ann',
      name: { givenName: 'Ann' },
      emails: [{ value: 'ann@example.com', type: 'work', primary: true }],
      [ENT]: { department: 'R&D' },
    });
  });

  it('accepts the core URN prefix on paths and value keys', () => {
    const result = patch(
      minimal(),
      { op: 'add', path: `${CORE_USER_SCHEMA}:nickName`, value: 'Annie' },
      { op: 'add', value: { [`${CORE_USER_SCHEMA}:name.familyName`]: 'Lee' } },
    );
    assert.equal(result.nickName, 'Annie');
    assert.deepEqual(result.name, { familyName: 'Lee' });
  });

  it('refuses an unknown attribute or sub-attribute with invalidPath, in a path or a value', () => {
    rejects('invalidPath', () => patch(minimal(), { op: 'add', path: 'shoeSize', value: '9' }));
    rejects('invalidPath', () => patch(minimal(), { op: 'add', path: 'name.nickName', value: 'x' }));
    rejects('invalidPath', () => patch(minimal(), { op: 'add', value: { shoeSize: '9' } }));
    rejects('invalidPath', () => patch(minimal(), { op: 'add', path: 'name', value: { shoeSize: '9' } }));
    rejects('invalidPath', () => patch(minimal(), { op: 'add', path: 'emails', value: [{ value: 'a@b', display: 'A' }] }));
    rejects('invalidPath', () => patch(minimal(), { op: 'add', path: 'emails[type eq "work"].display', value: 'x' }));
    rejects('invalidPath', () => patch(minimal(), { op: 'add', value: { 'urn:example:custom:2.0:User': { x: '1' } } }));
  });

  it('refuses an enterprise attribute without its URN with invalidPath', () => {
    rejects('invalidPath', () => patch(bjensen(), { op: 'replace', path: 'department', value: 'R&D' }));
    rejects('invalidPath', () => patch(bjensen(), { op: 'replace', value: { department: 'R&D' } }));
  });

  it('refuses a path that does not parse with invalidPath', () => {
    for (const path of ['', 'emails[type eq "work"', 'emails[type eq]', 'name..givenName', '"userName"', 'emails[type eq "work"].value.x']) {
      rejects('invalidPath', () => patch(bjensen(), { op: 'replace', path, value: 'x' }));
    }
  });

  it('refuses a value path on a single-valued attribute with invalidPath', () => {
    rejects('invalidPath', () => patch(bjensen(), { op: 'replace', path: 'name[givenName eq "Barbara"].familyName', value: 'x' }));
    rejects('invalidPath', () => patch(bjensen(), { op: 'remove', path: 'userName[value eq "bjensen"]' }));
  });

  it('refuses a value filter naming something other than a sub-attribute with invalidPath', () => {
    rejects('invalidPath', () => patch(bjensen(), { op: 'remove', path: 'emails[display eq "x"]' }));
    rejects('invalidPath', () => patch(bjensen(), { op: 'remove', path: 'emails[userName eq "x"]' }));
  });
});

describe('applyScimPatch: values typed by the schema', () => {
  it('refuses a number, boolean, array or object for a string attribute with invalidValue', () => {
    for (const value of [42, true, ['x'], { value: 'x' }]) {
      rejects('invalidValue', () => patch(bjensen(), { op: 'replace', path: 'displayName', value }));
    }
    rejects('invalidValue', () => patch(bjensen(), { op: 'replace', path: 'emails[type eq "work"].value', value: 42 }));
    rejects('invalidValue', () => patch(bjensen(), { op: 'replace', value: { [ENT]: { employeeNumber: 701984 } } }));
  });

  it('refuses a value that is not an object for a complex attribute, and members that are not objects', () => {
    rejects('invalidValue', () => patch(bjensen(), { op: 'replace', path: 'name', value: 'Barbara Jensen' }));
    rejects('invalidValue', () => patch(bjensen(), { op: 'add', path: 'emails', value: ['babs@example.org'] }));
    rejects('invalidValue', () => patch(bjensen(), { op: 'add', path: 'emails', value: 'babs@example.org' }));
  });

  it('refuses a path-less value that is not an object, and a schema URN key whose value is not an object', () => {
    rejects('invalidValue', () => patch(bjensen(), { op: 'add', value: 'Babs' }));
    rejects('invalidValue', () => patch(bjensen(), { op: 'replace', value: [{ nickName: 'Babs' }] }));
    rejects('invalidValue', () => patch(bjensen(), { op: 'replace', value: { [ENT]: 'R&D' } }));
  });

  it('turns the strings "True", "False", "true", "FALSE" into booleans (Entra), for active and primary', () => {
    assert.equal(patch(bjensen(), { op: 'replace', path: 'active', value: 'False' }).active, false);
    assert.equal(patch(bjensen(), { op: 'replace', value: { active: 'FALSE' } }).active, false);
    assert.equal(patch({ ...bjensen(), active: false }, { op: 'Replace', path: 'active', value: 'True' }).active, true);
    assert.equal(patch({ ...bjensen(), active: false }, { op: 'replace', path: 'active', value: 'true' }).active, true);
    const result = patch(bjensen(), { op: 'replace', path: 'emails[type eq "home"].primary', value: 'True' });
    assert.deepEqual(result.emails, [
      { value: 'bjensen@example.com', type: 'work', primary: false },
      { value: 'babs@jensen.org', type: 'home', primary: true },
    ]);
  });

  it('refuses other strings and numbers for a boolean with invalidValue', () => {
    for (const value of ['yes', '0', '1', 'truee', ' true', '', 0, 1]) {
      rejects('invalidValue', () => patch(bjensen(), { op: 'replace', path: 'active', value }));
    }
  });

  it('accepts and drops a password: never present in the result', () => {
    const result = patch(
      bjensen(),
      { op: 'replace', path: 'password', value: 't1meMa$heen' },
      { op: 'add', value: { password: 'other', nickName: 'Babs' } },
      { op: 'remove', path: 'password' },
    );
    assert.equal('password' in result, false);
    assert.equal(result.nickName, 'Babs');
    rejects('invalidValue', () => patch(bjensen(), { op: 'replace', path: 'password', value: 12345 }));
  });
});

describe('applyScimPatch: mutability and required attributes', () => {
  it('refuses any operation on id, meta or schemas with mutability', () => {
    for (const path of ['id', 'ID', 'meta', 'meta.lastModified', 'meta.version', 'schemas', `${CORE_USER_SCHEMA}:id`]) {
      rejects('mutability', () => patch(bjensen(), { op: 'replace', path, value: 'x' }));
      rejects('mutability', () => patch(bjensen(), { op: 'add', path, value: 'x' }));
      rejects('mutability', () => patch(bjensen(), { op: 'remove', path }));
    }
    rejects('mutability', () => patch(bjensen(), { op: 'replace', value: { id: 'other' } }));
    rejects('mutability', () => patch(bjensen(), { op: 'replace', value: { schemas: [CORE_USER_SCHEMA] } }));
    rejects('mutability', () => patch(bjensen(), { op: 'replace', value: { 'meta.created': '2020-01-01T00:00:00Z' } }));
  });

  it('refuses writing or removing the read-only manager.displayName by path with mutability', () => {
    rejects('mutability', () => patch(bjensen(), { op: 'replace', path: `${ENT}:manager.displayName`, value: 'Boss' }));
    rejects('mutability', () => patch(bjensen(), { op: 'remove', path: `${ENT}:manager.displayName` }));
  });

  it('ignores manager.displayName inside a manager object, as PUT ignores read-only values', () => {
    const same = patch(bjensen(), { op: 'replace', path: `${ENT}:manager`, value: { value: '26118915-6090-4610-87e4-49d8ca9f808d', displayName: 'Someone' } });
    assert.deepEqual(extensionOf(same)?.manager, { value: '26118915-6090-4610-87e4-49d8ca9f808d', displayName: 'John Smith' });
  });

  it('drops the derived manager.displayName when the manager changes, since it names the previous manager', () => {
    const result = patch(bjensen(), { op: 'replace', path: `${ENT}:manager`, value: { value: 'mgr-2', displayName: 'Someone' } });
    assert.deepEqual(extensionOf(result)?.manager, { value: 'mgr-2' });
    const bySub = patch(bjensen(), { op: 'replace', path: `${ENT}:manager.value`, value: 'mgr-3' });
    assert.deepEqual(extensionOf(bySub)?.manager, { value: 'mgr-3' });
  });

  it('refuses removing userName, or replacing it with null, with invalidValue', () => {
    rejects('invalidValue', () => patch(bjensen(), { op: 'remove', path: 'userName' }));
    rejects('invalidValue', () => patch(bjensen(), { op: 'replace', path: 'userName', value: null }));
    rejects('invalidValue', () => patch(bjensen(), { op: 'replace', value: { userName: null } }));
    assert.equal(patch(bjensen(), { op: 'replace', path: 'userName', value: 'babs' }).userName, 'babs');
  });
});

describe('applyScimPatch: the enterprise extension', () => {
  it('sets an enterprise attribute by URN-prefixed path, and adds the URN to schemas', () => {
    const result = patch(minimal(), { op: 'add', path: `${ENT}:department`, value: 'R&D' });
    assert.deepEqual(result[ENT], { department: 'R&D' });
    assert.deepEqual(result.schemas, [CORE_USER_SCHEMA, ENT]);
  });

  it('sets enterprise attributes from a path-less value with URN-prefixed keys (Entra)', () => {
    const result = patch(bjensen(), {
      op: 'Replace',
      value: { [`${ENT}:department`]: 'R&D', [`${ENT}:manager`]: 'id-123', [`${ENT}:costCenter`]: '4130' },
    });
    assert.deepEqual(result[ENT], { employeeNumber: '701984', department: 'R&D', manager: { value: 'id-123' }, costCenter: '4130' });
  });

  it('merges a URN-keyed object into the extension, keeping attributes it does not name (Okta)', () => {
    const result = patch(bjensen(), { op: 'replace', value: { [ENT]: { Department: 'R&D', division: 'Film' } } });
    assert.deepEqual(result[ENT], {
      employeeNumber: '701984',
      department: 'R&D',
      manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d', displayName: 'John Smith' },
      division: 'Film',
    });
  });

  it('turns a manager given as a plain string into { value } (Entra), with or without the URN path', () => {
    assert.deepEqual(extensionOf(patch(minimal(), { op: 'Add', path: `${ENT}:manager`, value: 'id-123' }))?.manager, { value: 'id-123' });
    assert.deepEqual(extensionOf(patch(minimal(), { op: 'add', path: `${ENT}:manager.value`, value: 'id-9' }))?.manager, { value: 'id-9' });
  });

  it('removes the manager by path, and the extension with its schemas entry once empty', () => {
    const user = { ...minimal(), schemas: [CORE_USER_SCHEMA, ENT], [ENT]: { manager: { value: 'id-1' } } };
    const result = patch(user, { op: 'Remove', path: `${ENT}:manager` });
    assert.equal(ENT in result, false);
    assert.deepEqual(result.schemas, [CORE_USER_SCHEMA]);
  });

  it('treats a path that is the enterprise URN as the whole extension: remove drops it, replace merges into it', () => {
    const removed = patch(bjensen(), { op: 'remove', path: ENT });
    assert.equal(ENT in removed, false);
    assert.deepEqual(removed.schemas, [CORE_USER_SCHEMA]);
    const replaced = patch(minimal(), { op: 'replace', path: ENT.toLowerCase(), value: { department: 'R&D' } });
    assert.deepEqual(replaced[ENT], { department: 'R&D' });
  });

  it('refuses a remove whose path is the core URN with invalidPath', () => {
    rejects('invalidPath', () => patch(bjensen(), { op: 'remove', path: CORE_USER_SCHEMA }));
  });
});

describe('applyScimPatch: identity-provider requests', () => {
  it('deactivates a user the Okta way: replace without path, value { active: false }', () => {
    const result = patch(bjensen(), { op: 'replace', value: { active: false } });
    assert.deepEqual(result, { ...bjensen(), active: false });
  });

  it('accepts dotted sub-attribute keys in a path-less value (Entra): "name.givenName"', () => {
    const result = patch(bjensen(), { op: 'Replace', value: { 'name.givenName': 'Ann', 'name.familyName': 'Lee', displayName: 'Ann Lee' } });
    assert.deepEqual(result.name, { familyName: 'Lee', givenName: 'Ann', middleName: 'Jane' });
    assert.equal(result.displayName, 'Ann Lee');
  });

  it('creates the member a filtered add names when none matches: emails[type eq "work"].value', () => {
    const result = patch({ ...minimal(), emails: [{ value: 'ann@home.example', type: 'home' }] }, { op: 'Add', path: 'emails[type eq "work"].value', value: 'ann@example.com' });
    assert.deepEqual(result.emails, [
      { value: 'ann@home.example', type: 'home' },
      { value: 'ann@example.com', type: 'work' },
    ]);
  });

  it('creates the member a filtered replace names when the attribute is absent: phoneNumbers[type eq "mobile"].value', () => {
    const result = patch(minimal(), { op: 'Replace', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' });
    assert.deepEqual(result.phoneNumbers, [{ value: '+1 555 0100', type: 'mobile' }]);
  });

  it('builds the created member from every eq comparison joined by and, typed by the schema', () => {
    const result = patch(minimal(), { op: 'add', path: 'addresses[type eq "work" and primary eq "True"].locality', value: 'Hollywood' });
    assert.deepEqual(result.addresses, [{ locality: 'Hollywood', type: 'work', primary: true }]);
    const whole = patch(minimal(), { op: 'replace', path: 'emails[type eq "work"]', value: { value: 'ann@example.com' } });
    assert.deepEqual(whole.emails, [{ value: 'ann@example.com', type: 'work' }]);
  });

  it('then updates the member it created instead of creating another', () => {
    const result = patch(
      minimal(),
      { op: 'add', path: 'emails[type eq "work"].value', value: 'a@example.com' },
      { op: 'add', path: 'emails[type eq "work"].primary', value: 'True' },
      { op: 'replace', path: 'emails[type eq "work"].value', value: 'b@example.com' },
    );
    assert.deepEqual(result.emails, [{ value: 'b@example.com', type: 'work', primary: true }]);
  });

  it('refuses with noTarget a filtered add or replace that matches nothing when the filter is not eq joined by and', () => {
    for (const path of [
      'emails[type ne "work"].value',
      'emails[type eq "work" or type eq "home"].value',
      'emails[value co "example"].value',
      'emails[type pr].value',
      'emails[not (type eq "work")].value',
      'emails[type eq null].value',
      'emails[type eq "work" and type eq "home"].value',
    ]) {
      rejects('noTarget', () => patch(minimal(), { op: 'replace', path, value: 'x@example.com' }));
      rejects('noTarget', () => patch(minimal(), { op: 'add', path, value: 'x@example.com' }));
    }
  });
});

describe('applyScimPatch: primary (RFC 7643 §2.4)', () => {
  it('keeps the member an add makes primary and sets the previous primary to false', () => {
    const result = patch(bjensen(), { op: 'add', path: 'emails', value: { value: 'new@example.com', type: 'other', primary: true } });
    assert.deepEqual(result.emails, [
      { value: 'bjensen@example.com', type: 'work', primary: false },
      { value: 'babs@jensen.org', type: 'home' },
      { value: 'new@example.com', type: 'other', primary: true },
    ]);
  });

  it('keeps the member a filtered replace makes primary', () => {
    const result = patch(bjensen(), { op: 'replace', path: 'addresses[type eq "home"]', value: { type: 'home', locality: 'Burbank', primary: true } });
    const addresses = result.addresses as Record<string, unknown>[];
    assert.equal(addresses[0]?.primary, false);
    assert.deepEqual(addresses[1], { locality: 'Burbank', type: 'home', primary: true });
  });

  it('leaves a single primary alone when an operation edits that member', () => {
    const result = patch(bjensen(), { op: 'replace', path: 'emails[type eq "work"].value', value: 'b@example.com' });
    assert.deepEqual(emailsOf(result)?.[0], { value: 'b@example.com', type: 'work', primary: true });
    assert.equal(emailsOf(result)?.[1]?.primary, undefined);
  });

  it('refuses an operation that itself makes two members primary with invalidValue', () => {
    rejects('invalidValue', () =>
      patch(minimal(), { op: 'add', path: 'emails', value: [{ value: 'a@x', primary: true }, { value: 'b@x', primary: true }] }),
    );
    const twoEmails = { ...minimal(), emails: [{ value: 'a@x' }, { value: 'b@x' }] };
    rejects('invalidValue', () => patch(twoEmails, { op: 'replace', path: 'emails.primary', value: true }));
  });
});
