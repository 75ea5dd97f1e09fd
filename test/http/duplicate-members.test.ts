/**
 * A member name repeated in one JSON object is a 400 that names it (I-JSON, RFC 7493
 * §2.3; CONTRACT §6), on both doors, in every body they read (REST POST, PUT, PATCH as
 * application/json and merge patch; SCIM as application/scim+json and application/json),
 * at any depth, whatever the spelling of the name (`"a"` and `"\u0061"` are one name).
 * Nothing is written: the stored user is the one a reader of either member would see.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { send } from '../helpers/http-client.js';
import { assertProblem } from '../helpers/problem-assertions.js';
import { scimRequest } from '../helpers/scim-client.js';
import { describeEachStore } from '../helpers/stores.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

/** A body's JSON text with `member` (a raw `"name":value` text) added as the first member of the object `{"<marker>":0}` stands for. */
const withMember = (body: Record<string, unknown>, member: string, marker = 'REPEAT') => JSON.stringify(body).replace(`"${marker}":0`, member);

describeEachStore('a member name repeated in one JSON object', (kind) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store: kind });
  });
  after(() => server.close());

  const raw = (method: string, path: string, type: string, body: string) => send(server.baseUrl, method, path, { headers: { 'content-type': type }, body });
  const created = async () => {
    const res = await server.post('/users', newUser({ attributes: { team: 'one' } }));
    assert.equal(res.status, 201, res.text);
    return res.body;
  };

  it('POST /users: {"username":"a1","username":"a2"} is a 400 naming username, and neither user exists', async () => {
    const user = newUser();
    const text = `{"username":"${user.username}a1","username":"${user.username}a2","email_address":"${user.email_address}"}`;
    const res = await raw('POST', '/users', 'application/json', text);
    assertProblem(res, 400, 'malformed-request');
    assert.match(res.body.detail, /"username" appears more than once in the body/);
    for (const suffix of ['a1', 'a2']) assert.equal((await server.get(`/users/username:${user.username}${suffix}`)).status, 404);
  });

  it('an escaped spelling of the same name repeats it: "active" and "\\u0061ctive"', async () => {
    const user = newUser();
    const res = await raw('POST', '/users', 'application/json', withMember({ REPEAT: 0, ...user }, '"active":true,"\\u0061ctive":false'));
    assertProblem(res, 400, 'malformed-request');
    assert.match(res.body.detail, /"active"/);
    assert.equal((await server.get(`/users/username:${user.username}`)).status, 404);
  });

  it('a repeat inside a nested object, at any depth, is named with the object that holds it', async () => {
    const user = newUser({ attributes: { a: { b: [1, { REPEAT: 0 }] } } });
    const res = await raw('POST', '/users', 'application/json', withMember(user, '"c":1,"c":2'));
    assertProblem(res, 400, 'malformed-request');
    assert.match(res.body.detail, /"c" appears more than once in the object at \/attributes\/a\/b\/1/);
  });

  it('PUT and PATCH (application/json and application/merge-patch+json) refuse it and change nothing', async () => {
    const user = await created();
    const replacement = { username: user.username, email_address: user.email_address, attributes: { REPEAT: 0 } };
    const attempts: [string, string, string][] = [
      ['PUT', 'application/json', withMember(replacement, '"team":"two","team":"three"')],
      ['PATCH', 'application/merge-patch+json', '{"attributes":{"team":"two","te\\u0061m":"three"}}'],
      ['PATCH', 'application/json', '{"display_name":"x","display_name":null}'],
    ];
    for (const [method, type, text] of attempts) {
      const res = await raw(method, `/users/${user.uid}`, type, text);
      assertProblem(res, 400, 'malformed-request');
      assert.match(res.body.detail, /appears more than once/, `${method} ${type}`);
    }
    const now = (await server.get(`/users/${user.uid}`)).body;
    assert.equal(now.version, 1);
    assert.deepEqual(now.attributes, { team: 'one' });
  });

  it('a repeat nested 10,000 levels deep in a body under the size limit is the same 400 on both doors, and creates nothing', async () => {
    const user = newUser();
    const nested = `${'{"a":'.repeat(10_000)}{"c":1,"c":2}${'}'.repeat(10_000)}`;
    const rest = JSON.stringify({ username: user.username, email_address: user.email_address, attributes: { REPEAT: 0 } }).replace('{"REPEAT":0}', nested);
    const res = await raw('POST', '/users', 'application/json', rest);
    assertProblem(res, 400, 'malformed-request');
    assert.match(res.body.detail, /^The member "c" appears more than once in the object at \/attributes(\/a){10000};/);
    assert.equal((await server.get(`/users/username:${user.username}`)).status, 404);
    const userName = `deepscim${String(user.username)}`;
    const scimBody = JSON.stringify({ schemas: [CORE], userName, emails: [{ value: `${userName}@example.com` }], [ENTERPRISE]: { REPEAT: 0 } }).replace('{"REPEAT":0}', nested);
    const scim = await raw('POST', '/scim/v2/Users', 'application/scim+json', scimBody);
    assert.equal(scim.status, 400, scim.text);
    assert.equal(scim.body.scimType, 'invalidSyntax', scim.text);
    assert.match(scim.body.detail, /"c" appears more than once/);
  });

  it('the same name in different objects, or in two elements of an array, is no repeat', async () => {
    const user = newUser({ attributes: { name: { name: 'x' }, list: [{ id: 1 }, { id: 2 }], username: 'also' } });
    const res = await server.post('/users', user);
    assert.equal(res.status, 201, res.text);
  });

  for (const type of ['application/scim+json', 'application/json']) {
    it(`SCIM (${type}): a repeated member in a create, a nested one in the enterprise extension and one in a PatchOp are 400 invalidSyntax naming it`, async () => {
      const userName = `dupscim${String(newUser().username)}`;
      const create = withMember({ schemas: [CORE], REPEAT: 0, emails: [{ value: `${userName}@example.com` }] }, `"userName":"${userName}","userN\\u0061me":"${userName}b"`);
      const enterprise = JSON.stringify({ schemas: [CORE, ENTERPRISE], userName, emails: [{ value: `${userName}@example.com` }], [ENTERPRISE]: { REPEAT: 0 } }).replace('"REPEAT":0', '"department":"a","department":"b"');
      for (const [text, name] of [[create, 'userName'], [enterprise, 'department']] as const) {
        const res = await raw('POST', '/scim/v2/Users', type, text);
        assert.equal(res.status, 400, res.text);
        assert.equal(res.body.scimType, 'invalidSyntax', res.text);
        assert.match(res.body.detail, new RegExp(`"${name}" appears more than once`));
      }
      const listed = await scimRequest(server.baseUrl, 'GET', `/scim/v2/Users?filter=${encodeURIComponent(`userName sw "${userName}"`)}`);
      assert.equal(listed.body.totalResults, 0, 'nothing was created');

      const user = await created();
      const patch = `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","path":"displayName","value":"a","value":"b"}]}`;
      const res = await raw('PATCH', `/scim/v2/Users/${user.uid}`, type, patch);
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.detail, /"value" appears more than once in the object at \/Operations\/0/);
      assert.equal((await server.get(`/users/${user.uid}`)).body.version, 1);
    });
  }

  it('SCIM: two spellings of one attribute in one object (names are case-insensitive, RFC 7643 §2.1) are a 400 invalidSyntax naming both, in a create, a PUT, a PatchOp and a SearchRequest; nothing changes', async () => {
    const userName = `casescim${String(newUser().username)}`;
    const scim = (method: string, path: string, body: unknown) => raw(method, `/scim/v2${path}`, 'application/scim+json', JSON.stringify(body));
    const refused = (res: Awaited<ReturnType<typeof raw>>, first: string, second: string, where: string) => {
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.scimType, 'invalidSyntax', res.text);
      assert.ok(res.body.detail.includes(`"${first}" and "${second}" in ${where} name one attribute`), res.text);
    };
    const creates: [Record<string, unknown>, string, string, string][] = [
      [{ schemas: [CORE], userName, USERNAME: `${userName}b`, emails: [{ value: `${userName}@example.com` }] }, 'userName', 'USERNAME', 'the body'],
      [{ schemas: [CORE], userName, active: true, Active: false, emails: [{ value: `${userName}@example.com` }] }, 'active', 'Active', 'the body'],
      [{ schemas: [CORE], userName, emails: [{ value: `${userName}@example.com`, VALUE: `other${userName}@example.com` }] }, 'value', 'VALUE', 'the object at /emails/0'],
      [{ schemas: [CORE, ENTERPRISE], userName, emails: [{ value: `${userName}@example.com` }], [ENTERPRISE]: { department: 'a', Department: 'b' } }, 'department', 'Department', `the object at /${ENTERPRISE}`],
    ];
    for (const [body, first, second, where] of creates) refused(await scim('POST', '/Users', body), first, second, where);
    const listed = await scimRequest(server.baseUrl, 'GET', `/scim/v2/Users?filter=${encodeURIComponent(`userName sw "${userName}"`)}`);
    assert.equal(listed.body.totalResults, 0, 'nothing was created');

    const user = await created();
    refused(await scim('PUT', `/Users/${user.uid}`, { schemas: [CORE], userName: user.username, emails: [{ value: user.email_address }], name: { givenName: 'A', GIVENNAME: 'B' } }), 'givenName', 'GIVENNAME', 'the object at /name');
    const patch = { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', value: { active: true, ACTIVE: false } }] };
    refused(await scim('PATCH', `/Users/${user.uid}`, patch), 'active', 'ACTIVE', 'the object at /Operations/0/value');
    const now = (await server.get(`/users/${user.uid}`)).body;
    assert.equal(now.version, 1);
    assert.equal(now.active, true);

    // A value without a path names attributes by path: the short and the qualified name, an object and
    // its dotted sub-attribute, the extension's URN both ways are two spellings too (the last had won).
    const twice: [Record<string, unknown>, string, string][] = [
      [{ active: true, [`${CORE}:active`]: false }, 'active', `${CORE}:active`],
      [{ name: { givenName: 'Obj' }, 'name.givenName': 'Dotted' }, 'name', 'name.givenName'],
      [{ 'name.givenName': 'Dotted', NAME: { givenName: 'Obj' } }, 'name.givenName', 'NAME'],
      [{ [`${ENTERPRISE}:department`]: 'q', [ENTERPRISE]: { department: 'o' } }, `${ENTERPRISE}:department`, `${ENTERPRISE}:department`],
    ];
    for (const [value, first, second] of twice) {
      const res = await scim('PATCH', `/Users/${user.uid}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', value }] });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.scimType, 'invalidSyntax', res.text);
      assert.ok(res.body.detail.includes(`"${first}" and "${second}"`), res.text);
    }
    assert.equal((await server.get(`/users/${user.uid}`)).body.version, 1, 'nothing changed');
    // Distinct attributes, sub-attributes and value filters of one attribute stay fine.
    const distinct = await scim('PATCH', `/Users/${user.uid}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { 'name.givenName': 'G', 'name.familyName': 'F', [`${ENTERPRISE}:department`]: 'D', [ENTERPRISE]: { costCenter: 'C' }, 'emails[type eq "work"].value': user.email_address, active: true } }],
    });
    assert.equal(distinct.status, 200, distinct.text);

    const search = { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'], count: 1, Count: 2 };
    refused(await scim('POST', '/Users/.search', search), 'count', 'Count', 'the body');
    // One spelling per object stays fine, whatever its case.
    const ok = await scim('POST', '/Users', { SCHEMAS: [CORE], USERNAME: userName, Emails: [{ VALUE: `${userName}@example.com` }] });
    assert.equal(ok.status, 201, ok.text);
  });
});
