/**
 * Protections below the routes: header size and timeouts answered as problems,
 * method-override headers ignored, no X-Powered-By, overload shedding with the
 * probes still answering.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestServer, newUser, type TestServer } from './helpers/test-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends raw bytes, `pauseMs` apart, and returns everything the server answers until it
 * closes the connection, and how many of the chunks were sent before it did.
 */
function rawExchangeCounted(port: number, chunks: string[], pauseMs = 0): Promise<{ answer: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    let closed = false;
    socket.on('data', (data) => (answer += data.toString('utf8')));
    socket.on('end', () => (closed = true));
    socket.on('close', () => ((closed = true), resolve({ answer, sent })));
    // Writing into a connection the server has just closed is the expected end of a slow exchange.
    socket.on('error', (error: NodeJS.ErrnoException) => (['EPIPE', 'ECONNRESET'].includes(error.code ?? '') ? undefined : reject(error)));
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (closed) return;
        socket.write(chunk);
        sent += 1;
        if (pauseMs) await sleep(pauseMs);
      }
    });
  });
}

/** Sends raw bytes and returns everything the server answers until it closes the connection. */
async function rawExchange(port: number, chunks: string[], pauseMs = 0): Promise<string> {
  return (await rawExchangeCounted(port, chunks, pauseMs)).answer;
}

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

  it('sheds /users requests with a 503 problem while the event loop lags, keeps the probes answering, and recovers', async () => {
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
    assert.equal((await server.get('/healthz')).status, 200);
    let recovered = false;
    for (let i = 0; i < 40 && !recovered; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      recovered = (await server.get('/users')).status === 200;
    }
    assert.ok(recovered, 'requests are served again once the loop is healthy');
  });
});
