/**
 * CONTRACT §7: an acknowledged write survives `kill -9` of the process right after
 * the response; SIGTERM/SIGINT stop accepting, finish requests in flight and exit 0.
 * The service runs as a real child process (dist/bundle/server.mjs) on a SQLite file.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { apiKeysFixture } from './helpers/auth-fixtures.js';
import { startChildServer, type ChildServer, type StartedChildServer } from './helpers/child-server.js';
import type { TestResponse } from './helpers/http-client.js';
import { assertProblem } from './helpers/problem-assertions.js';
import { newUser } from './helpers/test-server.js';

const children: ChildServer[] = [];
let dir: string;

function dbEnv(name: string) {
  return { DATABASE_URL: `sqlite:${join(dir, name)}`, SHUTDOWN_TIMEOUT_MS: '20000' };
}

async function start(name: string, env: Record<string, string> = {}): Promise<StartedChildServer> {
  // debug: the tests that hold a request in flight wait for its 'incoming request' line.
  const server = await startChildServer({ env: { ...dbEnv(name), LOG_LEVEL: 'debug', ...env }, cwd: dir });
  children.push(server);
  return server;
}

function expectStatus(response: TestResponse, status: number, what: string): void {
  assert.equal(response.status, status, `${what}: expected ${status}, got ${response.status} ${response.text}`);
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'user-service-durability-'));
});

after(async () => {
  await Promise.all(children.map((child) => child.dispose()));
  rmSync(dir, { recursive: true, force: true });
});

describe('acknowledged writes survive kill -9', () => {
  it('keeps every acknowledged create, update and delete exactly as acknowledged after SIGKILL and restart', async () => {
    const first = await start('crash.db');
    const bodies = Array.from({ length: 50 }, (_, i) =>
      newUser({ legacy_ids: [`dur-${i}`, `crm:${i}`], display_name: `Durable ${i}`, attributes: { n: i, tags: ['a', 'b'] } }),
    );
    const created = await Promise.all(bodies.map((body) => first.post('/users', body)));
    const acknowledged = new Map<string, Record<string, unknown>>();
    created.forEach((response, i) => {
      expectStatus(response, 201, `POST #${i}`);
      acknowledged.set(response.body.uid, response.body);
    });
    const uids = [...acknowledged.keys()];
    const updated = uids.slice(0, 10);
    const deleted = uids.slice(10, 15);
    const deletedUsers = deleted.map((uid) => acknowledged.get(uid)!);

    // Updates and deletes run concurrently; the process is killed as soon as the last one answers.
    const writes = await Promise.all([
      ...updated.map((uid, i) =>
        first.put(`/users/${uid}`, {
          username: `renamed${process.pid}x${i}`,
          email_address: `renamed${process.pid}x${i}@example.org`,
          legacy_ids: [`upd-${i}`],
          attributes: { updated: true },
        }),
      ),
      ...deleted.map((uid) => first.delete(`/users/${uid}`)),
    ]);
    first.kill('SIGKILL');
    writes.slice(0, updated.length).forEach((response, i) => {
      expectStatus(response, 200, `PUT ${updated[i]}`);
      assert.equal(response.body.version, 2);
      acknowledged.set(response.body.uid, response.body);
    });
    writes.slice(updated.length).forEach((response, i) => expectStatus(response, 204, `DELETE ${deleted[i]}`));
    for (const uid of deleted) acknowledged.delete(uid);
    assert.deepEqual(await first.waitForExit(), { code: null, signal: 'SIGKILL' });

    const second = await start('crash.db');
    for (const [uid, user] of acknowledged) {
      const read = await second.get(`/users/${uid}`);
      expectStatus(read, 200, `GET ${uid} after restart`);
      assert.deepEqual(read.body, user, `user ${uid} differs from what was acknowledged`);
    }
    const all = await second.get('/users?limit=1000');
    expectStatus(all, 200, 'GET /users after restart');
    assert.deepEqual(new Set(all.body.map((user: { uid: string }) => user.uid)), new Set(acknowledged.keys()));

    for (const user of deletedUsers) {
      expectStatus(await second.get(`/users/${user.uid}`), 404, `GET deleted ${user.uid}`);
      const legacyIds = user.legacy_ids as string[];
      expectStatus(await second.get(`/users/username:${encodeURIComponent(String(user.username))}`), 404, 'lookup of a deleted username');
      expectStatus(await second.get(`/users/legacy_id:${encodeURIComponent(legacyIds[0]!)}`), 404, 'lookup of a deleted legacy id');
      const reuse = await second.post('/users', { username: user.username, email_address: user.email_address, legacy_ids: legacyIds });
      expectStatus(reuse, 201, `re-creating with the freed keys of ${user.uid}`);
      assert.notEqual(reuse.body.uid, user.uid, 'a uid is never reused');
    }
    // An update's new keys are held by its user after the restart, and the keys it gave up are free.
    const renamed = acknowledged.get(updated[0]!)!;
    assert.equal((await second.get('/users/legacy_id:upd-0')).body?.uid, renamed.uid);
    assert.equal((await second.get(`/users/username:${String(renamed.username).toUpperCase()}`)).body?.uid, renamed.uid);
    const formerBody = bodies[created.findIndex((response) => response.body.uid === renamed.uid)]!;
    expectStatus(await second.get(`/users/legacy_id:${encodeURIComponent((formerBody.legacy_ids as string[])[0]!)}`), 404, 'lookup of a legacy id given up by PUT');
  });
});

/** POST /users with the headers and half the body sent; `finish()` sends the rest and resolves with the response. */
function slowPost(port: number, body: unknown) {
  const payload = Buffer.from(JSON.stringify(body));
  const half = Math.floor(payload.length / 2);
  let resolveResponse!: (value: { status: number; text: string }) => void;
  let rejectResponse!: (error: Error) => void;
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    resolveResponse = resolve;
    rejectResponse = reject;
  });
  const req = http.request(
    { host: '127.0.0.1', port, method: 'POST', path: '/users', agent: false, headers: { 'content-type': 'application/json', 'content-length': String(payload.length) } },
    (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolveResponse({ status: res.statusCode ?? 0, text }));
      res.on('error', rejectResponse);
    },
  );
  req.on('error', rejectResponse);
  req.write(payload.subarray(0, half));
  return {
    response,
    finish() {
      req.end(payload.subarray(half));
      return response;
    },
  };
}

