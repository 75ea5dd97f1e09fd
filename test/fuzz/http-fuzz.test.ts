/**
 * Property-based fuzzing of the HTTP surface, against the real server on a real
 * port, on every store (describeEachStore). Generated request bodies (POST
 * /users, PUT /users/{uid}), paths under /users/ with every method, and query
 * strings of GET /users must all satisfy, on every case:
 *
 * - no 5xx, and the server still answers GET /healthz afterwards;
 * - every 4xx is an RFC 9457 problem document (`application/problem+json` with
 *   string type/title/detail/instance and `status` equal to the HTTP status)
 *   with `Cache-Control: no-store` (and `Allow` on a 405);
 * - no response (body or headers) carries a stack trace, SQL, driver or engine
 *   names, or file locations (`LEAK` in arbitraries.ts);
 * - a 4xx to a write (POST, PUT, PATCH, DELETE) leaves the store exactly as it
 *   was (all users, compared before and after).
 *
 * Generators are in arbitraries.ts. The store stays small (three pre-created
 * users; users created by a case are deleted right after it), so the snapshot
 * comparison stays cheap.
 *
 * Case counts: FUZZ_RUNS (default 6000) is the number of cases per store, split
 * 30% bodies, 10% huge and deeply nested bodies, 40% paths, 20% query strings;
 * both stores run the full count. Each write case compares the users and the
 * settled change-feed position before and after, so a case costs about 4.5 ms
 * on SQLite and 7 ms on PostgreSQL here (2,000 cases: 9.3 s and 14.6 s). The seed is fixed (FUZZ_SEED overrides it), so a run is
 * reproducible and both stores see the same cases. Nothing is printed on
 * success; a failure reports fast-check's shrunk counterexample with its seed
 * and path, and the exact request and response that broke the property.
 *
 * A larger run (the variable must reach the test process, not only the build):
 *
 *   npm run build && FUZZ_RUNS=200000 node scripts/run-tests.mjs http-fuzz
 *
 * or `export FUZZ_RUNS=200000` first. (`FUZZ_RUNS=200000 npm run build && node …`
 * would set it for the build only.)
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import type { TestResponse } from '../helpers/http-client.js';
import { describeEachStore } from '../helpers/stores.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import {
  LEAK,
  bodyCase,
  hugeBodyCase,
  mentionsTaken,
  pathCase,
  queryCase,
  renderPayload,
  renderQuery,
  renderSegment,
  sendable,
  type BodyCase,
  type Cursors,
  type PathCase,
  type QueryCase,
  type TargetUser,
} from './arbitraries.js';

function envInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?[0-9]+$/.test(raw)) throw new Error(`${name} must be an integer, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

const RUNS = envInteger('FUZZ_RUNS', 6_000);
const SEED = envInteger('FUZZ_SEED', 20_261_121);
const SHARES = { bodies: 0.3, huge: 0.1, paths: 0.4, queries: 0.2 } as const;

function runsFor(property: keyof typeof SHARES): number {
  return Math.max(1, Math.round(RUNS * SHARES[property]));
}

const TARGET_USERS = 3;
/** A case whose answer takes longer than this fails (with its counterexample) instead of hanging the run. */
const ANSWER_TIMEOUT_MS = 15_000;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** GET /healthz over `agent`: the status, or the client error when nothing parsable came back. */
function probe(baseUrl: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL('/healthz', baseUrl), { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.setTimeout(ANSWER_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)));
    req.on('error', reject);
  });
}

