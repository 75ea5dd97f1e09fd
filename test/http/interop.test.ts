/**
 * What HTTP clients and proxies commonly send works (issue: interop): any Accept
 * a JSON client sends, a default JSON Content-Type on requests without a body,
 * and an openapi-fetch-style client generated from the document.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

describe('requests as common clients send them', () => {
  let server: TestServer;
  let uid: string;
  before(async () => {
    server = await startTestServer();
    uid = (await server.post('/users', newUser())).body.uid;
  });
  after(() => server.close());

  for (const accept of ['*/*', 'application/json', 'application/json, application/problem+json', 'application/json;q=0.9, */*;q=0.1', 'application/problem+json, application/json']) {
    it(`Accept: ${accept} gets JSON, and a problem document for an error`, async () => {
      const read = await server.get(`/users/${uid}`, { accept });
      assert.equal(read.status, 200);
      assert.match(String(read.headers['content-type']), /^application\/json/);
      const missing = await server.get('/users/username:nobody-here', { accept });
      assert.equal(missing.status, 404);
      assert.equal(missing.headers['content-type'], 'application/problem+json; charset=utf-8');
    });
  }

  it('a default Content-Type: application/json on GET, HEAD and DELETE without a body', async () => {
    const json = { 'content-type': 'application/json', accept: 'application/json' };
    assert.equal((await server.request('GET', `/users/${uid}`, { headers: json })).status, 200);
    assert.equal((await server.request('HEAD', `/users/${uid}`, { headers: json })).status, 200);
    assert.equal((await server.request('GET', '/users?limit=1', { headers: json })).status, 200);
    assert.equal((await server.request('DELETE', `/users/${uid}`, { headers: json, body: '' })).status, 204);
  });
});
