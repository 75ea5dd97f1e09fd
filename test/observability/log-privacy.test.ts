/**
 * No log line, at any level, holds an email address or a lookup value, for any
 * spelling of the request (CONTRACT §8): the logged path is rebuilt from what the
 * router matched, never copied from the request target.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiKeysFixture, type ApiKeysFixture } from '../helpers/auth-fixtures.js';
import { captureLogs, type LogCapture } from '../helpers/log-capture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const LOCAL = 'private.person+tag';
const DOMAIN = 'secret-domain.example';
const ADDRESS = `${LOCAL}@${DOMAIN}`;
const USERNAME = 'hidden.name';

/** What would betray the person: any piece of the address or username, in any letter case or encoding. */
const BETRAYING = /private\.person|private%2eperson|secret-domain|hidden\.name|hidden%2ename/i;

/** Requests that carry the address or username in every place and spelling a client could put them. */
function revealingRequests(uid: string): [method: string, target: string, body?: unknown][] {
  const enc = encodeURIComponent(ADDRESS);
  return [
    ['GET', `/users/email_address:${ADDRESS}`],
    ['GET', `/users/email_address:${enc}`],
    ['GET', `/users/email_address%3A${ADDRESS}`],
    ['GET', `/users/email_address%3a${enc}`],
    ['GET', `/%75sers/email_address:${ADDRESS}`],
    ['GET', `http://anything/users/email_address:${ADDRESS}`],
    ['GET', `/users/username:${USERNAME}`],
    ['GET', `/users/${USERNAME}`],
    ['GET', `/users/${ADDRESS}`],
    ['GET', `/users/${ADDRESS}:x`],
    ['GET', `/users/email_address:${ADDRESS}%`],
    ['GET', `/users/email_address:${ADDRESS}${'x'.repeat(2100)}`],
    ['GET', `/users/email_address:${ADDRESS}/profile`],
    ['GET', `/users?email_address=${enc}`],
    ['GET', `/users?q=${LOCAL}`],
    ['GET', `/users?${enc}=1`],
    ['GET', `/users?username=${USERNAME}&username=${USERNAME}`],
    ['GET', `/nowhere/${ADDRESS}`],
    ['GET', `/${ADDRESS}`],
    ['DELETE', `/users/email_address:${ADDRESS}`],
    ['PATCH', `/users/email_address:${ADDRESS}`],
    ['PROPFIND', `/users/username:${USERNAME}`],
    ['POST', '/users', { username: USERNAME, email_address: ADDRESS }],
    ['POST', '/users', { username: USERNAME, email_address: ADDRESS, extra: ADDRESS }],
    ['PUT', `/users/${uid}`, { username: USERNAME, email_address: `not-an-address ${ADDRESS}` }],
    ['PUT', `/users/${uid}`, { username: USERNAME, email_address: ADDRESS, display_name: ADDRESS }],
  ];
}

for (const mode of ['none', 'api-key'] as const) {
  describe(`logs at LOG_LEVEL=trace hold no address or username (AUTH_MODE=${mode})`, () => {
    let server: TestServer;
    let logs: LogCapture;
    let keys: ApiKeysFixture | undefined;
    let headers: Record<string, string>;
    let uid: string;

    before(async () => {
      logs = captureLogs();
      keys = mode === 'api-key' ? apiKeysFixture() : undefined;
      const env: Record<string, string> = keys ? { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file } : {};
      server = await startTestServer({ env: { ...env, LOG_LEVEL: 'trace' }, app: { logStream: logs.stream } });
      headers = keys ? { authorization: `Bearer ${keys.keys.admin}` } : {};
      const created = await server.post('/users', { username: USERNAME, email_address: ADDRESS, display_name: 'Hidden Name' }, headers);
      assert.equal(created.status, 201, created.text);
      uid = created.body.uid;
    });
    after(async () => {
      await server.close();
      keys?.cleanup();
    });

    for (const credential of ['with a credential', 'without a credential'] as const) {
      it(`${credential}: no line holds any part of them, whatever the spelling`, async () => {
        for (const [method, target, body] of revealingRequests(uid)) {
          const sent = credential === 'with a credential' ? headers : {};
          const res = await server.request(method, target, body === undefined ? { headers: sent } : { headers: sent, json: body });
          assert.ok(res.status > 0);
        }
        const lines = logs.text().split('\n').filter((line) => BETRAYING.test(line));
        assert.deepEqual(lines, [], 'log lines that betray the person');
        assert.ok(logs.records().some((r) => r.msg === 'request completed'), 'requests were logged at all');
      });
    }

    it('a caller\'s X-Request-Id is kept only when it cannot hold an address or a lookup', async () => {
      logs.clear();
      for (const id of [ADDRESS, `email_address:${LOCAL}`, `${USERNAME}`]) {
        const res = await server.get('/users?limit=1', { ...headers, 'x-request-id': id });
        assert.notEqual(res.headers['x-request-id'], id, `${id} was kept`);
        assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/, 'a new id is made instead');
      }
      const kept = await server.get('/users?limit=1', { ...headers, 'x-request-id': 'trace_0af7651916cd43dd-8448eb211c80319c' });
      assert.equal(kept.headers['x-request-id'], 'trace_0af7651916cd43dd-8448eb211c80319c', 'an id of letters, digits, - and _ is kept');
      assert.deepEqual(logs.text().split('\n').filter((line) => BETRAYING.test(line)), []);
    });

    it('logs the route pattern, the lookup key name and the query parameter names, so lines stay useful', async () => {
      logs.clear();
      await server.get(`/users/email_address:${encodeURIComponent(ADDRESS)}`, headers);
      await server.get(`/users?q=${LOCAL}&limit=5`, headers);
      await server.get(`/users/${uid}`, headers);
      const urls = logs.records().filter((r) => r.msg === 'request completed').map((r) => [r.req.route, r.req.url]);
      assert.deepEqual(urls, [
        ['/users/:ref', '/users/email_address:…'],
        ['/users', '/users?q=…&limit=…'],
        ['/users/:ref', `/users/${uid}`],
      ]);
    });
  });
}