/** One request as sent. */
interface Exchange {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** A long text shortened in the middle, with escapes visible. */
function clip(text: string, max = 600): string {
  const shown = text.length <= max ? text : `${text.slice(0, max / 2)}…[${text.length - max} more characters]…${text.slice(-max / 2)}`;
  return JSON.stringify(shown);
}

function describeExchange(ex: Exchange, res?: TestResponse): string {
  const lines = [
    `request:  ${ex.method} ${clip(ex.path, 400)}`,
    `          headers ${JSON.stringify(ex.headers)}`,
    `          body ${ex.body === undefined ? '(none)' : `${clip(ex.body)} (${Buffer.byteLength(ex.body)} bytes)`}`,
  ];
  if (res) {
    lines.push(`response: ${res.status} ${JSON.stringify(res.headers)}`, `          body ${clip(res.text)}`);
  }
  return lines.join('\n');
}

/** The properties every single response must have. */
function checkResponse(ex: Exchange, res: TestResponse): void {
  const where = () => describeExchange(ex, res);
  assert.ok(res.status >= 100 && res.status < 500, `a ${res.status} answer\n${where()}`);
  const headerText = Object.entries(res.headers)
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join('\n');
  const leak = LEAK.exec(res.text) ?? LEAK.exec(headerText);
  assert.equal(leak, null, `the response leaks ${JSON.stringify(leak?.[0])}\n${where()}`);
  if (res.status >= 400) {
    assert.match(String(res.headers['content-type'] ?? ''), /^application\/problem\+json\s*(?:;|$)/, `a ${res.status} that is not application/problem+json\n${where()}`);
    assert.match(String(res.headers['cache-control'] ?? ''), /(?:^|,)\s*no-store\s*(?:,|$)/, `a ${res.status} without Cache-Control: no-store\n${where()}`);
    if (res.status === 405) assert.ok(res.headers.allow, `a 405 without Allow\n${where()}`);
    if (ex.method === 'HEAD') {
      assert.equal(res.text, '', `a body on HEAD\n${where()}`);
    } else {
      const problem: unknown = res.body;
      assert.ok(problem !== null && typeof problem === 'object' && !Array.isArray(problem), `a ${res.status} whose body is not a JSON object\n${where()}`);
      const doc = problem as Record<string, unknown>;
      for (const member of ['type', 'title', 'detail', 'instance']) {
        assert.equal(typeof doc[member], 'string', `problem member ${member} is not a string\n${where()}`);
      }
      assert.equal(doc.status, res.status, `problem status differs from the HTTP status\n${where()}`);
    }
  }
}

/** One store's server, its pre-created users and the bookkeeping around each case. */
class Harness {
  /** uids of the pre-created users PUT and path cases aim at; a deleted one is replaced. */
  readonly targets: string[] = [];
  cursors: Cursors = { plain: '', forQ: '' };
  /** Successful writes per kind ("POST 201", "PUT 200"), to show that valid-looking input does get through. */
  readonly successes = new Map<string, number>();
  /** Liveness probes go over one kept-alive connection, so asking after every case stays cheap. */
  readonly probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(readonly server: TestServer) {}

  async setUp(): Promise<void> {
    for (let i = 0; i < TARGET_USERS; i++) this.targets.push(await this.createTarget());
    const cursorOf = async (path: string) => {
      const res = await this.server.get(path);
      const match = /[?&]cursor=([A-Za-z0-9_-]+)/.exec(String(res.headers.link ?? ''));
      assert.ok(match?.[1], `no next link on ${path}: ${res.status} ${String(res.headers.link)}`);
      return match[1];
    };
    this.cursors = { plain: await cursorOf('/users?limit=1'), forQ: await cursorOf('/users?q=user&limit=1') };
  }

  private async createTarget(): Promise<string> {
    const res = await this.server.post('/users', newUser({ display_name: 'Fuzz target', legacy_ids: [`target-${this.targets.length}-${Date.now()}`], attributes: { role: 'target' } }));
    assert.equal(res.status, 201, res.text);
    return (res.body as { uid: string }).uid;
  }

  targetUid(index: number): string {
    return this.targets[index % this.targets.length] as string;
  }

  /** The users, and the change feed's latest position once settled: a refused request changes neither. */
  private async snapshot() {
    const latest = await this.server.store.events.settle();
    return { users: (await this.server.store.search({ filter: {}, limit: 10_000 })).value, latest };
  }

