import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiKeysFixture, type ApiKeysFixture } from '../helpers/auth-fixtures.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { assertAdmitted, assertRefusedEverywhere, routeCases, type RouteCase } from './route-matrix.js';

describe('AUTH_MODE=api-key', () => {
  let keys: ApiKeysFixture;
  let server: TestServer;
  let cases: RouteCase[];
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  before(async () => {
    keys = apiKeysFixture();
    server = await startTestServer({ env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file } });
    const created = await server.post('/users', { username: 'keyed', email_address: 'keyed@example.com' }, bearer(keys.keys.admin));
    assert.equal(created.status, 201, created.text);
    cases = routeCases(created.body);
  });
  after(async () => {
    await server.close();
    keys.cleanup();
  });

  it('no credential: 401 with a bare Bearer challenge on every route, the same for existing and missing users', async () => {
    await assertRefusedEverywhere(server, cases, {}, () => 401);
    const res = await server.get('/users/username:keyed');
    assert.equal(res.headers['www-authenticate'], 'Bearer realm="user-service"');
  });

  it('an unknown key, a malformed header or another scheme: 401 invalid_token', async () => {
    await assertRefusedEverywhere(server, cases, bearer(keys.keys.unknown), () => 401);
    await assertRefusedEverywhere(server, cases, { authorization: `Basic ${Buffer.from(`x:${keys.keys.admin}`).toString('base64')}` }, () => 401);
    await assertRefusedEverywhere(server, cases, { authorization: `Bearer ${keys.keys.admin} extra` }, () => 401);
    assert.match(String((await server.get('/users', bearer(keys.keys.unknown))).headers['www-authenticate']), /error="invalid_token"/);
  });

  it('a key without the scope: 403 insufficient_scope', async () => {
    await assertRefusedEverywhere(server, cases, bearer(keys.keys.reader), (c) => (c.scope === 'users:write' ? 403 : 'pass'));
    await assertRefusedEverywhere(server, cases, bearer(keys.keys.writer), (c) => (c.scope === 'users:read' ? 403 : 'pass'));
  });

  it('a key with the scope passes; the scheme name is case-insensitive', async () => {
    await assertAdmitted(server, cases, bearer(keys.keys.admin), ['users:read', 'users:write']);
    await assertAdmitted(server, cases, bearer(keys.keys.reader), ['users:read']);
    await assertAdmitted(server, cases, bearer(keys.keys.writer), ['users:write']);
    assert.equal((await server.get('/users/username:keyed', { authorization: `bearer ${keys.keys.reader}` })).status, 200);
  });

  it('never accepts a key in the query string', async () => {
    for (const name of ['access_token', 'api_key', 'key', 'token']) {
      const res = await server.get(`/users/username:keyed?${name}=${keys.keys.admin}`);
      assert.equal(res.status, 401, `${name}: ${res.text}`);
    }
  });

  it('leaves the service routes public', async () => {
    for (const path of ['/healthz', '/readyz', '/openapi.json']) assert.equal((await server.get(path)).status, 200, path);
  });

  it('GET /metrics needs a credential with metrics:read, however the path is spelled (CONTRACT §8 names it nowhere public)', async () => {
    for (const path of ['/metrics', '/%6Detrics', '/%6d%65trics']) {
      const anonymous = await server.get(path);
      assert.equal(anonymous.status, 401, `${path}: ${anonymous.text}`);
      assert.equal(anonymous.headers['www-authenticate'], 'Bearer realm="user-service"', path);
      assert.doesNotMatch(anonymous.text, /http_requests_total/, path);
      for (const key of [keys.keys.reader, keys.keys.admin]) {
        const withoutScope = await server.get(path, bearer(key));
        assert.equal(withoutScope.status, 403, `${path}: ${withoutScope.text}`);
        assert.match(String(withoutScope.headers['www-authenticate']), /error="insufficient_scope", scope="metrics:read"/, path);
      }
    }
    const scraped = await server.get('/metrics', bearer(keys.keys.scraper));
    assert.equal(scraped.status, 200, scraped.text);
    assert.match(scraped.text, /^# HELP /m);
    // The scraper's credential reads metrics and nothing else.
    assert.equal((await server.get('/users/username:keyed', bearer(keys.keys.scraper))).status, 403);
    // Other methods on /metrics need the same scope: a 405 with Allow for the scraper, a 401 or 403 (naming metrics:read) for anyone else.
    for (const method of ['OPTIONS', 'POST', 'DELETE', 'PROPFIND']) {
      const scraper = await server.request(method, '/metrics', { headers: bearer(keys.keys.scraper) });
      assert.equal(scraper.status, 405, `${method}: ${scraper.text}`);
      assert.equal(scraper.headers.allow, 'GET, HEAD', method);
      assert.equal((await server.request(method, '/metrics')).status, 401, method);
      for (const key of [keys.keys.reader, keys.keys.admin]) {
        const refused = await server.request(method, '/metrics', { headers: bearer(key) });
        assert.equal(refused.status, 403, `${method}: ${refused.text}`);
        assert.match(String(refused.headers['www-authenticate']), /scope="metrics:read"/, method);
        assert.equal(refused.headers.allow, undefined, method);
      }
    }
  });
});
