/**
 * Response compression (RFC 9110 §8.4, §12.5.3): br or gzip as Accept-Encoding
 * ranks them, for compressible bodies of at least 1 KiB (search pages, the
 * OpenAPI document, /metrics, the docs page's assets); never for an answer with
 * a strong ETag (a user), whose tag must name the bytes sent, nor for the event
 * stream, whose events must not wait in a compressor.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { openEventStream } from '../helpers/sse-client.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as received, before any decoding. */
  bytes: Buffer;
}

function raw(baseUrl: string, method: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The body decoded as its Content-Encoding says. */
function decoded(response: RawResponse): string {
  const coding = response.headers['content-encoding'];
  if (coding === 'gzip') return gunzipSync(response.bytes).toString('utf8');
  if (coding === 'br') return brotliDecompressSync(response.bytes).toString('utf8');
  assert.equal(coding, undefined, `unexpected coding ${coding}`);
  return response.bytes.toString('utf8');
}

const varies = (response: RawResponse, name: string) => String(response.headers.vary ?? '').split(',').some((token) => token.trim().toLowerCase() === name);

/** Content-Length, when sent, counts the bytes sent (the coded ones). */
function assertLength(response: RawResponse): void {
  const length = response.headers['content-length'];
  if (length !== undefined) assert.equal(Number(length), response.bytes.length);
}

describe('response compression', () => {
  let server: TestServer;
  let bigUid: string;
  let smallUid: string;
  const PAGE = '/users?limit=50';
  before(async () => {
    server = await startTestServer();
    for (let i = 0; i < 20; i++) assert.equal((await server.post('/users', newUser({ display_name: `Person ${i}`, attributes: { team: 'platform', n: i } }))).status, 201);
    // A user of about 10 KiB: over the threshold, yet never compressed (its ETag).
    const long = (word: string) => `${word} `.repeat(250 / (word.length + 1));
    const big = await server.post('/users', newUser({ attributes: { notes: long('lorem ipsum dolor sit amet').repeat(40) }, title: long('title'), organization: long('organisation'), division: long('division'), department: long('department') }));
    bigUid = big.body.uid;
    smallUid = (await server.post('/users', newUser())).body.uid;
  });
  after(() => server?.close());

  it('a search page over 1 KiB is gzip-coded for a gzip client, with Vary: Accept-Encoding and the same JSON', async () => {
    const plain = await raw(server.baseUrl, 'GET', PAGE);
    assert.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: no coding');
    assert.ok(plain.bytes.length > 1024);
    const gzip = await raw(server.baseUrl, 'GET', PAGE, { 'accept-encoding': 'gzip' });
    assert.equal(gzip.status, 200);
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.ok(varies(gzip, 'accept-encoding'));
    assert.ok(gzip.bytes.length < plain.bytes.length / 2, `${gzip.bytes.length} of ${plain.bytes.length} bytes`);
    assertLength(gzip);
    assert.deepEqual(JSON.parse(decoded(gzip)), JSON.parse(plain.bytes.toString('utf8')));
    assert.equal(gzip.headers['feed-position'], plain.headers['feed-position'], 'the headers are the ones of the uncoded answer');
  });

  const negotiations: [string, string | undefined][] = [
    ['br', 'br'],
    ['gzip, deflate, br', 'gzip'],
    ['br, gzip', 'gzip'],
    ['gzip;q=0.9, br', 'br'],
    ['gzip;q=1.0, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['*', 'gzip'],
    // `*` stands for the codings not named: one refused by name is never chosen through it.
    ['gzip;q=0, *', 'br'],
    ['br;q=0, gzip;q=0, *', undefined],
    ['gzip;q=0, br;q=0.5, *', 'br'],
    ['*;q=0.5, gzip;q=0.1', 'br'],
    ['*;q=0', undefined],
    ['identity;q=0, gzip;q=0.1', 'gzip'],
    ['GZIP', 'gzip'],
    ['deflate', undefined],
    ['identity', undefined],
    ['gzip;q=0, br;q=0', undefined],
    ['identity;q=0', undefined],
    ['', undefined],
  ];
  for (const [acceptEncoding, coding] of negotiations) {
    it(`Accept-Encoding: ${JSON.stringify(acceptEncoding)} → ${coding ?? 'no coding'}`, async () => {
      const response = await raw(server.baseUrl, 'GET', PAGE, { 'accept-encoding': acceptEncoding });
      assert.equal(response.status, 200);
      assert.equal(response.headers['content-encoding'], coding);
      assertLength(response);
      assert.ok(Array.isArray(JSON.parse(decoded(response))));
    });
  }

  it('HEAD of a search page describes the uncoded answer: no Content-Encoding, the uncoded Content-Length, no body', async () => {
    // Fastify's HEAD route drops the body before the compressor would see it; RFC 9110 §9.3.2
    // lets HEAD leave out what is only known while generating the content.
    const plain = await raw(server.baseUrl, 'GET', PAGE);
    const head = await raw(server.baseUrl, 'HEAD', PAGE, { 'accept-encoding': 'gzip' });
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-encoding'], undefined);
    assert.equal(Number(head.headers['content-length']), plain.bytes.length);
    assert.equal(head.bytes.length, 0);
  });

  it('a user read under 1 KiB is sent as is, with its Content-Length', async () => {
    const response = await raw(server.baseUrl, 'GET', `/users/${smallUid}`, { 'accept-encoding': 'gzip, br' });
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-encoding'], undefined);
    assert.equal(Number(response.headers['content-length']), response.bytes.length);
    assert.equal(JSON.parse(response.bytes.toString('utf8')).uid, smallUid);
  });

  it('a user over 1 KiB is sent uncoded too: its strong ETag names these bytes, and If-None-Match and If-Match keep working', async () => {
    const read = await raw(server.baseUrl, 'GET', `/users/${bigUid}`, { 'accept-encoding': 'gzip, br' });
    assert.equal(read.status, 200);
    assert.ok(read.bytes.length > 1024);
    assert.equal(read.headers['content-encoding'], undefined);
    assert.ok(!varies(read, 'accept-encoding'));
    assertLength(read);
    const etag = String(read.headers.etag);
    assert.match(etag, /^"[^"]+"$/, 'strong');
    const notModified = await raw(server.baseUrl, 'GET', `/users/${bigUid}`, { 'accept-encoding': 'gzip, br', 'if-none-match': etag });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.bytes.length, 0);
    assert.equal(notModified.headers['content-encoding'], undefined);
    const body = JSON.parse(read.bytes.toString('utf8'));
    const patched = await server.request('PATCH', `/users/${bigUid}`, { headers: { 'if-match': etag, 'content-type': 'application/merge-patch+json', 'accept-encoding': 'gzip' }, body: JSON.stringify({ display_name: 'Big' }) });
    assert.equal(patched.status, 200);
    assert.equal(patched.headers['content-encoding'], undefined);
    assert.equal(patched.body.version, body.version + 1);
    const lookup = await raw(server.baseUrl, 'GET', `/users/username:${encodeURIComponent(body.username)}`, { 'accept-encoding': 'br' });
    assert.equal(lookup.headers['content-encoding'], undefined);
    assert.equal(lookup.headers.etag, patched.headers.etag);
  });

  it('a SCIM user is sent uncoded (its ETag), a SCIM list page coded', async () => {
    const user = await raw(server.baseUrl, 'GET', `/scim/v2/Users/${bigUid}`, { 'accept-encoding': 'gzip' });
    assert.equal(user.status, 200);
    assert.ok(user.bytes.length > 1024);
    assert.equal(user.headers['content-encoding'], undefined);
    const list = await raw(server.baseUrl, 'GET', '/scim/v2/Users?count=50', { 'accept-encoding': 'gzip' });
    assert.equal(list.status, 200);
    assert.equal(list.headers['content-encoding'], 'gzip');
    assert.equal(JSON.parse(decoded(list)).totalResults, 22);
  });

  it('a small problem document is sent as is', async () => {
    const response = await raw(server.baseUrl, 'GET', '/users/username:nobody', { 'accept-encoding': 'gzip' });
    assert.equal(response.status, 404);
    assert.equal(response.headers['content-encoding'], undefined);
    assertLength(response);
  });

  it('the OpenAPI document, /metrics and the docs page\'s script are compressed', async () => {
    for (const path of ['/openapi.json', '/metrics', '/docs/static/swagger-ui-bundle.js']) {
      const plain = await raw(server.baseUrl, 'GET', path);
      const coded = await raw(server.baseUrl, 'GET', path, { 'accept-encoding': 'gzip, deflate, br' });
      assert.equal(coded.status, 200, path);
      assert.equal(coded.headers['content-encoding'], 'gzip', path);
      assert.ok(varies(coded, 'accept-encoding'), path);
      assertLength(coded);
      assert.ok(coded.bytes.length < plain.bytes.length, path);
      // /metrics changes between two scrapes; the others are byte for byte the same.
      if (path !== '/metrics') assert.equal(decoded(coded), plain.bytes.toString('utf8'), path);
    }
  });

  it('the event stream is never compressed, and its events arrive', async () => {
    const stream = await openEventStream(server.baseUrl, '/events?after=0', { 'accept-encoding': 'gzip, br' });
    try {
      assert.equal(stream.status, 200);
      assert.equal(stream.headers['content-encoding'], undefined);
      assert.match(String(stream.headers['content-type']), /^text\/event-stream/);
      const events = await stream.waitForEvents(22);
      assert.equal(events.length >= 22, true);
      const created = await server.post('/users', newUser());
      const all = await stream.waitForEvents(events.length + 2);
      assert.ok(all.some((event) => event.event.data?.uid === created.body.uid || event.event.subject === created.body.uid));
    } finally {
      stream.close();
    }
  });

  it('a request body in a content coding is still refused (415): only responses are coded', async () => {
    const response = await server.request('POST', '/users', { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: Buffer.from('{}') });
    assert.equal(response.status, 415);
  });
});
