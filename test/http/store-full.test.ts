/**
 * A full store is said plainly (issue 24, point 6): on a SQLite database that
 * cannot grow (max_page_count, store-full-helpers.ts), a write answers 507
 * `store-full` (a SCIM error with status "507" on SCIM's door), without
 * Retry-After; it changed nothing (no user, no event, no Idempotency-Key answer);
 * every write acknowledged before is still there; each failure is counted in an
 * error line; /readyz answers 503 `store-full` until its own write probe finds
 * room again. Then writes succeed and /readyz is 200, by itself.
 *
 * Nothing here waits on a clock: the counts are checked once the recovery has
 * logged what was left (store-space.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type BetterSqlite3 from 'better-sqlite3';
import { captureLogs, type LogCapture } from '../helpers/log-capture.js';
import type { TestResponse } from '../helpers/http-client.js';
import { assertProblem } from '../helpers/problem-assertions.js';
import { scimRequest } from '../helpers/scim-client.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { capGrowth, freeSpace, openedWithConnection } from '../store/store-full-helpers.js';

const DETAIL = 'The user store is out of space; nothing was written. A retry will not succeed until an operator frees space.';
const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User';
const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const FAILED_LINE = /^(\d+) writes? failed: the store is out of space$/;

/** A body whose write takes several pages of the database: its attributes, in its representation (and its event once it is no longer the user's latest). */
const bigUser = () => newUser({ attributes: { filler: 'x'.repeat(6000) } });

/** A SCIM user of several pages (twenty addresses of about 1,000 characters), larger than the bigUser() the full store refused. */
function bigScimUser(tag: string): Record<string, unknown> {
  const addresses = Array.from({ length: 20 }, (_, i) => ({ type: 'work', streetAddress: `${i} ${'Long Street '.repeat(80)}`.trim() }));
  return { schemas: [CORE], userName: `scim.full.${tag}`, emails: [{ value: `scim.full.${tag}@example.com`, type: 'work', primary: true }], addresses };
}

function assertStoreFull(res: TestResponse): void {
  assertProblem(res, 507, 'store-full');
  assert.equal(res.body.detail, DETAIL);
  assert.equal(res.headers['retry-after'], undefined, 'no Retry-After: retrying does not help');
}

