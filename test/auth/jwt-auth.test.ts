import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { AUDIENCE, ISSUER, jwtFixture, type JwtFixture } from '../helpers/auth-fixtures.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { assertAdmitted, assertRefusedEverywhere, routeCases, type RouteCase } from './route-matrix.js';

const now = () => Math.floor(Date.now() / 1000);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('AUTH_MODE=jwt with JWT_JWKS_FILE', () => {
  let jwt: JwtFixture;
  let server: TestServer;
  let cases: RouteCase[];

  before(async () => {
    jwt = await jwtFixture();
    server = await startTestServer({ env: { AUTH_MODE: 'jwt', JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, JWT_JWKS_FILE: jwt.jwksFile } });
    const created = await server.post('/users', { username: 'tokened', email_address: 'tokened@example.com' }, bearer(await jwt.token()));
    assert.equal(created.status, 201, created.text);
    cases = routeCases(created.body);
  });
  after(async () => {
    await server.close();
    jwt.cleanup();
  });

  it('no credential: 401 on every route, the same for existing and missing users', async () => {
    await assertRefusedEverywhere(server, cases, {}, () => 401);
  });

  const refusedTokens: [string, () => Promise<string> | string][] = [
    ['expired beyond the clock tolerance', () => jwt.token({ exp: now() - 120, iat: now() - 900 })],
    ['without exp', () => jwt.token({ exp: undefined })],
    ['not valid before a future nbf', () => jwt.token({ nbf: now() + 300 })],
    ['from the wrong issuer', () => jwt.token({ iss: 'https://evil.test' })],
    ['for the wrong audience', () => jwt.token({ aud: 'another-service' })],
    ['with alg none', () => jwt.unsignedToken()],
    ['HS256 signed with the public key', () => jwt.publicKeyHmacToken()],
    ['signed by a key with an unknown kid', () => jwt.foreignToken()],
    ['signed by a foreign key under a known kid', async () => (await jwt.foreignToken()).replace(/^[^.]+/, Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'rsa-1' })).toString('base64url'))],
    ['with a tampered payload', async () => {
      const [head, , sig] = (await jwt.token({ scope: 'users:read' })).split('.');
      return `${head}.${Buffer.from(JSON.stringify({ iss: ISSUER, aud: AUDIENCE, sub: 'x', scope: 'users:read users:write', exp: now() + 600 })).toString('base64url')}.${sig}`;
    }],
    ['that is not a JWT at all', () => 'not.a.jwt'],
  ];
  for (const [name, make] of refusedTokens) {
    it(`a token ${name}: 401 invalid_token everywhere`, async () => {
      await assertRefusedEverywhere(server, cases, bearer(await make()), () => 401);
    });
  }

  it('a token without the scope: 403 insufficient_scope', async () => {
    await assertRefusedEverywhere(server, cases, bearer(await jwt.token({ scope: 'users:read' })), (c) => (c.scope === 'users:write' ? 403 : 'pass'));
    await assertRefusedEverywhere(server, cases, bearer(await jwt.token({ scope: 'users:write' })), (c) => (c.scope === 'users:read' ? 403 : 'pass'));
    await assertRefusedEverywhere(server, cases, bearer(await jwt.token({ scope: 'profile users:readwrite' })), () => 403);
  });

  it('valid RS256 and ES256 tokens pass, with scopes from `scope` or `scp`', async () => {
    await assertAdmitted(server, cases, bearer(await jwt.token()), ['users:read', 'users:write']);
    await assertAdmitted(server, cases, bearer(await jwt.token({}, { alg: 'ES256' })), ['users:read', 'users:write']);
    await assertAdmitted(server, cases, bearer(await jwt.token({ scope: undefined, scp: ['users:read'] })), ['users:read']);
    await assertAdmitted(server, cases, bearer(await jwt.token({ scope: undefined, scp: 'users:write' })), ['users:write']);
  });

  it('allows a small clock skew: expired 10 s ago or nbf 10 s ahead still passes', async () => {
    assert.equal((await server.get('/users/username:tokened', bearer(await jwt.token({ exp: now() - 10 })))).status, 200);
    assert.equal((await server.get('/users/username:tokened', bearer(await jwt.token({ nbf: now() + 10 })))).status, 200);
  });
});

describe('AUTH_MODE=jwt with JWT_JWKS_URL', () => {
  let jwt: JwtFixture;
  let jwksServer: Server;
  let server: TestServer;
  let fetches = 0;

  before(async () => {
    jwt = await jwtFixture();
    jwksServer = createServer((_req, res) => {
      fetches += 1;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(jwt.jwks));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    const address = jwksServer.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    server = await startTestServer({ env: { AUTH_MODE: 'jwt', JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, JWT_JWKS_URL: `http://127.0.0.1:${port}/jwks.json` } });
  });
  after(async () => {
    await server.close();
    await new Promise((resolve) => jwksServer.close(resolve));
    jwt.cleanup();
  });

  it('fetches the key set from the configured URL, caches it, and verifies against it', async () => {
    assert.equal((await server.get('/users', bearer(await jwt.token()))).status, 200);
    assert.equal((await server.get('/users', bearer(await jwt.token({}, { alg: 'ES256' })))).status, 200);
    assert.equal((await server.get('/users', bearer(await jwt.foreignToken()))).status, 401);
    assert.equal((await server.get('/users', bearer(jwt.unsignedToken()))).status, 401);
    assert.ok(fetches >= 1 && fetches <= 2, `fetched ${fetches} times`);
  });
});
