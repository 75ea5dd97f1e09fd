/**
 * Protections below the routes: header size and timeouts answered as problems,
 * method-override headers ignored, no X-Powered-By, overload shedding with the
 * probes still answering.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../src/app.js';
import { apiKeysFixture, type ApiKeysFixture } from './helpers/auth-fixtures.js';
import { loadConfig } from '../src/config.js';
import { clientFor } from './helpers/http-client.js';
import { captureLogs, type LogCapture } from './helpers/log-capture.js';
import { compileDocument, primeDocument } from './helpers/openapi-validator.js';
import { assertProblem } from './helpers/problem-assertions.js';
import { rawExchange, rawExchangeCounted } from './helpers/raw-exchange.js';
import { openTestStore } from './helpers/stores.js';
import { startTestServer, newUser, type TestServer } from './helpers/test-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function problemOf(raw: string): { status: number; headers: string; body: any } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(body) };
}

describe('request limits and headers', () => {
  let server: TestServer;
  let port: number;
  before(async () => {
    server = await startTestServer({ env: { MAX_HEADER_BYTES: '4096', HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '600' } });
    port = Number(new URL(server.baseUrl).port);
  });
  after(() => server.close());

  it('answers headers over MAX_HEADER_BYTES with a 431 problem and closes', async () => {
    const raw = await rawExchange(port, [`GET /users HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(8000)}\r\n\r\n`]);
    const { status, headers, body } = problemOf(raw);
    assert.equal(status, 431);
    assert.match(headers, /content-type: application\/problem\+json/);
    assert.equal(body.type, '/problems/request-header-fields-too-large');
  });

  it('answers a client that sends its headers too slowly with a 408 problem and closes', async () => {
    const raw = await rawExchange(port, ['GET /users HTTP/1.1\r\n', 'Host: x\r\n', 'X-Slow: 1\r\n', 'X-Slow: 2\r\n'], 250);
    const { status, body } = problemOf(raw);
    assert.equal(status, 408);
    assert.equal(body.type, '/problems/request-timeout');
  });

  it('ignores method-override headers: a POST stays a POST', async () => {
    for (const header of ['x-http-method-override', 'x-http-method', 'x-method-override']) {
      const res = await server.post('/users', newUser(), { [header]: 'DELETE' });
      assert.equal(res.status, 201, `${header}: ${res.text}`);
    }
    const res = await server.request('GET', '/users?_method=DELETE');
    assert.equal(res.status, 400, 'an override parameter is just an unknown search parameter');
  });

  it('sends no X-Powered-By or Server header', async () => {
    for (const res of [await server.get('/users'), await server.get('/nope'), await server.post('/users', {})]) {
      assert.equal(res.headers['x-powered-by'], undefined);
      assert.equal(res.headers.server, undefined);
    }
  });
});

/** The response names a request id (a header that is present, not merely stringified). */
function assertRequestId(res: { headers: Record<string, unknown> }): void {
  const id = res.headers['x-request-id'];
  assert.ok(typeof id === 'string' && /^[\x21-\x7e]{1,128}$/.test(id), `X-Request-Id: ${String(id)}`);
}

/** A raw answer's status, lower-cased head, request id and body, asserting it is a problem document. */
function assertRawProblem(raw: string, status: number, type: string): { headers: string; body: any } {
  const { status: got, headers, body } = problemOf(raw);
  assert.equal(got, status, raw);
  assert.match(headers, /content-type: application\/problem\+json/, raw);
  assert.match(headers, /x-request-id: \S+/, `every error names a request id: ${raw}`);
  assert.equal(body.type, `/problems/${type}`, raw);
  assert.equal(body.status, status, raw);
  return { headers, body };
}

