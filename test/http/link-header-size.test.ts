/**
 * A next-page link repeats the query (CONTRACT §4, §11), so what it repeats is bounded
 * (http/link-query.ts, docs/api.md "Paging links"): no answer's header block passes
 * 8 KiB, which Node's HTTP client and common proxies read. The largest query accepted,
 * with the longest cursor a sort can make (three name fields of 256 four-byte
 * characters) and the longest PUBLIC_URL, still answers a head under 8 KiB; one
 * character more is a 400 naming the parameter.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, it } from 'node:test';
import { LINK_QUERY_MAX_BYTES, LINKED_PARAMETER_MAX } from '../../src/http/link-query.js';
import { PUBLIC_URL_MAX } from '../../src/http/public-url.js';
import { assertProblem } from '../helpers/problem-assertions.js';
import { describeEachStore } from '../helpers/stores.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

const HEAD_MAX = 8 * 1024;
/** The longest PUBLIC_URL accepted: every link is absolute under it. */
const PUBLIC_URL = `https://directory.example.com/${'p'.repeat(PUBLIC_URL_MAX - 'https://directory.example.com/'.length)}`;

/** Status, the byte length of the head as received (status line, headers, blank line), and the answer's headers. */
function head(baseUrl: string, path: string): Promise<{ status: number; bytes: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${baseUrl}${path}`, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          const lines = [`HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage}`];
          for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
          resolve({ status: res.statusCode ?? 0, bytes: Buffer.byteLength(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), headers: res.headers, body });
        });
      })
      .on('error', reject);
  });
}

const ASTRAL = '\u{1D49C}'; // 𝒜: one character, four bytes of UTF-8, twelve percent-encoded
const CJK = '漢'; // three bytes, nine percent-encoded

describeEachStore('the length of what a Link header repeats', (kind) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store: kind, env: { PUBLIC_URL } });
  });
  after(() => server.close());

  const SORT = 'sort=display_name%2Cfamily_name%2Cgiven_name';
  /** A department that makes `sort=…&limit=1&department=…` exactly `bytes` long, percent-encoded. */
  function departmentFilling(bytes: number): string {
    const room = bytes - SORT.length - '&limit=1&department='.length;
    return 'a'.repeat(room % 9) + CJK.repeat(Math.floor(room / 9));
  }

  it(`the largest accepted search query (${LINK_QUERY_MAX_BYTES} bytes repeated) with the longest cursor answers a head under 8 KiB; one character more is a 400 naming the parameter`, async () => {
    const department = departmentFilling(LINK_QUERY_MAX_BYTES);
    const longName = ASTRAL.repeat(256);
    for (let i = 0; i < 2; i++) {
      const res = await server.post('/users', newUser({ department, display_name: longName, name: { given_name: longName, family_name: longName } }));
      assert.equal(res.status, 201, res.text);
    }
    const query = `${SORT}&limit=1&department=${encodeURIComponent(department)}`;
    assert.equal(Buffer.byteLength(query), LINK_QUERY_MAX_BYTES);
    const first = await head(server.baseUrl, `/users?${query}`);
    assert.equal(first.status, 200, first.body);
    assert.ok(first.headers.link, 'a next page is linked');
    assert.ok(first.bytes < HEAD_MAX, `the head is ${first.bytes} bytes`);
    console.log(`search head: ${first.bytes} bytes`);
    // Its link, followed, answers the same way.
    const link = /^<([^>]+)>/.exec(String(first.headers.link))![1]!;
    assert.ok(link.startsWith(`${PUBLIC_URL}/users?`), link);
    const next = await head(server.baseUrl, link.slice(PUBLIC_URL.length));
    assert.equal(next.status, 200, next.body);
    assert.equal(JSON.parse(next.body).length, 1);
    assert.ok(next.bytes < HEAD_MAX, `the followed link's head is ${next.bytes} bytes`);

    const over = await server.get(`/users?${query}a`);
    assertProblem(over, 400, 'invalid-query');
    assert.deepEqual(over.body.errors.map((e: { parameter: string }) => e.parameter), ['department']);
  });

  it(`q (as every text filter) takes at most ${LINKED_PARAMETER_MAX} characters: one more is a 400 naming q`, async () => {
    const words = 'ab '.repeat(LINKED_PARAMETER_MAX).slice(0, LINKED_PARAMETER_MAX - 1) + 'z';
    assert.equal((await server.get(`/users?q=${encodeURIComponent(words)}`)).status, 200);
    const over = await server.get(`/users?q=${encodeURIComponent(`${words}z`)}`);
    assertProblem(over, 400, 'invalid-query');
    // The detail names the parameter and states the limit.
    assert.equal(over.body.detail, `q must NOT have more than ${LINKED_PARAMETER_MAX} characters`);
    for (const name of ['username', 'email_address', 'legacy_id', 'external_id', 'department']) {
      const long = await server.get(`/users?${name}=${'x'.repeat(LINKED_PARAMETER_MAX + 1)}`);
      assertProblem(long, 400, 'invalid-query');
      assert.match(long.body.detail, new RegExp(`^${name} must NOT have more than ${LINKED_PARAMETER_MAX} characters`));
    }
  });

  it('GET /events: the largest accepted exclude_origin answers a head under 8 KiB; one byte more of it, or one character past its length, is a 400 naming it', async () => {
    const prefix = 'credential:';
    const room = LINK_QUERY_MAX_BYTES - 'after=0&limit=1000&exclude_origin='.length - encodeURIComponent(prefix).length;
    const origin = `${prefix}${'a'.repeat(room % 9)}${CJK.repeat(Math.floor(room / 9))}`;
    const largest = await head(server.baseUrl, `/events?after=0&limit=1000&exclude_origin=${encodeURIComponent(origin)}`);
    assert.equal(largest.status, 200, largest.body);
    assert.ok(largest.headers.link);
    assert.ok(largest.bytes < HEAD_MAX, `the head is ${largest.bytes} bytes`);
    console.log(`events head: ${largest.bytes} bytes`);
    const over = await server.get(`/events?after=0&limit=1000&exclude_origin=${encodeURIComponent(`${origin}a`)}`);
    assertProblem(over, 400, 'invalid-query');
    assert.deepEqual(over.body.errors.map((e: { parameter: string }) => e.parameter), ['exclude_origin']);
    const tooLong = await server.get(`/events?exclude_origin=${prefix}${'a'.repeat(LINKED_PARAMETER_MAX + 1 - prefix.length)}`);
    assertProblem(tooLong, 400, 'invalid-query');
  });
});
