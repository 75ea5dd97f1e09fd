/** The mapping between SCIM Users and the user resource (src/scim/scim-mapping.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { restBodyOf, scimPathOf } from '../../src/scim/scim-mapping.js';
import { ScimError } from '../../src/scim/scim-error.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

describe('SCIM mapping', () => {
  it('scimPathOf names a REST pointer as SCIM does: core, sub-attributes, list members and the enterprise extension', () => {
    assert.equal(scimPathOf('/username'), 'userName');
    assert.equal(scimPathOf('/email_address'), 'emails');
    assert.equal(scimPathOf('/name/given_name'), 'name.givenName');
    assert.equal(scimPathOf('/phone_numbers/0/value'), 'phoneNumbers[0].value');
    assert.equal(scimPathOf('/addresses/1/postal_code'), 'addresses[1].postalCode');
    assert.equal(scimPathOf('/department'), `${ENTERPRISE}:department`);
    assert.equal(scimPathOf('/manager/display_name'), `${ENTERPRISE}:manager.displayName`);
  });

  it('restBodyOf reads names in any case, string booleans, the enterprise object and a plain manager id; the primary email is email_address', () => {
    const body = restBodyOf({
      USERNAME: 'ann',
      Active: 'False',
      name: { GivenName: 'Ann' },
      emails: [{ value: 'home@example.com', type: 'home' }, { value: 'ann@example.com', type: 'work', primary: true }],
      [ENTERPRISE]: { Department: 'R&D', manager: 'boss-id' },
      password: 'never kept',
      groups: [],
      photos: [],
    });
    assert.deepEqual(body, {
      username: 'ann',
      active: false,
      name: { given_name: 'Ann' },
      emails: [{ value: 'home@example.com', type: 'home' }, { value: 'ann@example.com', type: 'work' }],
      department: 'R&D',
      manager: { value: 'boss-id' },
      email_address: 'ann@example.com',
    });
  });

  it('restBodyOf refuses what it cannot place, and a second primary', () => {
    const refused = (resource: unknown, scimType: string) =>
      assert.throws(() => restBodyOf(resource), (error: unknown) => error instanceof ScimError && error.scimType === scimType);
    refused({ userName: 'a', emails: [{ value: 'a@example.com' }], photos: [{ value: 'x' }] }, 'invalidValue');
    refused({ userName: 'a', emails: [{ value: 'a@example.com', primary: true }, { value: 'b@example.com', primary: true }] }, 'invalidValue');
    refused({ userName: 'not-an-address' }, 'invalidValue');
    refused([], 'invalidSyntax');
  });
});