describe('errors raised below the router are problem documents with a request id', () => {
  let server: TestServer;
  let port: number;
  let logs: LogCapture;
  before(async () => {
    logs = captureLogs();
    server = await startTestServer({ env: { LOG_LEVEL: 'trace' }, app: { logStream: logs.stream } });
    port = Number(new URL(server.baseUrl).port);
  });
  after(() => server.close());

  it('an HTTP/1.1 request without Host: 400', async () => {
    assertRawProblem(await rawExchange(port, ['GET /users HTTP/1.1\r\nConnection: close\r\n\r\n']), 400, 'malformed-request');
  });

  it('an HTTP/1.0 request without Host is served (Host is an HTTP/1.1 requirement)', async () => {
    assert.match(await rawExchange(port, ['GET /healthz HTTP/1.0\r\n\r\n']), /^HTTP\/1\.1 200 /);
  });

  it('two Host headers: 400 (RFC 9112 §3.2), on every route and on none', async () => {
    for (const path of ['/users', '/healthz', '/nowhere']) {
      assertRawProblem(await rawExchange(port, [`GET ${path} HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n`]), 400, 'malformed-request');
    }
  });

  it('two Authorization headers: 400, even where no credential is needed', async () => {
    for (const path of ['/users', '/healthz']) {
      const raw = await rawExchange(port, [`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nauthorization: Bearer b\r\nConnection: close\r\n\r\n`]);
      assertRawProblem(raw, 400, 'malformed-request');
    }
  });

  it('an Expect other than 100-continue: 417', async () => {
    const raw = await rawExchange(port, ['GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 999-nope\r\nConnection: close\r\n\r\n']);
    assertRawProblem(raw, 417, 'expectation-failed');
  });

  it('a path that is not valid percent-encoding: 400 with a request id', async () => {
    const res = await server.get('/users/email_address:%E0%A4%A');
    assertProblem(res, 400, 'malformed-request');
    assertRequestId(res);
  });

  it('a path segment over the limit: 414 with a request id', async () => {
    const res = await server.get(`/users/${'a'.repeat(2049)}`);
    assertProblem(res, 414, 'uri-too-long');
    assertRequestId(res);
  });

  it('a path that is not valid percent-encoding with two Host headers: the head is refused first, and the connection closed', async () => {
    const raw = await rawExchange(port, ['GET /users/%zz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n']);
    const { headers, body } = assertRawProblem(raw, 400, 'malformed-request');
    assert.match(body.detail, /Host/);
    assert.match(headers, /connection: close/);
  });

  it('an absolute-form target is served as its path: the docs page never redirects to the client\'s host', async () => {
    for (const target of ['http://evil.example/docs/static/index.html', 'https://evil.example:8443/docs', 'http://user@evil.example/docs/']) {
      const raw = await rawExchange(port, [`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`]);
      assert.doesNotMatch(raw, /evil\.example/, `${target}: ${raw.slice(0, 300)}`);
    }
    const res = await server.get('http://anything/users?limit=1');
    assert.equal(res.status, 200);
    const missing = await server.get('http://anything/users/nobody-at-all');
    assert.equal(missing.body.instance, '/users/nobody-at-all', 'a problem names the path, never the authority');
  });

  it('CONNECT: a 405 problem with a request id, not a dropped connection', async () => {
    const raw = await rawExchange(port, ['CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n']);
    assertRawProblem(raw, 405, 'method-not-allowed');
  });

  it('a path outside the docs page\'s folder: a 404 problem, and no stack in the log', async () => {
    logs.clear();
    for (const path of ['/docs/static/../../package.json', '/docs/static/%2e%2e/%2e%2e/package.json', '/docs/static/..%2f..%2fpackage.json', '/docs/static/nothing-here.js']) {
      const res = await server.get(path);
      assertProblem(res, 404, 'not-found');
      assertRequestId(res);
    }
    const withStack = logs.records().filter((r) => r.err !== undefined || r.level >= 40);
    assert.deepEqual(withStack, [], 'a client made the service log an error or a stack');
  });
});

describe('Expect: 100-continue', () => {
  let server: TestServer;
  let port: number;
  let keys: ApiKeysFixture;
  before(async () => {
    keys = apiKeysFixture();
    server = await startTestServer({ env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file } });
    port = Number(new URL(server.baseUrl).port);
  });
  after(async () => {
    await server.close();
    keys.cleanup();
  });

  const head = (authorization: string, length: number) =>
    `POST /users HTTP/1.1\r\nHost: x\r\n${authorization}Content-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`;

  it('a request refused before its body is read is not invited to send it: no 100 Continue before the 401', async () => {
    const raw = await rawExchange(port, [head('', 10)]);
    assert.doesNotMatch(raw, /100 Continue/);
    assert.match(raw, /^HTTP\/1\.1 401 /);
  });

  it('an admitted request is invited, and served', async () => {
    const body = JSON.stringify(newUser());
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      // The body goes only once the server asked for it.
      if (received.startsWith('HTTP/1.1 100 Continue\r\n\r\n') && !socket.writableEnded) socket.end(body);
    });
    await new Promise<void>((resolve) => socket.on('connect', resolve));
    socket.write(head(`Authorization: Bearer ${keys.keys.admin}\r\n`, Buffer.byteLength(body)));
    await new Promise((resolve) => socket.on('close', resolve));
    assert.match(received, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
  });
});

