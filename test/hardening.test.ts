/**
 * Protections below the routes: header size and timeouts answered as problems,
 * method-override headers ignored, no X-Powered-By, overload shedding with the
 * probes still answering.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestServer, newUser, type TestServer } from './helpers/test-server.js';

/** Sends raw bytes and returns everything the server answers until it closes the connection. */
function rawExchange(port: number, chunks: string[], pauseMs = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (data) => (answer += data.toString('utf8')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        socket.write(chunk);
        if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      }
    });
  });
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
