/**
 * A value past its size limit inside a member that may also be null (every profile
 * member: `name`, `title`, `display_name`) is told its limit at its own pointer, not
 * "/name is not valid: Name parts…": on POST and PATCH, through SCIM, and as an
 * import's reason.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createRecordChecker } from '../../src/cli/import-records.js';
import { assertProblem } from '../helpers/problem-assertions.js';
import { scimRequest } from '../helpers/scim-client.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

const LONG_NAME = 'x'.repeat(800);
const items = (body: any): { pointer: string; detail: string }[] => body?.errors ?? [];

describe('size limits inside nullable members are stated', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  it('POST: an 800-character given name, a 300-character title and display name each get their limit at their pointer', async () => {
    const res = await server.post('/users', newUser({ name: { given_name: LONG_NAME }, title: 't'.repeat(300), display_name: 'd'.repeat(300) }));
    assertProblem(res, 400, 'validation-failed');
    const byPointer = new Map(items(res.body).map((item) => [item.pointer, item.detail]));
    assert.match(byPointer.get('/name/given_name') ?? '', /must NOT have more than 256 characters/, res.text);
    assert.match(byPointer.get('/title') ?? '', /must NOT have more than 256 characters/, res.text);
    assert.match(byPointer.get('/display_name') ?? '', /must NOT have more than \d+ characters/, res.text);
    assert.doesNotMatch(res.body.detail, /Name parts/);
  });

  it('PATCH: the same limit for the name part', async () => {
    const created = await server.post('/users', newUser());
    assert.equal(created.status, 201, created.text);
    const res = await server.request('PATCH', `/users/${created.body.uid}`, { headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ name: { given_name: LONG_NAME } }) });
    assertProblem(res, 400, 'validation-failed');
    assert.deepEqual(items(res.body), [{ pointer: '/name/given_name', detail: 'must NOT have more than 256 characters' }]);
  });

  it('SCIM: name.givenName with its limit', async () => {
    const res = await scimRequest(server.baseUrl, 'POST', '/scim/v2/Users', { body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'limit.scim', emails: [{ value: 'limit.scim@example.com' }], name: { givenName: LONG_NAME } } });
    assert.equal(res.status, 400, res.text);
    assert.match(res.body.detail, /name\.givenName must NOT have more than 256 characters/);
  });

  it('import: the record is refused with the limit in its reason', () => {
    const check = createRecordChecker(() => new Date().toISOString());
    const result = check(newUser({ name: { given_name: LONG_NAME } }));
    assert.equal(result.ok, false);
    if (!result.ok) assert.equal(result.reason, '/name/given_name must NOT have more than 256 characters');
  });
});
