/**
 * Every problem's `instance` is a path-absolute reference the service made (RFC 9457
 * §3.1.5, RFC 3986 §4.2): never a host the client chose, never `*`, never empty, also
 * for problems answered below the router (src/http/problem-instance.ts). Requests go
 * out over raw sockets, since no HTTP client sends these request lines as written.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { problemInstance } from '../../src/http/problem-instance.js';
import { rawExchange, rawResponse } from '../helpers/raw-exchange.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** RFC 3986 path-absolute: `/`, then pchars and slashes, never `//` at the start. */
const PATH_ABSOLUTE = /^\/(?!\/)(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;

/** `instance` is a path-absolute reference, and resolving it against the service's URL stays on the service. */
function assertServiceInstance(instance: unknown, context: string): void {
  assert.equal(typeof instance, 'string', context);
  assert.match(instance as string, PATH_ABSOLUTE, context);
  for (const base of ['http://service.test/users/x', 'https://service.test:8443/a/b?c']) {
    const resolved = new URL(instance as string, base);
    assert.equal(resolved.host, new URL(base).host, `${context}: ${String(instance)} resolves to ${resolved.href}`);
  }
}

describe('problem instance of hostile request targets', () => {
  let server: TestServer;
  let port: number;
  before(async () => {
    server = await startTestServer();
    port = Number(new URL(server.baseUrl).port);
  });
  after(() => server.close());

  /** Sends one request line with a Host and returns the problem answered. */
  async function problemFor(requestLine: string): Promise<{ status: number; body: any; raw: string }> {
    const raw = await rawExchange(port, [`${requestLine}\r\nHost: service.test\r\nConnection: close\r\n\r\n`]);
    const { status, headers, body } = rawResponse(raw);
    assert.match(headers, /content-type: application\/problem\+json/, raw);
    return { status, body, raw };
  }

  it('a malformed request line: a 400 whose instance is the root, not empty', async () => {
    const { status, body } = await problemFor('GARBAGE');
    assert.equal(status, 400);
    assert.equal(body.instance, '/');
  });

  it("a malformed request after an answered one on the same connection names the root, not the earlier request's path", async () => {
    // The second request is sent only once the first is answered, so the parser reads it alone.
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const until = (done: (text: string) => boolean) =>
      new Promise<void>((resolve, reject) => {
        const check = () => (done(received) ? resolve() : undefined);
        socket.on('data', (chunk: Buffer) => {
          received += chunk.toString('latin1');
          check();
        });
        socket.on('close', () => (done(received) ? resolve() : reject(new Error(`closed: ${received}`))));
        socket.on('error', reject);
      });
    const first = until((text) => text.includes('{"status":"ok"}'));
    socket.write('GET /healthz?secret=1 HTTP/1.1\r\nHost: service.test\r\n\r\n');
    await first;
    const second = until((text) => /"instance":"[^"]*"/.test(text.slice(text.indexOf('{"status":"ok"}'))));
    socket.write('GARBAGE\r\n\r\n');
    await second;
    socket.destroy();
    const answer = received.slice(received.indexOf('{"status":"ok"}'));
    assert.match(answer, /^\{"status":"ok"\}HTTP\/1\.1 400 /);
    assert.equal(/"instance":"([^"]*)"/.exec(answer)?.[1], '/');
  });

  it('OPTIONS *: a problem whose instance is the root, not "*"', async () => {
    const { status, body, raw } = await problemFor('OPTIONS * HTTP/1.1');
    assert.ok(status >= 400 && status < 500, raw);
    assert.equal(body.instance, '/');
  });

  it('CONNECT evil.example.com:443: a 405 that names the root, never the host the client chose', async () => {
    const { status, body, raw } = await problemFor('CONNECT evil.example.com:443 HTTP/1.1');
    assert.equal(status, 405);
    assert.equal(body.instance, '/');
    assert.doesNotMatch(raw, /evil\.example/);
  });

  it('an absolute-form target with a foreign host: the instance is its path alone', async () => {
    for (const [target, instance] of [
      ['http://evil.example.com/users/nobody-at-all', '/users/nobody-at-all'],
      ['https://user@evil.example.com:8443/nothing/here?q=1', '/nothing/here'],
      ['http://evil.example.com', '/'],
      ['http://evil.example.com//other.example/x', '/other.example/x'],
    ] as const) {
      const { body, raw } = await problemFor(`GET ${target} HTTP/1.1`);
      assert.equal(body.instance, instance, raw);
      assert.doesNotMatch(raw, /evil\.example/, target);
    }
  });

  it('a path that starts with two slashes or a backslash never becomes a reference to another host', async () => {
    for (const target of ['//evil.example.com/users', '/\\evil.example.com/users', '///evil.example.com']) {
      const { body, raw } = await problemFor(`GET ${target} HTTP/1.1`);
      assertServiceInstance(body.instance, `${target}: ${raw.slice(0, 300)}`);
    }
  });

  it('an Expect the server cannot meet, on an absolute-form target: the instance is the path', async () => {
    const raw = await rawExchange(port, ['GET http://evil.example.com/healthz HTTP/1.1\r\nHost: x\r\nExpect: 999-nope\r\nConnection: close\r\n\r\n']);
    const { status, body } = rawResponse(raw);
    assert.equal(status, 417, raw);
    assert.equal(body.instance, '/healthz');
  });

  it('over many hostile targets, every problem answered over the wire names a path on the service', async () => {
    const hostile = fc.oneof(
      fc.constantFrom('*', '', 'evil.example.com:443', '//evil.example.com', '/\\evil.example.com', 'http://evil.example.com', 'http:evil', 'mailto:a@evil.example'),
      fc.tuple(fc.constantFrom('http://', 'https://', '//', '/', '\\\\', '', 'HTTP://', 'javascript:'), fc.stringMatching(/^[\x21-\x7e]{0,40}$/)).map(([head, rest]) => head + rest),
    );
    const method = fc.constantFrom('GET', 'HEAD', 'OPTIONS', 'CONNECT', 'DELETE', 'PUT', 'BREW');
    await fc.assert(
      fc.asyncProperty(method, hostile, async (verb, target) => {
        const line = target === '' ? verb : `${verb} ${target} HTTP/1.1`;
        const raw = await rawExchange(port, [`${line}\r\nHost: service.test\r\nConnection: close\r\n\r\n`]);
        const { status, body } = rawResponse(raw);
        if (status >= 400 && verb !== 'HEAD') assertServiceInstance(body?.instance, `${line}: ${raw.slice(0, 400)}`);
      }),
      { numRuns: 300 },
    );
  });
});

describe('problemInstance()', () => {
  it('is a path-absolute reference on the service for any string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), fc.webUrl(), fc.webPath()), (target) => assertServiceInstance(problemInstance(target), JSON.stringify(target))),
      { numRuns: 2000 },
    );
  });

  it('keeps an ordinary path as it is, without its query or fragment', () => {
    assert.equal(problemInstance('/users/alice%40example.com?x=1'), '/users/alice%40example.com');
    assert.equal(problemInstance('/users/a#frag'), '/users/a');
    assert.equal(problemInstance('/users/legacy_id:crm:77'), '/users/legacy_id:crm:77');
  });

  it('encodes what a URI may not hold, and a % that starts no percent-encoding', () => {
    assert.equal(problemInstance('/users/a b"c\\d'), '/users/a%20b%22c%5Cd');
    assert.equal(problemInstance('/users/100%'), '/users/100%25');
    assert.equal(problemInstance('/users/\u00e9'), '/users/%E9');
  });

  it('names the root when the target names no path of the service', () => {
    for (const target of [undefined, '', '*', 'evil.example.com:443', 'http://evil.example.com', 'mailto:a@b']) assert.equal(problemInstance(target), '/', String(target));
  });
});