/** Resolves once a new TCP connection to `port` is refused (the server stopped accepting). */
async function untilRefused(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.once('connect', () => (socket.destroy(), resolve(false)));
      socket.once('error', () => resolve(true));
    });
    if (refused) return;
    if (Date.now() > deadline) throw new Error(`port ${port} still accepts connections ${timeoutMs} ms after SIGTERM`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The complete HTTP/1.1 responses in `raw` (bodies delimited by Content-Length), as TestResponses. */
function responsesIn(raw: string): TestResponse[] {
  const responses: TestResponse[] = [];
  for (let at = 0; ; ) {
    const end = raw.indexOf('\r\n\r\n', at);
    if (end === -1) return responses;
    const [statusLine = '', ...lines] = raw.slice(at, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
    const length = Number(headers['content-length'] ?? 0);
    if (raw.length < end + 4 + length) return responses;
    const text = raw.slice(end + 4, end + 4 + length);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, text, body });
    at = end + 4 + length;
  }
}

/** A plain TCP connection to the service: what it received so far, and whether the server ended it. */
async function rawConnection(port: number) {
  const socket = net.connect({ host: '127.0.0.1', port });
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {});
  const ended = new Promise<boolean>((resolve) => socket.on('end', () => resolve(true)));
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return {
    socket,
    received: () => received,
    /** Whether the server ends the connection within `timeoutMs`. */
    endedByServer: (timeoutMs = 3000) => Promise.race([ended, new Promise<boolean>((resolve) => setTimeout(resolve, timeoutMs, false))]),
    /** Resolves once `count` complete responses have arrived; rejects after `timeoutMs`. */
    async responses(count: number, timeoutMs = 10_000): Promise<TestResponse[]> {
      const deadline = Date.now() + timeoutMs;
      while (responsesIn(received).length < count) {
        if (Date.now() > deadline) throw new Error(`${count} responses expected; received ${JSON.stringify(received)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return responsesIn(received);
    },
  };
}

/** The head and the first half of the body of POST /users (keep-alive), and the rest of the body. */
function postInHalves(body: unknown): [head: string, rest: string] {
  const payload = JSON.stringify(body);
  const half = Math.floor(payload.length / 2);
  const head = `POST /users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n`;
  return [head + payload.slice(0, half), payload.slice(half)];
}

const incomingPost = (record: Record<string, unknown>) =>
  record.msg === 'incoming request' && (record.req as { method?: string } | undefined)?.method === 'POST';

/** Opens a connection and sends POST /users with half its body: the request is in flight once this resolves. */
async function holdPostInFlight(server: StartedChildServer) {
  const body = newUser();
  const connection = await rawConnection(server.port);
  const [head, rest] = postInHalves(body);
  connection.socket.write(head);
  await server.waitForLog(incomingPost);
  return { connection, body, rest };
}

describe('graceful stop', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`exits with code 0 on ${signal}`, async () => {
      const server = await start(`stop-${signal}.db`);
      expectStatus(await server.post('/users', newUser()), 201, 'POST before stopping');
      server.kill(signal);
      assert.deepEqual(await server.waitForExit(), { code: 0, signal: null }, server.describe());
    });
  }

  it('finishes a request that is in flight when SIGTERM arrives with a 201, keeps it, then exits 0', async () => {
    const server = await start('in-flight.db');
    const body = newUser({ legacy_ids: ['in-flight'] });
    const pending = slowPost(server.port, body);
    // The server has read the headers: the request is in flight, its body incomplete.
    await server.waitForLog(incomingPost);
    server.kill('SIGTERM');
    await untilRefused(server.port);
    const response = await pending.finish();
    assert.equal(response.status, 201, `in-flight POST: expected 201, got ${response.status} ${response.text}`);
    const created = JSON.parse(response.text);
    assert.deepEqual(await server.waitForExit(), { code: 0, signal: null }, server.describe());

    const restarted = await start('in-flight.db');
    const again = await restarted.get(`/users/${created.uid}`);
    expectStatus(again, 200, 'GET of the in-flight user after restart');
    assert.deepEqual(again.body, created);
  });

  // Node's server.close() closes the keep-alive connections that are idle at that moment (Fastify's
  // forceCloseConnections defaults to 'idle'); src/app.ts answers every request that still arrives
  // once closing began with 503 store-unavailable, Retry-After: 1 and Connection: close (docs/api.md).
  it('closes an idle keep-alive connection at SIGTERM without an answer while a request is in flight', async () => {
    const server = await start('idle-keep-alive.db');
    const idle = await rawConnection(server.port);
    idle.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const [health] = await idle.responses(1);
    expectStatus(health!, 200, 'GET /healthz before stopping');
    assert.notEqual(health!.headers.connection, 'close', 'the connection must be keep-alive');
    const answeredBefore = idle.received();

    const { connection: busy, rest } = await holdPostInFlight(server);
    server.kill('SIGTERM');
    await untilRefused(server.port);
    assert.ok(await idle.endedByServer(), 'the idle keep-alive connection must be closed by the server once it stops accepting');
    assert.equal(idle.received(), answeredBefore, 'nothing more may be sent on the idle connection');

    busy.socket.write(rest);
    const [created] = await busy.responses(1);
    expectStatus(created!, 201, 'the POST in flight');
    busy.socket.destroy();
    assert.deepEqual(await server.waitForExit(), { code: 0, signal: null }, server.describe());
  });

  it('answers a request arriving after SIGTERM on an open keep-alive connection with a 503 store-unavailable problem, Retry-After and Connection: close', async () => {
    const server = await start('closing-keep-alive.db');
    const { connection, body, rest } = await holdPostInFlight(server);
    server.kill('SIGTERM');
    await untilRefused(server.port);
    // The rest of the POST and, right behind it on the same connection, a new request.
    connection.socket.write(`${rest}GET /users/username:${String(body.username)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    const [created, refused] = await connection.responses(2);
    expectStatus(created!, 201, 'the POST in flight');
    assertProblem(refused!, 503, 'store-unavailable');
    assert.equal(refused!.headers['retry-after'], '1');
    assert.equal(refused!.headers.connection, 'close');
    assert.ok(await connection.endedByServer(), 'the server closes the connection after the 503');
    assert.deepEqual(await server.waitForExit(), { code: 0, signal: null }, server.describe());
  });

  it('a refused request whose body never comes neither holds the stop nor makes it log an error', async () => {
    const keys = apiKeysFixture();
    try {
      const server = await start('refused-slow-body.db', { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file });
      const connection = await rawConnection(server.port);
      // No credential, a body announced but never sent: the 401 goes out before the body is read.
      connection.socket.write('POST /users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
      const [refused] = await connection.responses(1);
      assertProblem(refused!, 401, 'unauthorized');
      assert.equal(refused!.headers.connection, 'close', 'the connection is closed rather than kept for a body nobody reads');
      server.kill('SIGTERM');
      assert.deepEqual(await server.waitForExit(), { code: 0, signal: null }, server.describe());
      assert.deepEqual(server.logs().filter((r) => Number(r.level) >= 50), [], 'no error line');
    } finally {
      keys.cleanup();
    }
  });

  it('a connection that never finishes its request head neither holds the stop nor makes it log an error', async () => {
    const server = await start('partial-head.db', { HEADERS_TIMEOUT_MS: '30000', REQUEST_TIMEOUT_MS: '60000' });
    const connection = await rawConnection(server.port);
    connection.socket.write('GET /users HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // A whole request on another connection, answered after the partial head was written.
    expectStatus(await server.get('/healthz'), 200, 'GET /healthz');
    server.kill('SIGTERM');
    assert.deepEqual(await server.waitForExit(), { code: 0, signal: null }, server.describe());
    assert.deepEqual(server.logs().filter((r) => Number(r.level) >= 50), [], 'no error line');
  });

  it('exits with code 1 once SHUTDOWN_TIMEOUT_MS has passed with a request still in flight', async () => {
    const server = await start('shutdown-timeout.db', { SHUTDOWN_TIMEOUT_MS: '500' });
    const { connection: held } = await holdPostInFlight(server); // the rest of the body never comes
    server.kill('SIGTERM');
    try {
      assert.deepEqual(await server.waitForExit(5000), { code: 1, signal: null }, server.describe());
    } finally {
      held.socket.destroy();
    }
    assert.equal(responsesIn(held.received()).some((response) => response.status === 201), false, 'the held request was never completed');
  });
});
