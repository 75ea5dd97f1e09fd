/**
 * GET/HEAD /users/{key}:{value}: the lookup is an alias of the canonical read
 * (seed §4, CONTRACT §3), and the methods each path allows (CONTRACT §2).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachStore } from '../helpers/stores.js';
import type { TestResponse } from '../helpers/http-client.js';
import { assertProblem } from '../helpers/problem-assertions.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

const KEYS = ['uid', 'username', 'email_address', 'legacy_id'];

const allowed = (res: TestResponse) => String(res.headers.allow ?? '').split(',').map((m) => m.trim()).filter(Boolean);

describeEachStore('GET /users/{key}:{value}', (store) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store });
  });
  after(async () => server.close());

  async function create(overrides: Record<string, unknown>): Promise<{ uid: string; [field: string]: unknown }> {
    const res = await server.post('/users', newUser(overrides));
    assert.equal(res.status, 201, res.text);
    return res.body;
  }

  /** GET and HEAD on `path` answer exactly what they answer on /users/{uid}. */
  async function assertAlias(path: string, uid: string): Promise<void> {
    for (const method of ['GET', 'HEAD']) {
      const canonical = await server.request(method, `/users/${uid}`);
      const lookup = await server.request(method, path);
      assert.equal(canonical.status, 200, `${method} /users/${uid}`);
      assert.equal(lookup.status, canonical.status, `${method} ${path}: ${lookup.text}`);
      assert.equal(lookup.text, canonical.text, `${method} ${path} body`);
      for (const header of ['etag', 'content-location', 'cache-control', 'content-type']) {
        assert.equal(lookup.headers[header], canonical.headers[header], `${method} ${path} ${header}`);
      }
    }
  }

  describe('every key is an alias of the canonical read', () => {
    let user: { uid: string; [field: string]: unknown };
    before(async () => {
      user = await create({ legacy_ids: ['alias-1', 'alias-2'], display_name: 'Alias', attributes: { a: 1 } });
    });

    for (const key of KEYS) {
      it(`GET and HEAD /users/${key}:{value} return what /users/{uid} returns`, async () => {
        const value = key === 'legacy_id' ? 'alias-2' : String(user[key]);
        await assertAlias(`/users/${key}:${encodeURIComponent(value)}`, user.uid);
      });
    }

    it('uid:{value} is equivalent to /users/{uid}, also with an upper-case uid', async () => {
      await assertAlias(`/users/uid:${user.uid.toUpperCase()}`, user.uid);
    });

    it('a percent-encoded colon in the key position works like a raw colon', async () => {
      await assertAlias(`/users/username%3A${String(user.username)}`, user.uid);
    });

    it('answers 304 to If-None-Match with the current tag, as the canonical read does', async () => {
      const { headers } = await server.get(`/users/${user.uid}`);
      for (const method of ['GET', 'HEAD']) {
        const res = await server.request(method, `/users/username:${String(user.username)}`, { headers: { 'if-none-match': String(headers.etag) } });
        assert.equal(res.status, 304, method);
        assert.equal(res.text, '');
      }
    });
  });

  describe('how values are compared', () => {
    it('finds username Bob as bob, BOB and fullwidth ＢＯＢ', async () => {
      const bob = await create({ username: 'Bob' });
      for (const value of ['Bob', 'bob', 'BOB', 'ＢＯＢ']) await assertAlias(`/users/username:${encodeURIComponent(value)}`, bob.uid);
    });

    it('refuses POST of username ＢＯＢ when bob exists with 409 key username', async () => {
      const body = newUser({ username: 'ＢＯＢ' });
      const res = await server.post('/users', body);
      assertProblem(res, 409, 'key-conflict');
      assert.equal(res.body.key, 'username');
    });

    it('finds a username given in NFD by its NFC form and vice versa', async () => {
      const zoe = await create({ username: 'Zoë' });
      await assertAlias(`/users/username:${encodeURIComponent('Zoe\u0308')}`, zoe.uid);
      await assertAlias(`/users/username:${encodeURIComponent('ZOË')}`, zoe.uid);
    });

    it('matches email addresses case- and width-insensitively', async () => {
      const carol = await create({ email_address: 'Carol.X@Example.COM' });
      for (const value of ['carol.x@example.com', 'CAROL.X@EXAMPLE.COM', 'ＣＡＲＯＬ.x@example.com']) {
        await assertAlias(`/users/email_address:${encodeURIComponent(value)}`, carol.uid);
      }
    });

    it('matches legacy ids exactly and case-sensitively', async () => {
      const user = await create({ legacy_ids: ['AbC-9'] });
      await assertAlias('/users/legacy_id:AbC-9', user.uid);
      for (const value of ['abc-9', 'ABC-9', 'AbC-9%20']) assertProblem(await server.get(`/users/legacy_id:${value}`), 404, 'not-found');
    });

    it('lets the key select among overlapping values of different users', async () => {
      const a = await create({ username: 'x1' });
      const b = await create({ legacy_ids: ['x1'] });
      await assertAlias('/users/username:x1', a.uid);
      await assertAlias('/users/legacy_id:x1', b.uid);
    });
  });

  describe('hostile values', () => {
    it('keeps colons after the first inside the value (legacy_id:crm:77)', async () => {
      const user = await create({ legacy_ids: ['crm:77'] });
      await assertAlias('/users/legacy_id:crm:77', user.uid);
    });

    it('decodes a percent-encoded slash into the value (legacy_id:dept%2F42)', async () => {
      const user = await create({ legacy_ids: ['dept/42'] });
      await assertAlias('/users/legacy_id:dept%2F42', user.uid);
    });

    it('percent-decodes exactly once (100% at 100%25, 100%25 at 100%2525)', async () => {
      const percent = await create({ legacy_ids: ['100%'] });
      const literal = await create({ legacy_ids: ['100%25'] });
      await assertAlias('/users/legacy_id:100%25', percent.uid);
      await assertAlias('/users/legacy_id:100%2525', literal.uid);
    });

    it('reads + as a literal plus, raw or as %2B, and @ raw or as %40', async () => {
      const user = await create({ email_address: 'a+b@example.com' });
      for (const value of ['a+b@example.com', 'a%2Bb@example.com', 'a+b%40example.com', 'a%2bb%40example.com']) {
        await assertAlias(`/users/email_address:${value}`, user.uid);
      }
      assertProblem(await server.get('/users/email_address:a%20b@example.com'), 404, 'not-found');
    });

    it('decodes %20 as a space', async () => {
      const user = await create({ legacy_ids: ['with inner space'] });
      await assertAlias('/users/legacy_id:with%20inner%20space', user.uid);
    });

    it('finds a 254-character email address', async () => {
      const local = 'l'.repeat(64);
      const domain = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(57)}.com`;
      const email = `${local}@${domain}`;
      assert.equal(email.length, 254);
      const user = await create({ email_address: email });
      await assertAlias(`/users/email_address:${email}`, user.uid);
      await assertAlias(`/users/email_address:${encodeURIComponent(email.toUpperCase())}`, user.uid);
    });

    it('decodes non-ASCII values percent-encoded as UTF-8', async () => {
      const user = await create({ username: 'Δημήτρης', legacy_ids: ['ключ-1', '東京/7'] });
      await assertAlias(`/users/username:${encodeURIComponent('δημήτρης')}`, user.uid);
      await assertAlias(`/users/legacy_id:${encodeURIComponent('ключ-1')}`, user.uid);
      await assertAlias(`/users/legacy_id:${encodeURIComponent('東京/7')}`, user.uid);
    });
  });

  describe('bad lookups', () => {
    for (const segment of ['foo:bar', 'Username:x', 'USERNAME:x', 'legacy-id:x', ':x']) {
      it(`answers 400 invalid-lookup-key listing the allowed keys for ${segment}`, async () => {
        const res = await server.get(`/users/${segment}`);
        assertProblem(res, 400, 'invalid-lookup-key');
        for (const key of KEYS) assert.ok(String(res.body.detail).includes(key), `detail names ${key}: ${res.body.detail}`);
      });
    }

    for (const key of KEYS) {
      it(`answers 400 for an empty value (${key}:)`, async () => {
        assertProblem(await server.get(`/users/${key}:`), 400, 'malformed-request');
      });
    }

    for (const path of ['/users/username:a%00b', '/users/legacy_id:%00', '/users/uid:%00', '/users/%00', '/users/0193%00']) {
      it(`answers 400 problem for NUL in the path: ${path}`, async () => {
        assertProblem(await server.get(path), 400, 'malformed-request');
      });
    }

    for (const path of ['/users/username:%ZZ', '/users/legacy_id:%E0%A4', '/users/legacy_id:abc%', '/users/%ZZ']) {
      it(`answers 400 problem for broken percent-encoding: ${path}`, async () => {
        assertProblem(await server.get(path), 400, 'malformed-request');
      });
    }

    for (const key of KEYS) {
      it(`answers 404 problem, never an array, when no user has that ${key}`, async () => {
        const value = key === 'uid' ? '01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f' : key === 'email_address' ? 'nobody@nowhere.example' : 'nobody-at-all';
        for (const method of ['GET', 'HEAD']) {
          const res = await server.request(method, `/users/${key}:${value}`);
          assert.equal(res.status, 404, `${method} ${key}`);
          if (method === 'GET') assertProblem(res, 404, 'not-found');
        }
      });
    }
  });

  describe('methods', () => {
    let user: { uid: string; [field: string]: unknown };
    before(async () => {
      user = await create({ legacy_ids: ['method-1'] });
    });

    for (const method of ['PUT', 'DELETE', 'POST', 'PATCH']) {
      for (const key of KEYS) {
        it(`${method} /users/${key}:{value} is 405 with Allow: GET, HEAD and changes nothing`, async () => {
          const value = key === 'legacy_id' ? 'method-1' : String(user[key]);
          const json = method === 'DELETE' ? undefined : newUser();
          const res = await server.request(method, `/users/${key}:${encodeURIComponent(value)}`, { json });
          assertProblem(res, 405, 'method-not-allowed');
          assert.equal(res.headers.allow, 'GET, HEAD');
          const read = await server.get(`/users/${user.uid}`);
          assert.equal(read.status, 200);
          assert.equal(read.body.version, 1);
        });
      }
    }

    it('PUT on a lookup path with a text/plain body is still 405, not 415', async () => {
      const res = await server.request('PUT', `/users/username:${String(user.username)}`, { body: 'hello', headers: { 'content-type': 'text/plain' } });
      assertProblem(res, 405, 'method-not-allowed');
      assert.equal(res.headers.allow, 'GET, HEAD');
    });

    for (const method of ['POST', 'PROPFIND']) {
      it(`${method} /users/{uid} is 405 with Allow listing GET, HEAD, PUT, PATCH, DELETE, and Accept-Patch`, async () => {
        const res = await server.request(method, `/users/${user.uid}`, { json: { display_name: 'x' } });
        assertProblem(res, 405, 'method-not-allowed');
        for (const m of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']) assert.ok(allowed(res).includes(m), `Allow: ${res.headers.allow}`);
        assert.equal(allowed(res).includes(method), false);
        assert.equal(res.headers['accept-patch'], 'application/merge-patch+json, application/json');
      });
    }

    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      it(`${method} /users is 405 with Allow listing GET, HEAD, POST`, async () => {
        const res = await server.request(method, '/users', method === 'DELETE' ? {} : { json: newUser() });
        assertProblem(res, 405, 'method-not-allowed');
        for (const m of ['GET', 'HEAD', 'POST']) assert.ok(allowed(res).includes(m), `Allow: ${res.headers.allow}`);
        assert.equal(allowed(res).includes(method), false);
      });
    }

    /** Every path of docs/api.md ("Reading and looking up") with the exact Allow it documents. */
    const documentedAllow = (): Array<[string, string]> => [
      ['/users', 'GET, HEAD, POST'],
      [`/users/${user.uid}`, 'GET, HEAD, PUT, PATCH, DELETE'],
      ['/users/01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f', 'GET, HEAD, PUT, PATCH, DELETE'],
      [`/users/uid:${user.uid}`, 'GET, HEAD'],
      [`/users/username:${encodeURIComponent(String(user.username))}`, 'GET, HEAD'],
      [`/users/email_address:${encodeURIComponent(String(user.email_address))}`, 'GET, HEAD'],
      ['/users/legacy_id:method-1', 'GET, HEAD'],
      ['/healthz', 'GET, HEAD'],
      ['/readyz', 'GET, HEAD'],
      ['/openapi.json', 'GET, HEAD'],
    ];

    for (const method of ['OPTIONS', 'PATCH', 'TRACE', 'PROPFIND']) {
      it(`${method} on every path that does not define it is a 405 problem with the exact Allow of docs/api.md`, async () => {
        for (const [path, allow] of documentedAllow().filter(([, allow]) => !allow.split(', ').includes(method))) {
          const res = await server.request(method, path);
          assertProblem(res, 405, 'method-not-allowed');
          assert.equal(res.headers.allow, allow, `${method} ${path}`);
        }
        assert.equal((await server.get(`/users/${user.uid}`)).body.version, 1, 'nothing changed');
      });
    }

    const overLimit = () => newUser({ attributes: { blob: 'x'.repeat(65 * 1024) } });
    for (const [method, path, allow] of [
      ['PUT', '/users/username:x', 'GET, HEAD'],
      ['DELETE', '/users/legacy_id:method-1', 'GET, HEAD'],
      ['POST', '/users/01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f', 'GET, HEAD, PUT, PATCH, DELETE'],
      ['PATCH', '/users/username:x', 'GET, HEAD'],
      ['PUT', '/users', 'GET, HEAD, POST'],
    ] as const) {
      it(`${method} ${path} with a body over BODY_LIMIT is a 405, not a 413`, async () => {
        const body = overLimit();
        assert.ok(JSON.stringify(body).length > 64 * 1024);
        const res = await server.request(method, path, { json: body });
        assertProblem(res, 405, 'method-not-allowed');
        assert.equal(res.headers.allow, allow);
      });
    }
  });

  describe('length of the path segment', () => {
    // docs/api.md: a segment may be up to 2048 characters after decoding; longer is a 414.
    const key = 'legacy_id:';

    it('looks up a segment of exactly 2048 characters (an unknown legacy id: 404, not 414)', async () => {
      const segment = key + 'a'.repeat(2048 - key.length);
      assert.equal(segment.length, 2048);
      assertProblem(await server.get(`/users/${segment}`), 404, 'not-found');
    });

    it('answers a segment of 2049 characters with a 414 uri-too-long problem', async () => {
      const segment = key + 'a'.repeat(2049 - key.length);
      for (const path of [`/users/${segment}`, `/users/${segment}a`, `/users/${'a'.repeat(2049)}`]) {
        assertProblem(await server.get(path), 414, 'uri-too-long');
      }
    });

    it('counts the characters after percent-decoding', async () => {
      const encoded = (n: number) => key + '%C3%A9'.repeat(n - key.length);
      assertProblem(await server.get(`/users/${encoded(2048)}`), 404, 'not-found');
      assertProblem(await server.get(`/users/${encoded(2049)}`), 414, 'uri-too-long');
    });

    it('accepts a canonical segment of 2048 characters (an unknown uid: 404)', async () => {
      assertProblem(await server.get(`/users/${'a'.repeat(2048)}`), 404, 'not-found');
    });
  });
});
