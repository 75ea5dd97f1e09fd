import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { AUDIENCE, ISSUER, jwtFixture, type JwtFixture } from '../helpers/auth-fixtures.js';
import { captureLogs } from '../helpers/log-capture.js';
import { assertProblem } from '../helpers/problem-assertions.js';
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

  it('GET /metrics needs metrics:read in the token', async () => {
    assert.equal((await server.get('/metrics')).status, 401);
    const directory = await server.get('/metrics', bearer(await jwt.token({ scope: 'users:read users:write' })));
    assert.equal(directory.status, 403, directory.text);
    assert.match(String(directory.headers['www-authenticate']), /scope="metrics:read"/);
    const scraper = await server.get('/metrics', bearer(await jwt.token({ scope: undefined, scp: ['metrics:read'] })));
    assert.equal(scraper.status, 200, scraper.text);
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

/** What the test's JWKS endpoint answers. */
type JwksAnswer = 'keys' | 'http-500' | 'not-json' | 'not-a-key-set' | 'empty-set';

/** A JWKS endpoint on a loopback address whose answer the test sets. */
async function jwksEndpoint(jwt: JwtFixture, host: string) {
  let answer: JwksAnswer = 'keys';
  let fetches = 0;
  const server = createServer((_req, res) => {
    fetches += 1;
    if (answer === 'http-500') {
      res.writeHead(500).end('oops');
      return;
    }
    res.setHeader('content-type', 'application/json');
    const body = { keys: JSON.stringify(jwt.jwks), 'not-json': '{"keys": [', 'not-a-key-set': '{"keys": "none"}', 'empty-set': '{"keys": []}' }[answer];
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/jwks.json`,
    set: (next: JwksAnswer) => (answer = next),
    fetches: () => fetches,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe('AUTH_MODE=jwt with JWT_JWKS_URL', () => {
  let jwt: JwtFixture;
  let jwks: Awaited<ReturnType<typeof jwksEndpoint>>;
  let server: TestServer;

  before(async () => {
    jwt = await jwtFixture();
    jwks = await jwksEndpoint(jwt, '127.0.0.1');
    server = await startTestServer({ env: { AUTH_MODE: 'jwt', JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, JWT_JWKS_URL: jwks.url } });
  });
  after(async () => {
    await server.close();
    await jwks.close();
    jwt.cleanup();
  });

  it('fetches the key set from the configured URL, caches it, and verifies against it', async () => {
    assert.equal((await server.get('/users', bearer(await jwt.token()))).status, 200);
    assert.equal((await server.get('/users', bearer(await jwt.token({}, { alg: 'ES256' })))).status, 200);
    assert.equal((await server.get('/users', bearer(await jwt.token({}, { alg: 'ES256' })))).status, 200);
    assert.equal((await server.get('/users', bearer(jwt.unsignedToken()))).status, 401);
    assert.equal(jwks.fetches(), 1, 'one fetch serves every token while the set is fresh');
  });
});

describe('AUTH_MODE=jwt when the key set cannot be had', () => {
  let jwt: JwtFixture;
  let jwks: Awaited<ReturnType<typeof jwksEndpoint>>;

  before(async () => {
    jwt = await jwtFixture();
    jwks = await jwksEndpoint(jwt, '127.0.0.1');
  });
  after(async () => {
    await jwks.close();
    jwt.cleanup();
  });

  /** A fresh instance (no cached keys) facing a broken endpoint. */
  async function withFreshInstance(answer: JwksAnswer, test: (server: TestServer) => Promise<void>) {
    jwks.set(answer);
    const server = await startTestServer({ env: { AUTH_MODE: 'jwt', JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, JWT_JWKS_URL: jwks.url } });
    try {
      await test(server);
    } finally {
      await server.close();
    }
  }

  for (const answer of ['http-500', 'not-json', 'not-a-key-set'] as const) {
    it(`a JWKS endpoint answering ${answer}: a valid token gets 503 authentication-unavailable, not 401; it passes once the endpoint recovers`, async () => {
      await withFreshInstance(answer, async (server) => {
        const res = await server.get('/users', bearer(await jwt.token()));
        assertProblem(res, 503, 'authentication-unavailable');
        const retryAfter = Number(res.headers['retry-after']);
        assert.ok(retryAfter >= 1);
        jwks.set('keys');
        // As a client is told to: wait Retry-After, then try again.
        await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 50));
        assert.equal((await server.get('/users', bearer(await jwt.token()))).status, 200);
      });
    });
  }

  it('an unreachable JWKS endpoint: 503', async () => {
    const closed = await jwksEndpoint(jwt, '127.0.0.1');
    await closed.close();
    const server = await startTestServer({ env: { AUTH_MODE: 'jwt', JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, JWT_JWKS_URL: closed.url } });
    try {
      assertProblem(await server.get('/users', bearer(await jwt.token())), 503, 'authentication-unavailable');
    } finally {
      await server.close();
    }
  });

  it('while the key set fails, it is asked at most once a second however many tokens arrive, and the outage is logged without a stack', async () => {
    jwks.set('http-500');
    const logs = captureLogs();
    const server = await startTestServer({ env: { AUTH_MODE: 'jwt', JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, JWT_JWKS_URL: jwks.url, LOG_LEVEL: 'info' }, app: { logStream: logs.stream } });
    try {
      const before = jwks.fetches();
      const started = Date.now();
      for (let i = 0; i < 30; i++) {
        const token = await jwt.token({}, { kid: `unknown-${i}` });
        assertProblem(await server.get('/users', bearer(token)), 503, 'authentication-unavailable');
      }
      const seconds = (Date.now() - started) / 1000;
      assert.ok(jwks.fetches() - before <= Math.ceil(seconds) + 1, `${jwks.fetches() - before} fetches in ${seconds.toFixed(1)} s`);
      const warnings = logs.records().filter((r) => r.level === 40);
      assert.ok(warnings.length >= 1 && warnings.length <= Math.ceil(seconds / 10) + 1, `${warnings.length} warnings`);
      assert.doesNotMatch(logs.text(), /"stack"/, 'no stack in the log');
    } finally {
      await server.close();
      jwks.set('keys');
    }
  });

  it('a reachable key set that holds no matching key: the token is refused with 401', async () => {
    await withFreshInstance('empty-set', async (server) => {
      assertProblem(await server.get('/users', bearer(await jwt.token())), 401, 'unauthorized');
    });
  });
});

describe('AUTH_MODE=jwt with a JWKS URL on the IPv6 loopback', () => {
  it('accepts http://[::1]:port as loopback and verifies tokens with the keys served there', async () => {
    const jwt = await jwtFixture();
    const jwks = await jwksEndpoint(jwt, '::1');
    let server: TestServer | undefined;
    try {
      assert.match(jwks.url, /^http:\/\/\[::1\]:\d+\//);
      server = await startTestServer({ env: { AUTH_MODE: 'jwt', JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, JWT_JWKS_URL: jwks.url } });
      assert.equal((await server.get('/users', bearer(await jwt.token()))).status, 200);
    } finally {
      await server?.close();
      await jwks.close();
      jwt.cleanup();
    }
  });
});

describe('AUTH_MODE=jwt credential ids', () => {
  it('a subject that is an email address is logged as a pseudonym, the same for every request of that subject', async () => {
    const jwt = await jwtFixture();
    const logs = captureLogs();
    const server = await startTestServer({ env: { AUTH_MODE: 'jwt', JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, JWT_JWKS_FILE: jwt.jwksFile, LOG_LEVEL: 'info' }, app: { logStream: logs.stream } });
    try {
      const token = await jwt.token({ sub: 'Bob.Secret@victim.example' });
      assert.equal((await server.post('/users', { username: 'pseudonymous', email_address: 'p@example.com' }, bearer(token))).status, 201);
      assert.equal((await server.post('/users', { username: 'pseudonymous', email_address: 'p@example.com' }, bearer(token))).status, 409);
      const credentials = logs.records().filter((r) => r.msg === 'audit').map((r) => r.audit.credential);
      assert.equal(credentials.length, 2);
      assert.match(credentials[0], /^sha256:[0-9a-f]{16}$/);
      assert.equal(credentials[1], credentials[0]);
      assert.doesNotMatch(logs.text(), /victim\.example/i);
    } finally {
      await server.close();
      jwt.cleanup();
    }
  });
});
