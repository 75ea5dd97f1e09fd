/**
 * POST /users and the canonical read GET/HEAD /users/{uid} (CONTRACT §1, §2, §5, §6),
 * over HTTP against the real app.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { assertProblem } from '../helpers/problem-assertions.js';
import { describeEachStore } from '../helpers/stores.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const RFC3339_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const STRONG_ETAG = /^"[\x21\x23-\x7e\x80-\xff]*"$/;

/** A response exactly as it arrived: the status, every header line (names lower-cased) and the bytes after the head. */
interface RawResponse {
  status: number;
  headers: Array<[name: string, value: string]>;
  rest: string;
}

/** Sends one request with `Connection: close` over a plain socket and reads until the server closes it. */
function rawRequest(baseUrl: string, method: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const head = [`${method} ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close', ...Object.entries(headers).map(([n, v]) => `${n}: ${v}`)];
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(`${head.join('\r\n')}\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return reject(new Error(`no complete response head: ${JSON.stringify(text)}`));
      const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
      const fields = lines.map((line): [string, string] => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]);
      resolve({ status: Number(statusLine.split(' ')[1]), headers: fields, rest: text.slice(end + 4) });
    });
  });
}

const fieldValues = (res: RawResponse, name: string) => res.headers.filter(([n]) => n === name).map(([, v]) => v);

/** A 304 as RFC 9110 §15.4.5 wants it: the validators and caching headers of the 200, and nothing describing a body. */
function assertNotModified(res: RawResponse, etag: string, uid: string, what: string): void {
  assert.equal(res.status, 304, what);
  assert.deepEqual(fieldValues(res, 'etag'), [etag], `${what}: ETag`);
  assert.deepEqual(fieldValues(res, 'content-location'), [`/users/${uid}`], `${what}: Content-Location`);
  assert.deepEqual(fieldValues(res, 'cache-control'), ['no-cache'], `${what}: Cache-Control`);
  for (const name of ['content-length', 'content-type', 'transfer-encoding']) {
    assert.deepEqual(fieldValues(res, name), [], `${what}: a 304 must not carry ${name}: ${JSON.stringify(res.headers)}`);
  }
  assert.equal(res.rest, '', `${what}: a 304 has no body`);
}

