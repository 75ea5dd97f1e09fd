/**
 * CORS (Fetch standard §3.2) with CORS_ORIGINS set and API keys on: preflights
 * from a listed origin are answered before authentication with exactly the
 * methods of the path and the headers of the route; other answers to a listed
 * origin carry Access-Control-Allow-Origin and the exposed headers, errors
 * included; any other origin, however close its spelling, gets no CORS header
 * and is processed as any request.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { apiKeysFixture, type ApiKeysFixture } from '../helpers/auth-fixtures.js';
import { send, type TestResponse } from '../helpers/http-client.js';
import { rawExchange, rawResponse } from '../helpers/raw-exchange.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

const GOOD = 'https://good.example.com';
const OTHER = 'http://localhost:5173';

const CORS_HEADERS = ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-max-age', 'access-control-expose-headers', 'access-control-allow-credentials'];
const corsHeadersOf = (response: TestResponse) => CORS_HEADERS.filter((name) => response.headers[name] !== undefined);
const varyOf = (response: TestResponse) => String(response.headers.vary ?? '').split(',').map((token) => token.trim().toLowerCase());

describe('CORS with CORS_ORIGINS set', () => {
  let server: TestServer;
  let keys: ApiKeysFixture;
  let uid: string;
  before(async () => {
    keys = apiKeysFixture();
    // Listed with an upper-case host and the default port: normalised as browsers write origins.
    server = await startTestServer({ env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file, CORS_ORIGINS: `https://GOOD.example.com:443, ${OTHER}` } });
    const created = await server.post('/users', newUser(), { authorization: `Bearer ${keys.keys.admin}` });
    assert.equal(created.status, 201);
    uid = created.body.uid;
  });
  after(async () => {
    await server?.close();
    keys?.cleanup();
  });

  const preflight = (path: string, method: string, headers?: string, origin = GOOD) =>
    send(server.baseUrl, 'OPTIONS', path, { headers: { origin, 'access-control-request-method': method, ...(headers === undefined ? {} : { 'access-control-request-headers': headers }) } });

  describe('preflights', () => {
    it('a preflight with no credential is answered 204 before authentication, with the origin, Vary and Max-Age', async () => {
      const response = await preflight(`/users/${uid}`, 'PUT', 'authorization,content-type,if-match');
      assert.equal(response.status, 204);
      assert.equal(response.text, '');
      assert.equal(response.headers['access-control-allow-origin'], GOOD);
      assert.deepEqual(varyOf(response), ['origin', 'access-control-request-method', 'access-control-request-headers']);
      assert.equal(response.headers['access-control-max-age'], '600');
      assert.equal(response.headers['access-control-allow-credentials'], undefined, 'the credential is a header, never a cookie');
      assert.equal(response.headers['www-authenticate'], undefined);
      assert.match(String(response.headers['x-request-id']), /^[0-9a-f-]{36}$/, 'a preflight is admitted like any request: it gets its id');
    });

    it('a preflight meets admission: two Host headers, no Host, or two Authorization headers are a 400 problem, not a 204', async () => {
      const port = Number(new URL(server.baseUrl).port);
      const head = (lines: string[]) => [`OPTIONS /users HTTP/1.1\r\n${lines.join('\r\n')}\r\nOrigin: ${GOOD}\r\nAccess-Control-Request-Method: POST\r\nConnection: close\r\n\r\n`];
      for (const lines of [['Host: a', 'Host: b'], [], ['Host: a', 'Authorization: Bearer x', 'Authorization: Bearer y']]) {
        const answer = rawResponse(await rawExchange(port, head(lines)));
        assert.equal(answer.status, 400, lines.join(' / '));
        assert.equal(answer.body?.type, '/problems/malformed-request');
        assert.doesNotMatch(answer.headers, /access-control-allow-methods/);
      }
    });

    const routes: [string, string, string, string, string][] = [
      // path, requested method, methods allowed, headers of the requested method's route
      ['/users/{uid}', 'PUT', 'GET, HEAD, PUT, PATCH, DELETE', 'x-request-id, authorization, content-type, if-match, if-none-match', 'the canonical path: PUT reads both preconditions and a body'],
      ['/users/{uid}', 'PATCH', 'GET, HEAD, PUT, PATCH, DELETE', 'x-request-id, authorization, content-type, if-match, if-none-match, idempotency-key', 'PATCH also takes Idempotency-Key'],
      ['/users/{uid}', 'DELETE', 'GET, HEAD, PUT, PATCH, DELETE', 'x-request-id, authorization, if-match, if-none-match', 'DELETE takes no body'],
      ['/users/{uid}', 'GET', 'GET, HEAD, PUT, PATCH, DELETE', 'x-request-id, authorization, if-none-match', 'a read takes If-None-Match'],
      ['/users/username:someone', 'GET', 'GET, HEAD', 'x-request-id, authorization, if-none-match', 'a lookup path is read-only'],
      ['/users', 'POST', 'GET, HEAD, POST', 'x-request-id, authorization, content-type, idempotency-key', 'a create'],
      ['/users?q=ann', 'GET', 'GET, HEAD, POST', 'x-request-id, authorization', 'a search reads no conditional header'],
      ['/events', 'GET', 'GET, HEAD', 'x-request-id, authorization, last-event-id', 'the change feed takes Last-Event-ID'],
      ['/scim/v2/Users/{uid}', 'PATCH', 'GET, HEAD, PUT, PATCH, DELETE', 'x-request-id, authorization, content-type, if-match, if-none-match', 'SCIM too'],
      ['/scim/v2/Users', 'POST', 'GET, HEAD, POST', 'x-request-id, authorization, content-type, idempotency-key', 'a SCIM create'],
      ['/openapi.json', 'GET', 'GET, HEAD', 'x-request-id', 'a public route takes no credential'],
      ['/credential', 'GET', 'GET, HEAD', 'x-request-id, authorization', 'who am I: any valid credential'],
    ];
    for (const [path, method, methods, headers, why] of routes) {
      it(`${method} ${path}: Allow-Methods ${methods}; Allow-Headers ${headers} (${why})`, async () => {
        const response = await preflight(path.replace('{uid}', uid), method, headers.replace(/ /g, ''));
        assert.equal(response.status, 204);
        assert.equal(response.headers['access-control-allow-methods'], methods);
        assert.equal(response.headers['access-control-allow-headers'], headers);
      });
    }

    it('a preflight for a method the path does not take gets the origin but no allow lists, so the browser refuses', async () => {
      for (const [path, method] of [['/users/username:someone', 'PUT'], ['/users', 'DELETE'], ['/events', 'POST'], [`/users/${uid}`, 'patch'], [`/users/${uid}`, 'OPTIONS']] as const) {
        const response = await preflight(path, method);
        assert.equal(response.status, 204, `${method} ${path}`);
        assert.equal(response.headers['access-control-allow-origin'], GOOD);
        assert.equal(response.headers['access-control-allow-methods'], undefined, `${method} ${path}`);
        assert.equal(response.headers['access-control-allow-headers'], undefined, `${method} ${path}`);
      }
    });

    it('a preflight asking for a header the route does not read gets no allow lists', async () => {
      for (const [path, method, headers] of [[`/users/${uid}`, 'GET', 'if-match'], ['/users', 'POST', 'content-type,x-custom'], [`/users/${uid}`, 'DELETE', 'content-type'], ['/openapi.json', 'GET', 'authorization'], ['/users', 'POST', 'cookie']] as const) {
        const response = await preflight(path, method, headers);
        assert.equal(response.status, 204, `${method} ${path} ${headers}`);
        assert.equal(response.headers['access-control-allow-methods'], undefined, `${method} ${path} ${headers}`);
        assert.equal(response.headers['access-control-allow-headers'], undefined, `${method} ${path} ${headers}`);
      }
    });

    it('requested header names match whatever their case and spacing', async () => {
      const response = await preflight('/users', 'POST', ' Content-Type , AUTHORIZATION,Idempotency-Key ');
      assert.equal(response.headers['access-control-allow-methods'], 'GET, HEAD, POST');
    });

    it('a preflight from an origin not listed is processed as any OPTIONS: its 401, no CORS header', async () => {
      const response = await preflight(`/users/${uid}`, 'PUT', 'content-type', 'https://evil.example.com');
      assert.equal(response.status, 401);
      assert.deepEqual(corsHeadersOf(response), []);
      assert.ok(varyOf(response).includes('origin'));
    });

    it('a preflight for a path no route serves is the 404 problem, without CORS headers', async () => {
      const response = await preflight('/nowhere', 'GET');
      assert.equal(response.status, 404);
      assert.deepEqual(corsHeadersOf(response), []);
    });

    it('an OPTIONS that is not a preflight (no Access-Control-Request-Method) is processed as before: 401, then 405 with a credential', async () => {
      const anonymous = await send(server.baseUrl, 'OPTIONS', `/users/${uid}`, { headers: { origin: GOOD } });
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.headers['access-control-allow-origin'], GOOD, 'an error a page may read');
      const authorised = await send(server.baseUrl, 'OPTIONS', `/users/${uid}`, { headers: { origin: GOOD, authorization: `Bearer ${keys.keys.admin}` } });
      assert.equal(authorised.status, 405);
      assert.equal(authorised.headers.allow, 'GET, HEAD, PUT, PATCH, DELETE');
    });

  });

  describe('actual requests', () => {
    const EXPOSED = ['etag', 'location', 'link', 'feed-position', 'idempotent-replayed', 'retry-after', 'total-count', 'www-authenticate', 'allow', 'accept-patch', 'x-request-id'];
    const exposedOf = (response: TestResponse) => String(response.headers['access-control-expose-headers']).split(',').map((name) => name.trim().toLowerCase());

    it('a read from a listed origin carries the origin, Vary: Origin and the exposed headers, and no Allow-Credentials', async () => {
      const response = await send(server.baseUrl, 'GET', `/users/${uid}`, { headers: { origin: GOOD, authorization: `Bearer ${keys.keys.reader}` } });
      assert.equal(response.status, 200);
      assert.equal(response.headers['access-control-allow-origin'], GOOD);
      assert.ok(varyOf(response).includes('origin'));
      for (const name of EXPOSED) assert.ok(exposedOf(response).includes(name), name);
      assert.equal(response.headers['access-control-allow-credentials'], undefined);
    });

    it('a create from the other listed origin exposes Location and ETag to it', async () => {
      const response = await send(server.baseUrl, 'POST', '/users', { headers: { origin: OTHER, authorization: `Bearer ${keys.keys.writer}` }, json: newUser() });
      assert.equal(response.status, 201);
      assert.equal(response.headers['access-control-allow-origin'], OTHER);
    });

    it('a 401 carries the CORS headers, so a page can read WWW-Authenticate and the problem', async () => {
      const response = await send(server.baseUrl, 'GET', `/users/${uid}`, { headers: { origin: GOOD } });
      assert.equal(response.status, 401);
      assert.equal(response.headers['access-control-allow-origin'], GOOD);
      assert.ok(exposedOf(response).includes('www-authenticate'));
      assert.ok(varyOf(response).includes('origin'));
    });

    it('a 403 and a 404 carry them too', async () => {
      const forbidden = await send(server.baseUrl, 'DELETE', `/users/${uid}`, { headers: { origin: GOOD, authorization: `Bearer ${keys.keys.reader}` } });
      assert.equal(forbidden.status, 403);
      assert.equal(forbidden.headers['access-control-allow-origin'], GOOD);
      const missing = await send(server.baseUrl, 'GET', '/users/username:nobody-here', { headers: { origin: GOOD, authorization: `Bearer ${keys.keys.reader}` } });
      assert.equal(missing.status, 404);
      assert.equal(missing.headers['access-control-allow-origin'], GOOD);
    });

    it('an error found while routing (a path that is not valid percent-encoding) carries them too', async () => {
      const response = await send(server.baseUrl, 'GET', '/users/%ZZ', { headers: { origin: GOOD } });
      assert.equal(response.status, 400);
      assert.equal(response.headers['access-control-allow-origin'], GOOD);
      assert.ok(varyOf(response).includes('origin'));
    });

    it('a handler\'s own Vary is kept: /events varies by Accept and by Origin', async () => {
      const response = await send(server.baseUrl, 'GET', '/events', { headers: { origin: GOOD, authorization: `Bearer ${keys.keys.reader}` } });
      assert.equal(response.status, 200);
      assert.ok(varyOf(response).includes('accept') && varyOf(response).includes('origin'), String(response.headers.vary));
    });

    it('a request without Origin is answered without CORS headers, with Vary: Origin', async () => {
      const response = await send(server.baseUrl, 'GET', `/users/${uid}`, { headers: { authorization: `Bearer ${keys.keys.reader}` } });
      assert.equal(response.status, 200);
      assert.deepEqual(corsHeadersOf(response), []);
      assert.ok(varyOf(response).includes('origin'));
    });
  });

  describe('origins that are not listed, however close', () => {
    const spellings: [string, string][] = [
      ['https://good.example.com.evil.com', 'a suffix'],
      ['https://evil-good.example.com', 'a prefix'],
      ['https://good.example.com/', 'a trailing slash'],
      ['https://good.example.com:8443', 'another port'],
      ['http://good.example.com', 'another scheme'],
      ['https://GOOD.example.com', 'an upper-case host (browsers send lower case)'],
      ['https://good.example.com:443', 'the default port written out (browsers leave it out)'],
      ['null', 'the opaque origin of sandboxed and file: pages'],
      [`${GOOD}, ${OTHER}`, 'two origins in one header'],
    ];
    for (const [origin, what] of spellings) {
      it(`${JSON.stringify(origin)} (${what}): no CORS header on a request or a preflight; the request is processed as any`, async () => {
        const read = await send(server.baseUrl, 'GET', `/users/${uid}`, { headers: { origin, authorization: `Bearer ${keys.keys.reader}` } });
        assert.equal(read.status, 200, 'CORS decides nothing about access');
        assert.deepEqual(corsHeadersOf(read), []);
        const options = await preflight(`/users/${uid}`, 'GET', undefined, origin);
        assert.equal(options.status, 401, 'not answered before authentication');
        assert.deepEqual(corsHeadersOf(options), []);
      });
    }

    it('two Origin header lines, one of them listed: no CORS header', async () => {
      const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const url = new URL(server.baseUrl);
        const req = http.request({ host: url.hostname, port: url.port, method: 'GET', path: `/users/${uid}`, agent: false, headers: ['origin', 'https://evil.example.com', 'origin', GOOD, 'authorization', `Bearer ${keys.keys.reader}`] }, (res) => {
          res.resume();
          res.on('end', () => resolve(res));
        });
        req.on('error', reject);
        req.end();
      });
      assert.equal(response.headers['access-control-allow-origin'], undefined);
    });
  });
});

describe('CORS_ORIGINS=* with API keys', () => {
  let server: TestServer;
  let keys: ApiKeysFixture;
  before(async () => {
    keys = apiKeysFixture();
    server = await startTestServer({ env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file, CORS_ORIGINS: '*' } });
  });
  after(async () => {
    await server?.close();
    keys?.cleanup();
  });

  it('answers every origin with Access-Control-Allow-Origin: *, never with credentials', async () => {
    for (const origin of ['https://anywhere.example', 'null']) {
      const response = await send(server.baseUrl, 'GET', '/users', { headers: { origin, authorization: `Bearer ${keys.keys.reader}` } });
      assert.equal(response.status, 200);
      assert.equal(response.headers['access-control-allow-origin'], '*');
      assert.equal(response.headers['access-control-allow-credentials'], undefined);
      const preflight = await send(server.baseUrl, 'OPTIONS', '/users', { headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers['access-control-allow-origin'], '*');
      assert.equal(preflight.headers['access-control-allow-headers'], 'x-request-id, authorization, content-type, idempotency-key');
    }
  });
});

describe('CORS off (the default)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  it('no answer carries a CORS header or Vary: Origin, and a preflight is an OPTIONS like any other (405)', async () => {
    const read = await send(server.baseUrl, 'GET', '/users', { headers: { origin: GOOD } });
    assert.equal(read.status, 200);
    assert.deepEqual(corsHeadersOf(read), []);
    assert.ok(!varyOf(read).includes('origin'));
    const preflight = await send(server.baseUrl, 'OPTIONS', '/users', { headers: { origin: GOOD, 'access-control-request-method': 'POST' } });
    assert.equal(preflight.status, 405);
    assert.equal(preflight.headers.allow, 'GET, HEAD, POST');
    assert.deepEqual(corsHeadersOf(preflight), []);
  });
});

describe('CORS_ORIGINS with AUTH_MODE=none and a rate limit', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { CORS_ORIGINS: GOOD, RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_S: '3600' } });
  });
  after(() => server?.close());

  it('a preflight allows no Authorization: no route reads it', async () => {
    const response = await send(server.baseUrl, 'OPTIONS', '/users', { headers: { origin: GOOD, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    assert.equal(response.headers['access-control-allow-headers'], 'x-request-id, content-type, idempotency-key');
  });

  it('a preflight is answered when the client has spent its budget: the limit refuses requests, not preflights', async () => {
    let status = 0;
    for (let i = 0; i < 10 && status !== 429; i++) status = (await send(server.baseUrl, 'GET', '/users', { headers: { origin: GOOD } })).status;
    assert.equal(status, 429);
    const limited = await send(server.baseUrl, 'GET', '/users', { headers: { origin: GOOD } });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers['access-control-allow-origin'], GOOD, 'a page can read Retry-After');
    assert.ok(String(limited.headers['access-control-expose-headers']).includes('Retry-After'));
    const preflight = await send(server.baseUrl, 'OPTIONS', '/users', { headers: { origin: GOOD, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-methods'], 'GET, HEAD, POST');
  });
});