describe('slow and idle clients', () => {
  const REQUEST_TIMEOUT_MS = 1000;
  const KEEP_ALIVE_TIMEOUT_MS = 1500;
  let server: TestServer;
  let port: number;
  before(async () => {
    server = await startTestServer({
      env: { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), HEADERS_TIMEOUT_MS: '500', KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_TIMEOUT_MS) },
    });
    port = Number(new URL(server.baseUrl).port);
  });
  after(() => server.close());

  it('REQUEST_TIMEOUT_MS bounds a body trickled in slower than it: a 408 problem or a closed connection, and nothing is created', async () => {
    const body = newUser();
    const payload = JSON.stringify(body);
    const head = `POST /users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n`;
    // Headers at once, then one byte every 100 ms: the whole body would take about 7 s.
    const pauseMs = 100;
    assert.ok(payload.length * pauseMs > 4 * REQUEST_TIMEOUT_MS, 'the body must take far longer than the timeout');
    const { answer, sent } = await rawExchangeCounted(port, [head, ...payload], pauseMs);
    assert.ok(sent < payload.length + 1, `the server read the whole body (${sent} chunks sent) instead of cutting the request off: ${answer}`);
    assert.equal((await server.get(`/users/username:${String(body.username)}`)).status, 404, 'the user must not have been created');
    assert.deepEqual((await server.get(`/users?username=${String(body.username)}`)).body, []);
    if (answer !== '') {
      const { status, headers, body: problem } = problemOf(answer);
      assert.equal(status, 408, answer);
      assert.match(headers, /content-type: application\/problem\+json/);
      assert.match(headers, /cache-control: no-store/);
      assert.equal(problem.type, '/problems/request-timeout');
      assert.equal(problem.status, 408);
      assert.equal(problem.instance, '/users', 'the instance is the path of the request that timed out');
    }
  });

  it('KEEP_ALIVE_TIMEOUT_MS closes an idle keep-alive connection: still open shortly before, closed soon after', async () => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let closedAt: number | undefined;
    const closed = new Promise<void>((resolve) => socket.on('close', () => ((closedAt = Date.now()), resolve())));
    socket.on('data', (data) => (received += data.toString('utf8')));
    socket.on('error', () => {});
    /** Sends GET /healthz on the connection and waits for its whole response. */
    const healthz = async (): Promise<number> => {
      const before = received.length;
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      for (let waited = 0; !/\r\n\r\n\{"status":"ok"\}$/.test(received.slice(before)); waited += 10) {
        assert.ok(waited < 5000 && closedAt === undefined, `no response on the keep-alive connection: ${JSON.stringify(received.slice(before))}`);
        await sleep(10);
      }
      assert.match(received.slice(before), /^HTTP\/1\.1 200 /);
      return Date.now();
    };
    try {
      await healthz();
      // Still open and usable shortly before the timeout; the second request starts the idle time anew.
      await sleep(KEEP_ALIVE_TIMEOUT_MS - 500);
      assert.equal(closedAt, undefined, 'the connection was closed before KEEP_ALIVE_TIMEOUT_MS');
      const idleSince = await healthz();
      await sleep(KEEP_ALIVE_TIMEOUT_MS - 500);
      assert.equal(closedAt, undefined, 'the connection was closed before KEEP_ALIVE_TIMEOUT_MS of idleness');
      const bound = KEEP_ALIVE_TIMEOUT_MS + 3000;
      await Promise.race([closed, sleep(bound - (Date.now() - idleSince))]);
      assert.ok(closedAt !== undefined, `the idle connection was still open ${bound} ms after its last response`);
    } finally {
      socket.destroy();
    }
  });
});

describe('overload shedding', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '100' } });
  });
  after(() => server.close());

  it('sheds /users requests with a 503 problem while the event loop lags, /readyz agrees, the liveness probe and /metrics answer, and both recover', async () => {
    // Measuring began when the server listened; its first sample (due 10 ms later) only sets a
    // baseline. A timer due later fires after it, so after this wait the next stall is measured.
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The server runs in this process: stalling this thread stalls its event loop.
    const stallUntil = Date.now() + 1500;
    while (Date.now() < stallUntil) {
      /* busy */
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    const shed = await server.get('/users');
    assert.equal(shed.status, 503, shed.text);
    assert.equal(shed.body.type, '/problems/overloaded');
    assert.ok(Number(shed.headers['retry-after']) >= 1);
    // Metrics are never shed: asked before /readyz, which shows the instance still overloaded after.
    assert.equal((await server.get('/metrics')).status, 200, 'metrics answer while the instance sheds');
    const ready = await server.get('/readyz');
    assert.equal(ready.status, 503, 'readiness agrees with shedding');
    assert.equal(ready.body.type, '/problems/overloaded');
    assert.equal((await server.get('/healthz')).status, 200);
    let recovered = false;
    for (let i = 0; i < 40 && !recovered; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      recovered = (await server.get('/users')).status === 200;
    }
    assert.ok(recovered, 'requests are served again once the loop is healthy');
    assert.equal((await server.get('/readyz')).status, 200, 'and the instance is ready again');
  });
});

describe('overload shedding right after start', () => {
  it('does not count the instance\'s own start-up as overload: /users and /readyz both answer 200 at once', async () => {
    const { store, cleanup } = await openTestStore('sqlite');
    // A limit far above what a loaded machine's own delays reach, so only the start-up stall exceeds it.
    const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '1000' }), store });
    try {
      await app.ready();
      const checks = await compileDocument(app.swagger() as Record<string, any>);
      // A slow start-up: the loop is blocked for far longer than the limit before the server listens.
      const stallUntil = Date.now() + 2500;
      while (Date.now() < stallUntil) {
        /* busy */
      }
      await app.listen({ host: '127.0.0.1', port: 0 });
      const baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      await primeDocument(baseUrl, Promise.resolve(checks));
      const client = clientFor(baseUrl);
      // Across the whole first measuring window and into the second.
      for (const until = Date.now() + 1300; Date.now() < until; ) {
        const [users, ready] = [await client.get('/users'), await client.get('/readyz')];
        assert.equal(users.status, 200, users.text);
        assert.equal(ready.status, 200, ready.text);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await app.close();
      await cleanup();
    }
  });
});