describe('a SQLite store that runs out of space', () => {
  let server: TestServer;
  let db: BetterSqlite3.Database;
  let logs: LogCapture;
  /** Users the service acknowledged (201), and the bodies it refused. */
  const acknowledged: { uid: string; username: string }[] = [];
  const refused: Record<string, unknown>[] = [];
  /** How many writes were answered 507. */
  let failedWrites = 0;

  before(async () => {
    logs = captureLogs();
    ({ value: server, db } = await openedWithConnection(
      () => startTestServer({ env: { LOG_LEVEL: 'info' }, app: { logStream: logs.stream } }),
      (started) => started.databaseUrl.slice('sqlite:'.length),
    ));
  });
  after(() => server?.close());

  async function allEvents(): Promise<Array<Record<string, any>>> {
    const events: Array<Record<string, any>> = [];
    for (let after = 0; ; ) {
      const page = await server.get(`/events?after=${after}&limit=1000`);
      assert.equal(page.status, 200, page.text);
      if (page.body.length === 0) return events;
      events.push(...page.body);
      after = Number(page.body.at(-1).id);
    }
  }

  it('answers a write it has no room for 507 store-full, without Retry-After; the write changed nothing', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await server.post('/users', bigUser());
      assert.equal(res.status, 201, res.text);
      acknowledged.push(res.body);
    }
    capGrowth(db, 12);
    let answer: TestResponse | undefined;
    for (let i = 0; i < 200 && answer === undefined; i++) {
      const body = bigUser();
      const res = await server.post('/users', body);
      if (res.status === 201) acknowledged.push(res.body);
      else {
        answer = res;
        refused.push(body);
        failedWrites++;
      }
    }
    assert.ok(answer, 'the capped database filled up');
    assertStoreFull(answer);
    assert.ok(acknowledged.length > 3, 'some writes fitted under the cap');
    const username = String(refused[0]!.username);
    assertProblem(await server.get(`/users/username:${username}`), 404, 'not-found');
  });

  it('answers every kind of write 507 while full: a retry, an update, an Idempotency-Key create (whose answer is not kept)', async () => {
    const retry = await server.post('/users', refused[0]);
    assertStoreFull(retry);
    failedWrites++;
    const target = acknowledged[0]!;
    const patch = await server.request('PATCH', `/users/${target.uid}`, { headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ attributes: { more: 'y'.repeat(6000) } }) });
    assertStoreFull(patch);
    failedWrites++;
    const keyed = bigUser();
    refused.push(keyed);
    assertStoreFull(await server.post('/users', keyed, { 'idempotency-key': 'store-full-key-1' }));
    failedWrites++;
    const current = await server.get(`/users/${target.uid}`);
    assert.equal(current.status, 200);
    assert.equal(current.body.version, 1, 'the update changed nothing');
    assert.equal(current.body.attributes.more, undefined);
  });

  it('answers a SCIM write with a SCIM error of status "507"', async () => {
    const body = bigScimUser('one');
    const res = await scimRequest(server.baseUrl, 'POST', '/scim/v2/Users', { body });
    failedWrites++;
    assert.equal(res.status, 507, res.text);
    assert.match(String(res.headers['content-type']), /^application\/scim\+json/);
    assert.deepEqual(res.body, { schemas: [SCIM_ERROR], status: '507', detail: DETAIL });
    assert.equal(res.headers['retry-after'], undefined);
    assertProblem(await server.get('/users/username:scim.full.one'), 404, 'not-found');
  });

  it('is not ready while writes fail for lack of space: /readyz answers 503 store-full; /healthz and reads still answer', async () => {
    const ready = await server.get('/readyz');
    assertProblem(ready, 503, 'store-full');
    assert.match(ready.body.detail, /out of space/);
    assert.ok(Number(ready.headers['retry-after']) >= 1);
    assert.equal((await server.get('/healthz')).status, 200);
    // A second check probes again, and still finds no room.
    assertProblem(await server.get('/readyz'), 503, 'store-full');
    for (const user of acknowledged) {
      const res = await server.get(`/users/${user.uid}`);
      assert.equal(res.status, 200, `acknowledged ${user.username} is readable`);
      assert.equal(res.body.username, user.username);
    }
  });

  it('left no event for a refused write, and an event for every acknowledged one', async () => {
    const events = await allEvents();
    const usernames = new Set(events.map((event) => event.data?.username));
    for (const body of refused) assert.equal(usernames.has(body.username), false, `no event for refused ${String(body.username)}`);
    assert.equal(usernames.has('scim.full.one'), false);
    const subjects = new Set(events.map((event) => event.subject));
    for (const user of acknowledged) assert.ok(subjects.has(user.uid), `the event of ${user.username}`);
    assert.equal(events.filter((event) => event.type === 'user.updated').length, 0, 'the refused update left no event');
  });

  it('once space is freed, /readyz is ready again by itself and writes succeed; every failed write was logged, counted, at error level', async () => {
    freeSpace(db);
    const ready = await server.get('/readyz');
    assert.equal(ready.status, 200, ready.text);
    assert.deepEqual(ready.body, { status: 'ready' });
    // The refused bodies and keys were not kept: they are written now.
    for (const [i, body] of refused.entries()) {
      const res = i === refused.length - 1 ? await server.post('/users', body, { 'idempotency-key': 'store-full-key-1' }) : await server.post('/users', body);
      assert.equal(res.status, 201, res.text);
      assert.equal(res.headers['idempotent-replayed'], undefined);
    }
    assert.equal((await scimRequest(server.baseUrl, 'POST', '/scim/v2/Users', { body: bigScimUser('one') })).status, 201);
    for (const user of acknowledged) assert.equal((await server.get(`/users/${user.uid}`)).status, 200);

    const records = logs.records();
    const failedLines = records.filter((r) => typeof r.msg === 'string' && FAILED_LINE.test(r.msg));
    assert.ok(failedLines.length >= 1);
    for (const line of failedLines) {
      assert.equal(line.level, 50, 'logged at error level');
      assert.equal(line.failed, Number(FAILED_LINE.exec(line.msg)![1]));
      assert.equal(line.cause?.type, 'StoreFullError');
    }
    assert.equal(failedLines.reduce((sum, line) => sum + line.failed, 0), failedWrites, 'every failed write counted once');
    assert.ok(records.some((r) => r.level === 30 && /takes writes again/.test(String(r.msg))), 'the recovery is logged');
    assert.equal(records.filter((r) => /cannot be reached/.test(String(r.msg))).length, 0, 'no "cannot be reached" warning');
  });
});
