/**
 * Idempotency-Key on POST /users and PATCH /users/{uid} (CONTRACT §10), on every
 * store: a retry gets the first answer without running again, another request
 * with the key a 422, a retry during the first a 409; keys are scoped to the
 * credential, expire, and a 4xx the write ended in is kept like a success.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { apiKeysFixture, type ApiKeysFixture } from '../helpers/auth-fixtures.js';
import type { TestResponse } from '../helpers/http-client.js';
import { assertProblem } from '../helpers/problem-assertions.js';
import { describeEachStore } from '../helpers/stores.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

const keyOf = (name: string) => `"${name}-${process.pid}-${Math.random().toString(36).slice(2)}"`;
const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

/** The same answer: status, body, entity tag and location. */
function assertSameAnswer(replay: TestResponse, first: TestResponse): void {
  assert.equal(replay.status, first.status, replay.text);
  assert.deepEqual(replay.body, first.body);
  assert.equal(replay.headers.etag, first.headers.etag);
  assert.equal(replay.headers.location, first.headers.location);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
}

describeEachStore('Idempotency-Key', (kind) => {
  let keys: ApiKeysFixture;
  let server: TestServer;
  let admin: Record<string, string>;
  let writer: Record<string, string>;
  before(async () => {
    keys = apiKeysFixture();
    server = await startTestServer({ store: kind, env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file, IDEMPOTENCY_TTL_S: '2' } });
    admin = { authorization: `Bearer ${keys.keys.admin}` };
    writer = { authorization: `Bearer ${keys.keys.writer}` };
  });
  after(async () => {
    await server.close();
    keys.cleanup();
  });

  const post = (body: unknown, key: string, headers = admin) => server.post('/users', body, { ...headers, 'idempotency-key': key });
  const count = async (username: string) => ((await server.get(`/users?username=${encodeURIComponent(username)}`, admin)).body as unknown[]).length;

  it('a retried POST gets the first 201 (same user, ETag, Location) without creating a second user', async () => {
    const body = newUser();
    const key = keyOf('create');
    const first = await post(body, key);
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    for (let i = 0; i < 3; i++) assertSameAnswer(await post(body, key), first);
    assert.equal(await count(String(body.username)), 1);
  });

  it('the quoted and the bare form of a key are one key; member order and spacing of the body do not matter', async () => {
    const body = newUser({ display_name: 'Order' });
    const name = `form-${process.pid}-${Date.now()}`;
    const first = await post(body, `"${name}"`);
    assert.equal(first.status, 201);
    const reordered = JSON.stringify({ display_name: 'Order', email_address: body.email_address, username: body.username });
    const replay = await server.request('POST', '/users', { headers: { ...admin, 'content-type': 'application/json', 'idempotency-key': name }, body: ` ${reordered} ` });
    assertSameAnswer(replay, first);
  });

  it('the same key with another request is a 422, and writes nothing', async () => {
    const key = keyOf('reused');
    assert.equal((await post(newUser(), key)).status, 201);
    const other = newUser();
    assertProblem(await post(other, key), 422, 'idempotency-key-reused');
    assert.equal(await count(String(other.username)), 0);
  });

  it('another credential\'s key of the same name is its own: it runs', async () => {
    const key = keyOf('scoped');
    const first = await post(newUser(), key, admin);
    const second = await post(newUser(), key, writer);
    assert.equal(first.status, 201);
    assert.equal(second.status, 201, 'not a replay of another client\'s answer, and not a 422');
    assert.notEqual(second.body.uid, first.body.uid);
    assert.equal(second.headers['idempotent-replayed'], undefined);
  });

  it('a 409 the create ended in is kept: its retry gets the same 409 even after the key is freed', async () => {
    const holder = (await server.post('/users', newUser(), admin)).body;
    const body = newUser({ username: holder.username });
    const key = keyOf('conflict');
    const first = await post(body, key);
    assertProblem(first, 409, 'key-conflict');
    assert.equal((await server.delete(`/users/${holder.uid}`, admin)).status, 204);
    const replay = await post(body, key);
    assertSameAnswer(replay, first);
  });

  it('a request refused before it runs (a 400 of the body) is not kept: fixed, it runs under the same key', async () => {
    const key = keyOf('invalid');
    assertProblem(await post({ username: 'x' }, key), 400, 'validation-failed');
    assert.equal((await post(newUser(), key)).status, 201);
  });

  it('a key that expired runs as new', async () => {
    const key = keyOf('expiring');
    assert.equal((await post(newUser(), key)).status, 201);
    await sleep(2100); // IDEMPOTENCY_TTL_S=2
    const later = await post(newUser(), key);
    assert.equal(later.status, 201, `another request under the expired key runs: ${later.text}`);
    assert.equal(later.headers['idempotent-replayed'], undefined);
  });

  it('a malformed key is a 400 and writes nothing', async () => {
    for (const key of ['""', `"${'k'.repeat(256)}"`, '"unterminated', 'two words', '"a", "b"']) {
      const body = newUser();
      assertProblem(await post(body, key), 400, 'malformed-request');
      assert.equal(await count(String(body.username)), 0, key);
    }
  });

  describe('on PATCH', () => {
    const patch = (uid: string, body: unknown, key: string, headers: Record<string, string> = {}) =>
      server.request('PATCH', `/users/${uid}`, { headers: { ...admin, ...MERGE_PATCH, 'idempotency-key': key, ...headers }, body: JSON.stringify(body) });

    it('a retried PATCH gets the first 200, even after the user changed since; no second version', async () => {
      const user = (await server.post('/users', newUser(), admin)).body;
      const key = keyOf('patch');
      const first = await patch(user.uid, { display_name: 'Patched' }, key);
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.version, 2);
      assert.equal((await server.request('PATCH', `/users/${user.uid}`, { headers: { ...admin, ...MERGE_PATCH }, body: '{"display_name":"Later"}' })).body.version, 3);
      assertSameAnswer(await patch(user.uid, { display_name: 'Patched' }, key), first);
      assert.equal((await server.get(`/users/${user.uid}`, admin)).body.version, 3, 'the retry did not run');
    });

    it('another patch under the key is a 422; the same key on another user is another request too', async () => {
      const [a, b] = [(await server.post('/users', newUser(), admin)).body, (await server.post('/users', newUser(), admin)).body];
      const key = keyOf('patch-reused');
      assert.equal((await patch(a.uid, { display_name: 'A' }, key)).status, 200);
      assertProblem(await patch(a.uid, { display_name: 'B' }, key), 422, 'idempotency-key-reused');
      assertProblem(await patch(b.uid, { display_name: 'A' }, key), 422, 'idempotency-key-reused');
    });

    it('a 412 the patch ended in is kept', async () => {
      const user = (await server.post('/users', newUser(), admin)).body;
      const key = keyOf('patch-412');
      const first = await patch(user.uid, { display_name: 'x' }, key, { 'if-match': '"stale"' });
      assertProblem(first, 412, 'precondition-failed');
      assertSameAnswer(await patch(user.uid, { display_name: 'x' }, key, { 'if-match': '"stale"' }), first);
    });
  });
});

describe('Idempotency-Key while the first request is still running', () => {
  let server: TestServer;
  before(async () => {
    // The write's response waits 1.5 s after its commit: long enough to retry during it.
    server = await startTestServer({ env: { TEST_DELAY_AFTER_WRITE_MS: '1500' } });
  });
  after(() => server.close());

  it('a retry during the first is a 409 idempotency-key-in-use; after it, the retry gets the first 201', async () => {
    const body = newUser();
    const key = keyOf('in-flight');
    const firstPending = server.post('/users', body, { 'idempotency-key': key });
    // The user exists (the write committed) while the first answer is still being held.
    for (let i = 0; i < 200 && (await server.get(`/users/username:${String(body.username)}`)).status !== 200; i++) await sleep(10);
    const during = await server.post('/users', body, { 'idempotency-key': key });
    assertProblem(during, 409, 'idempotency-key-in-use');
    assert.ok(Number(during.headers['retry-after']) >= 1);
    const first = await firstPending;
    assert.equal(first.status, 201);
    assertSameAnswer(await server.post('/users', body, { 'idempotency-key': key }), first);
  });
});