  /** Sends one case, checks every property, and restores the store's shape afterwards. */
  async exchange(ex: Exchange): Promise<TestResponse> {
    const write = WRITE_METHODS.has(ex.method);
    const before = write ? await this.snapshot() : undefined;
    let res: TestResponse;
    let timer: NodeJS.Timeout | undefined;
    try {
      res = await Promise.race([
        this.server.request(ex.method, ex.path, { headers: ex.headers, body: ex.body }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)), ANSWER_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      // The server closed the connection without an answer, or answered something that is not valid HTTP.
      assert.fail(`no parsable HTTP answer: ${String((error as NodeJS.ErrnoException).code ?? '')} ${(error as Error).message}\n${describeExchange(ex)}`);
    } finally {
      clearTimeout(timer);
    }
    checkResponse(ex, res);
    if (before && res.status >= 400) {
      assert.deepEqual(await this.snapshot(), before, `a ${res.status} changed the store\n${describeExchange(ex, res)}`);
    }
    if (write && res.status < 300) {
      const kind = `${ex.method} ${res.status}`;
      this.successes.set(kind, (this.successes.get(kind) ?? 0) + 1);
    }
    // Keep the store small: drop users a case created, replace a target a case deleted.
    if (res.status === 201 && typeof res.body?.uid === 'string') await this.server.store.delete(res.body.uid);
    if (ex.method === 'DELETE' && res.status < 300) {
      for (let i = 0; i < this.targets.length; i++) {
        if (!(await this.server.store.findByKey('uid', this.targets[i] as string))) this.targets[i] = await this.createTarget();
      }
    }
    await this.assertHealthy(() => `after\n${describeExchange(ex, res)}`);
    return res;
  }

  /** The server still answers its liveness probe. */
  async assertHealthy(context: () => string = () => 'at the end of the property'): Promise<void> {
    let status: number;
    try {
      status = await probe(this.server.baseUrl, this.probeAgent);
    } catch (error) {
      assert.fail(`/healthz does not answer (${(error as Error).message}) ${context()}`);
    }
    assert.equal(status, 200, `/healthz answers ${status} ${context()}`);
  }

  async bodyExchange(c: BodyCase): Promise<Exchange> {
    const targetUid = this.targetUid(c.target);
    const otherUid = this.targetUid(c.target + 1);
    const needsOther = (c.payload.kind === 'json' || c.payload.kind === 'broken') && mentionsTaken(c.payload.doc);
    const other = (needsOther ? await this.server.store.findByKey('uid', otherUid) : undefined) ?? { username: '', email_address: '', legacy_ids: [] };
    const body = renderPayload(c.payload, { targetUid, otherUid, other });
    const headers: Record<string, string> = c.contentType === null ? {} : { 'content-type': c.contentType };
    if (c.ifMatch !== null) headers['if-match'] = c.ifMatch;
    return { method: c.method, path: c.method === 'POST' ? '/users' : `/users/${targetUid}`, headers, ...(body === undefined ? {} : { body }) };
  }

  async pathExchange(c: PathCase): Promise<Exchange> {
    const users: TargetUser[] = [];
    for (const uid of this.targets) users.push((await this.server.store.findByKey('uid', uid)) ?? { uid, username: '', email_address: '', legacy_ids: [] });
    const path = sendable(c.prefix + c.segments.map((s) => renderSegment(s, (i) => users[i % users.length] as TargetUser)).join('') + c.tail);
    const headers: Record<string, string> = c.ifMatch === null ? {} : { 'if-match': c.ifMatch };
    const carriesBody = c.method === 'PUT' || c.method === 'POST' || c.method === 'PATCH';
    if (!carriesBody || c.body === 'none') return { method: c.method, path, headers };
    headers['content-type'] = 'application/json';
    const body = c.body === 'user' ? JSON.stringify(newUser()) : c.body === 'empty-object' ? '{}' : '{"username":["bob"],"email_address":42}';
    return { method: c.method, path, headers, body };
  }

  queryExchange(c: QueryCase): Exchange {
    return { method: 'GET', path: renderQuery(c, this.cursors), headers: {} };
  }
}

describeEachStore('HTTP fuzz', (kind) => {
  let server: TestServer;
  let harness: Harness;
  before(async () => {
    server = await startTestServer({ store: kind });
    harness = new Harness(server);
    await harness.setUp();
  });
  after(async () => {
    harness?.probeAgent.destroy();
    await server?.close();
  });

  /** One property: `runs` generated cases, each sent and checked by `check`; fast-check reports the shrunk counterexample. */
  function property<T>(title: string, share: keyof typeof SHARES, arbitrary: fc.Arbitrary<T>, check: (value: T) => Promise<void>, afterwards?: (runs: number) => void) {
    const runs = runsFor(share);
    it(`${title} (${runs} cases)`, async () => {
      await fc.assert(fc.asyncProperty(arbitrary, check), { numRuns: runs, seed: SEED, includeErrorInReport: true });
      await harness.assertHealthy();
      afterwards?.(runs);
    });
  }

  property(
    'POST /users and PUT /users/{uid} with generated bodies and content types',
    'bodies',
    bodyCase,
    async (c) => {
      await harness.exchange(await harness.bodyExchange(c));
    },
    (runs) => {
      // Valid-looking users must get through, or the fuzz only ever tests the validator.
      if (runs < 200) return;
      const successes = JSON.stringify([...harness.successes]);
      assert.ok((harness.successes.get('POST 201') ?? 0) > 0, `no generated POST succeeded: ${successes}`);
      assert.ok((harness.successes.get('PUT 200') ?? 0) > 0, `no generated PUT succeeded: ${successes}`);
    },
  );

  property('POST and PUT with huge strings, long arrays and deeply nested values, some above the body limit', 'huge', hugeBodyCase, async (c) => {
    await harness.exchange(await harness.bodyExchange(c));
  });

  property('every method on generated /users/{segment} paths', 'paths', pathCase, async (c) => {
    await harness.exchange(await harness.pathExchange(c));
  });

  property('GET /users with generated query strings and cursors', 'queries', queryCase, async (c) => {
    const ex = harness.queryExchange(c);
    const res = await harness.exchange(ex);
    if (res.status === 200) assert.ok(Array.isArray(res.body), `GET /users answered 200 without an array\n${describeExchange(ex, res)}`);
  });
});
