/**
 * Bodies are JSON in UTF-8 and nothing else (CONTRACT §6): bytes that are not
 * well-formed UTF-8 are a 400, a charset other than UTF-8 or a content coding the
 * service does not decode is a 415, and none of them stores anything. A method
 * that takes no body accepts an empty one whatever its Content-Type.
 */
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, it } from 'node:test';
import { assertProblem } from '../helpers/problem-assertions.js';
import { describeEachStore } from '../helpers/stores.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

/** A user body as bytes, with `raw` spliced into the display name's JSON string. */
function bodyWithBytes(username: string, raw: number[]): Buffer {
  const [head, tail] = JSON.stringify({ username, email_address: `${username}@example.com`, display_name: 'A#B' }).split('#') as [string, string];
  return Buffer.concat([Buffer.from(head), Buffer.from(raw), Buffer.from(tail)]);
}

const INVALID_UTF8: [string, number[]][] = [
  ['a stray 0xFF byte', [0xff]],
  ['an overlong encoding of "/" (C0 AF)', [0xc0, 0xaf]],
  ['a CESU-8 surrogate pair (ED A0 80 ED B0 80)', [0xed, 0xa0, 0x80, 0xed, 0xb0, 0x80]],
  ['a truncated sequence (E2 82)', [0xe2, 0x82]],
  ['a lone continuation byte (80)', [0x80]],
];

describeEachStore('request body encoding', (kind) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store: kind });
  });
  after(() => server.close());

  const json = { 'content-type': 'application/json' };
  const stored = async (username: string) => (await server.get(`/users?username=${username}`)).body as unknown[];

  for (const [name, bytes] of INVALID_UTF8) {
    it(`a body with ${name} is a 400 and stores nothing`, async () => {
      const username = String(newUser().username);
      assertProblem(await server.request('POST', '/users', { headers: json, body: bodyWithBytes(username, bytes) }), 400, 'malformed-request');
      assert.deepEqual(await stored(username), []);
    });
  }

  it('an invalid byte in a PUT changes nothing', async () => {
    const created = await server.post('/users', newUser());
    const res = await server.request('PUT', `/users/${created.body.uid}`, { headers: json, body: bodyWithBytes(created.body.username, [0xff]) });
    assertProblem(res, 400, 'malformed-request');
    assert.equal((await server.get(`/users/${created.body.uid}`)).body.version, 1);
  });

  it('well-formed multi-byte UTF-8 is stored as sent', async () => {
    const username = String(newUser().username);
    const res = await server.request('POST', '/users', { headers: json, body: bodyWithBytes(username, [0xf0, 0x9f, 0x98, 0x80]) });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.display_name, 'A\u{1F600}B');
  });

  for (const charset of ['iso-8859-1', 'latin1', 'utf-16', 'us-ascii']) {
    it(`charset=${charset} is a 415 and stores nothing`, async () => {
      const user = newUser();
      const res = await server.request('POST', '/users', { headers: { 'content-type': `application/json; charset=${charset}` }, body: JSON.stringify(user) });
      assertProblem(res, 415, 'unsupported-media-type');
      assert.deepEqual(await stored(String(user.username)), []);
    });
  }

  for (const contentType of ['application/json; charset=utf-8', 'application/json; charset=UTF-8', 'application/json;charset="utf-8"', 'Application/JSON']) {
    it(`${contentType} is accepted`, async () => {
      const res = await server.request('POST', '/users', { headers: { 'content-type': contentType }, body: JSON.stringify(newUser()) });
      assert.equal(res.status, 201, res.text);
    });
  }

  for (const coding of ['gzip', 'deflate', 'br', 'identity, gzip']) {
    it(`Content-Encoding: ${coding} is a 415 with Accept-Encoding: identity, and stores nothing`, async () => {
      const user = newUser();
      const res = await server.request('POST', '/users', { headers: { ...json, 'content-encoding': coding }, body: gzipSync(JSON.stringify(user)) });
      assertProblem(res, 415, 'unsupported-media-type');
      assert.equal(res.headers['accept-encoding'], 'identity');
      assert.deepEqual(await stored(String(user.username)), []);
    });
  }

  it('Content-Encoding: identity is the same as none', async () => {
    const res = await server.request('POST', '/users', { headers: { ...json, 'content-encoding': 'identity' }, body: JSON.stringify(newUser()) });
    assert.equal(res.status, 201, res.text);
  });

  for (const contentType of ['application/json', 'text/plain', 'application/octet-stream', undefined]) {
    it(`DELETE with an empty body and Content-Type ${contentType ?? '(none)'}: 204`, async () => {
      const created = await server.post('/users', newUser());
      const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
      const res = await server.request('DELETE', `/users/${created.body.uid}`, { headers, body: '' });
      assert.equal(res.status, 204, res.text);
    });
  }

  it('GET with a default JSON Content-Type and no body: 200', async () => {
    const created = await server.post('/users', newUser());
    assert.equal((await server.get(`/users/${created.body.uid}`, json)).status, 200);
    assert.equal((await server.get('/users?limit=1', json)).status, 200);
  });

  it('DELETE with a body is a 400 and deletes nothing', async () => {
    const created = await server.post('/users', newUser());
    const res = await server.request('DELETE', `/users/${created.body.uid}`, { json: { confirm: true } });
    assertProblem(res, 400, 'malformed-request');
    assert.equal((await server.get(`/users/${created.body.uid}`)).status, 200);
  });

  it('POST with an empty body is still a 400: it takes one', async () => {
    assertProblem(await server.request('POST', '/users', { headers: json, body: '' }), 400, 'malformed-request');
  });
});
