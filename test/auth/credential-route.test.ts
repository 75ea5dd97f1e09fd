/**
 * GET /credential: any valid credential reads its own id and scopes (never the
 * secret); no credential or a bad one is a 401 like on any protected route;
 * without authentication every scope is held.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiKeysFixture, AUDIENCE, ISSUER, jwtFixture, type ApiKeysFixture, type JwtFixture } from '../helpers/auth-fixtures.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('GET /credential with API keys', () => {
  let keys: ApiKeysFixture;
  let server: TestServer;
  before(async () => {
    keys = apiKeysFixture();
    server = await startTestServer({ env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file } });
  });
  after(async () => {
    await server.close();
    keys.cleanup();
  });

  it('answers each key its id and exactly its scopes, whatever they are, and never the key', async () => {
    const cases = [
      [keys.keys.reader, keys.ids.reader, ['users:read']],
      [keys.keys.writer, keys.ids.writer, ['users:write']],
      [keys.keys.admin, keys.ids.admin, ['users:read', 'users:write']],
    ] as const;
    for (const [key, id, scopes] of cases) {
      const res = await server.get('/credential', { authorization: `Bearer ${key}` });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { auth_mode: 'api-key', id, scopes });
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.ok(!res.text.includes(key));
    }
    const scraper = await server.get('/credential', { authorization: `Bearer ${keys.keys.scraper}` });
    assert.deepEqual(scraper.body.scopes, ['metrics:read'], 'a key without any users scope may still ask who it is');
  });

  it('is a 401 with a Bearer challenge without a credential or with an unknown one', async () => {
    for (const headers of [{}, { authorization: `Bearer ${keys.keys.unknown}` }, { authorization: 'Basic YTpi' }] as Record<string, string>[]) {
      const res = await server.get('/credential', headers);
      assert.equal(res.status, 401);
      assert.equal(res.body.type, '/problems/unauthorized');
      assert.match(String(res.headers['www-authenticate']), /^Bearer realm="user-service"/);
    }
  });
});

describe('GET /credential with tokens', () => {
  let jwt: JwtFixture;
  let server: TestServer;
  before(async () => {
    jwt = await jwtFixture();
    server = await startTestServer({ env: { AUTH_MODE: 'jwt', JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, JWT_JWKS_FILE: jwt.jwksFile } });
  });
  after(async () => {
    await server.close();
    jwt.cleanup();
  });

  it("answers the token's subject, scopes, client and expiry", async () => {
    const exp = Math.floor(Date.now() / 1000) + 600;
    const token = await jwt.token({ sub: 'op-7', scope: 'users:read unknown:scope', azp: 'console-app', exp });
    const res = await server.get('/credential', { authorization: `Bearer ${token}` });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { auth_mode: 'jwt', id: 'op-7', scopes: ['users:read'], client: 'console-app', expires_at: new Date(exp * 1000).toISOString() });
  });
});

describe('GET /credential without authentication', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('says so, with every scope held', async () => {
    const res = await server.get('/credential');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { auth_mode: 'none', scopes: ['users:read', 'users:write', 'metrics:read'] });
  });
});