describeEachStore('POST /users and GET/HEAD /users/{uid}', (store) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store });
  });
  after(async () => server.close());

  async function created(overrides: Record<string, unknown> = {}) {
    const res = await server.post('/users', newUser(overrides));
    assert.equal(res.status, 201, res.text);
    return res;
  }

  describe('POST /users', () => {
    it('answers 201 with every field of the user and the defaults of the omitted ones', async () => {
      const body = newUser();
      const res = await server.post('/users', body);
      assert.equal(res.status, 201, res.text);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.deepEqual(Object.keys(res.body), [
        'uid', 'username', 'email_address', 'legacy_ids', 'external_id', 'active', 'display_name', 'name', 'nick_name', 'title', 'user_type',
        'preferred_language', 'locale', 'timezone', 'emails', 'phone_numbers', 'addresses', 'employee_number', 'cost_center', 'organization',
        'division', 'department', 'manager', 'attributes', 'created_at', 'updated_at', 'version',
      ]);
      assert.equal(res.body.username, body.username);
      assert.equal(res.body.email_address, body.email_address);
      assert.deepEqual(res.body.legacy_ids, []);
      assert.equal(res.body.external_id, null);
      assert.equal(res.body.active, true);
      assert.equal(res.body.display_name, null);
      for (const member of ['name', 'nick_name', 'title', 'user_type', 'preferred_language', 'locale', 'timezone', 'employee_number', 'cost_center', 'organization', 'division', 'department', 'manager']) {
        assert.equal(res.body[member], null, member);
      }
      assert.deepEqual(res.body.emails, [{ value: body.email_address, primary: true }], 'emails holds email_address as its primary entry');
      assert.deepEqual([res.body.phone_numbers, res.body.addresses], [[], []]);
      assert.deepEqual(res.body.attributes, {});
      assert.equal(res.body.version, 1);
    });

    it('assigns a lower-case UUIDv7 uid and equal RFC 3339 UTC timestamps with milliseconds', async () => {
      const start = Date.now();
      const { body } = await created();
      assert.match(body.uid, UUID_V7);
      assert.match(body.created_at, RFC3339_MS_UTC);
      assert.equal(body.updated_at, body.created_at);
      const at = Date.parse(body.created_at);
      assert.ok(at >= start - 1000 && at <= Date.now() + 1000, `created_at ${body.created_at} is not now`);
    });

    it('assigns a different uid to every user', async () => {
      const a = await created();
      const b = await created();
      assert.notEqual(a.body.uid, b.body.uid);
    });

    it('keeps the given optional fields', async () => {
      const { body } = await created({ legacy_ids: ['A-1001', 'crm:77'], display_name: 'Alice Liddell', attributes: { department: 'R&D', n: [1, null] } });
      assert.deepEqual(body.legacy_ids, ['A-1001', 'crm:77']);
      assert.equal(body.display_name, 'Alice Liddell');
      assert.deepEqual(body.attributes, { department: 'R&D', n: [1, null] });
    });

    it('sets Location and Content-Location to /users/{uid} and a strong quoted ETag', async () => {
      const res = await created();
      assert.equal(res.headers.location, `/users/${res.body.uid}`);
      assert.equal(res.headers['content-location'], `/users/${res.body.uid}`);
      assert.match(String(res.headers.etag), STRONG_ETAG);
    });

    it('accepts legacy_id as shorthand for legacy_ids with that one value', async () => {
      const res = await created({ legacy_id: 'shorthand:1' });
      assert.deepEqual(res.body.legacy_ids, ['shorthand:1']);
      assert.equal('legacy_id' in res.body, false);
      const read = await server.get(`/users/${res.body.uid}`);
      assert.deepEqual(read.body.legacy_ids, ['shorthand:1']);
    });

    it('rejects legacy_id together with legacy_ids with a 400 pointing at the field', async () => {
      const body = newUser({ legacy_id: 'both-1', legacy_ids: ['both-2'] });
      const res = await server.post('/users', body);
      assertProblem(res, 400, 'validation-failed');
      const pointers = (res.body.errors ?? []).map((e: { pointer: string }) => e.pointer);
      assert.ok(pointers.some((p: string) => p === '/legacy_id' || p === '/legacy_ids'), `pointers: ${pointers}`);
      assert.equal((await server.get(`/users/username:${body.username}`)).status, 404, 'nothing was created');
    });
  });

  describe('GET and HEAD /users/{uid}', () => {
    it('GET answers 200 with the user as created, its ETag, Content-Location and Cache-Control: no-cache', async () => {
      const made = await created({ display_name: 'Read Me' });
      const res = await server.get(`/users/${made.body.uid}`);
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.deepEqual(res.body, made.body);
      assert.equal(res.headers.etag, made.headers.etag);
      assert.equal(res.headers['content-location'], `/users/${made.body.uid}`);
      assert.equal(res.headers['cache-control'], 'no-cache');
    });

    it('HEAD answers like GET but without a body', async () => {
      const { body } = await created();
      const get = await server.get(`/users/${body.uid}`);
      const head = await server.request('HEAD', `/users/${body.uid}`);
      assert.equal(head.status, 200);
      assert.equal(head.text, '');
      for (const name of ['etag', 'content-location', 'cache-control', 'content-type']) {
        assert.equal(head.headers[name], get.headers[name], name);
      }
    });

    it('finds the user when the uid in the path is upper-case', async () => {
      const { body } = await created();
      const res = await server.get(`/users/${body.uid.toUpperCase()}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.uid, body.uid);
      assert.equal(res.headers['content-location'], `/users/${body.uid}`);
    });

    it('answers 404 problem for an unknown uid', async () => {
      const res = await server.get('/users/01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f');
      assertProblem(res, 404, 'not-found');
    });

    for (const uid of ['not-a-uid', '12345', '01937f4e-8c2a-4b3d-9e4f-0a1b2c3d4e5f', '01937f4e8c2a7b3d9e4f0a1b2c3d4e5f']) {
      it(`answers 404 problem for the malformed uid ${uid}`, async () => {
        assertProblem(await server.get(`/users/${uid}`), 404, 'not-found');
      });
    }
  });

  describe('conditional GET with If-None-Match', () => {
    let uid: string;
    let etag: string;
    before(async () => {
      const res = await created();
      uid = res.body.uid;
      etag = String(res.headers.etag);
    });

    for (const [name, tag] of [['the current tag', () => etag], ['the weak form of the current tag', () => `W/${etag}`], ['*', () => '*']] as const) {
      it(`answers 304 without a body for ${name}`, async () => {
        const res = await server.get(`/users/${uid}`, { 'if-none-match': tag() });
        assert.equal(res.status, 304);
        assert.equal(res.text, '');
        assert.equal(res.headers.etag, etag);
      });
    }

    it('answers 304 when the current tag is one of a list', async () => {
      const res = await server.get(`/users/${uid}`, { 'if-none-match': `"stale", ${etag}` });
      assert.equal(res.status, 304);
    });

    it('answers 200 with the user for a stale tag', async () => {
      const res = await server.get(`/users/${uid}`, { 'if-none-match': '"stale-tag"' });
      assert.equal(res.status, 200);
      assert.equal(res.body.uid, uid);
    });

    it('answers 304 to HEAD with the current tag', async () => {
      const res = await server.request('HEAD', `/users/${uid}`, { headers: { 'if-none-match': etag } });
      assert.equal(res.status, 304);
      assert.equal(res.text, '');
    });

    for (const method of ['GET', 'HEAD']) {
      it(`a 304 to ${method} carries ETag, Content-Location and Cache-Control: no-cache, and no Content-Length, Content-Type or body`, async () => {
        assertNotModified(await rawRequest(server.baseUrl, method, `/users/${uid}`, { 'If-None-Match': etag }), etag, uid, `${method} /users/{uid}`);
      });

      it(`a 304 to ${method} on a lookup path has the same headers and no body`, async () => {
        const { body } = await server.get(`/users/${uid}`);
        for (const path of [`/users/username:${encodeURIComponent(body.username)}`, `/users/uid:${uid}`]) {
          assertNotModified(await rawRequest(server.baseUrl, method, path, { 'If-None-Match': etag }), etag, uid, `${method} ${path}`);
        }
      });
    }
  });

  describe('DELETE /users/{uid}', () => {
    it('answers 204 without Content-Length, Content-Type or body', async () => {
      const { body } = await created();
      const res = await rawRequest(server.baseUrl, 'DELETE', `/users/${body.uid}`);
      assert.equal(res.status, 204);
      for (const name of ['content-length', 'content-type', 'transfer-encoding']) {
        assert.deepEqual(fieldValues(res, name), [], `a 204 must not carry ${name}: ${JSON.stringify(res.headers)}`);
      }
      assert.equal(res.rest, '');
      assert.equal((await server.get(`/users/${body.uid}`)).status, 404, 'the user is gone');
    });
  });

  describe('paths below and around /users/{uid}', () => {
    let uid: string;
    before(async () => {
      uid = (await created()).body.uid;
    });

    for (const suffix of ['/profile', '/profile/', '/a/b', '/x%2Fy']) {
      it(`answers 404 problem for /users/{uid}${suffix}`, async () => {
        assertProblem(await server.get(`/users/${uid}${suffix}`), 404, 'not-found');
      });
    }

    it('answers 404 problem for a deeper path under a lookup', async () => {
      const { body } = await created();
      assertProblem(await server.get(`/users/username:${body.username}/profile`), 404, 'not-found');
    });

    it('answers 404 problem for /users/ with an empty segment', async () => {
      assertProblem(await server.get('/users/'), 404, 'not-found');
    });
  });
});
