import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiKeysFixture, type ApiKeysFixture } from '../helpers/auth-fixtures.js';
import type { TestResponse } from '../helpers/http-client.js';
import { captureLogs } from '../helpers/log-capture.js';
import { REDIS_URL, redisSkipReason } from '../helpers/redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const skip = await redisSkipReason();
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

function count(responses: TestResponse[], status: number): number {
  return responses.filter((r) => r.status === status).length;
}

describe('rate limit shared by two instances through Redis', skip ? { skip } : {}, () => {
  let keys: ApiKeysFixture;
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    keys = apiKeysFixture();
    const env = { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file, RATE_LIMIT_MAX: '10', RATE_LIMIT_WINDOW_S: '60', REDIS_URL };
    [a, b] = await Promise.all([startTestServer({ env }), startTestServer({ env })]);
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
    keys.cleanup();
  });

  it('one credential spread over both instances gets one combined budget, then 429 problems with Retry-After', async () => {
    const responses: TestResponse[] = [];
    for (let i = 0; i < 14; i++) responses.push(await (i % 2 ? a : b).get('/users', bearer(keys.keys.reader)));
    assert.equal(count(responses, 200), 10, responses.map((r) => r.status).join(','));
    assert.equal(count(responses, 429), 4);
    const limited = responses.find((r) => r.status === 429)!;
    assert.equal(limited.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(limited.body.type, '/problems/rate-limited');
    assert.ok(Number(limited.headers['retry-after']) >= 1 && Number(limited.headers['retry-after']) <= 60, String(limited.headers['retry-after']));
  });

  it('another credential has its own budget', async () => {
    assert.equal((await a.get('/users', bearer(keys.keys.admin))).status, 200);
  });

  it('the probes are never limited', async () => {
    for (let i = 0; i < 25; i++) {
      assert.equal((await a.get('/healthz')).status, 200);
      assert.equal((await b.get('/readyz')).status, 200);
    }
  });
});

describe('client addresses for the rate limit', () => {
  async function distinctForwardedBudgets(env: Record<string, string>): Promise<number[]> {
    const server = await startTestServer({ env: { RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_S: '60', ...env } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await server.get('/users', { 'x-forwarded-for': `203.0.113.${i}` })).status);
      return statuses;
    } finally {
      await server.close();
    }
  }

  it('a trusted proxy passing a value that is no address through: the connection\'s address is used, shared by all such requests', async () => {
    const logs = captureLogs();
    const server = await startTestServer({ env: { RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_S: '60', TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'info' }, app: { logStream: logs.stream } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await server.get('/users', { 'x-forwarded-for': `bob.secret${i}@victim.example` })).status);
      assert.deepEqual(statuses, [200, 200, 429, 429], 'no bucket per made-up value');
      assert.doesNotMatch(logs.text(), /victim\.example/, 'the made-up value is never logged');
      assert.ok(logs.records().some((r) => r.req?.remoteAddress === '127.0.0.1'));
    } finally {
      await server.close();
    }
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY names the proxy', async () => {
    assert.deepEqual(await distinctForwardedBudgets({}), [200, 200, 429, 429], 'spoofed addresses share the real one');
    assert.deepEqual(await distinctForwardedBudgets({ TRUST_PROXY: '127.0.0.1' }), [200, 200, 200, 200], 'a trusted proxy forwards real client addresses');
    assert.deepEqual(await distinctForwardedBudgets({ TRUST_PROXY: '10.0.0.0/8' }), [200, 200, 429, 429], 'a proxy not in the list is not believed');
  });
});

describe('rate limit and failed credentials', () => {
  it('counts requests with a bad credential against the client address, so key guessing is limited too', async () => {
    const keys = apiKeysFixture();
    const server = await startTestServer({ env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file, RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_S: '60' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await server.get('/users', bearer(`guess-${i}`))).status);
      assert.deepEqual(statuses, [401, 401, 401, 429, 429]);
    } finally {
      await server.close();
      keys.cleanup();
    }
  });
});

describe('rate limit of requests no route answers', () => {
  it('paths that are not valid percent-encoding, paths over the limit and unknown paths all count, and are limited', async () => {
    const server = await startTestServer({ env: { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_S: '60' } });
    try {
      const statuses: number[] = [];
      for (const path of ['/users/%zz', `/users/${'a'.repeat(2100)}`, '/nowhere', '/users/%zz', `/users/${'a'.repeat(2100)}`]) statuses.push((await server.get(path)).status);
      assert.deepEqual(statuses, [400, 414, 404, 429, 429]);
    } finally {
      await server.close();
    }
  });
});
