/**
 * PUT and DELETE /users/{uid} (CONTRACT §1, §2, §5, §6): full replacement, keys freed
 * for reuse, If-Match with the strong comparison, and "an error changes nothing",
 * over HTTP against the real app.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeEachStore } from '../helpers/stores.js';
import type { TestResponse } from '../helpers/http-client.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

const UNKNOWN_UID = '01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f';

function assertProblem(res: TestResponse, status: number, type: string): void {
  assert.equal(res.status, status, res.text);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  assert.equal(res.body?.status, status);
  assert.equal(res.body?.type, `/problems/${type}`);
}

let ids = 0;
/** A legacy id no other test uses. */
const legacyId = (label: string) => `${label}-${process.pid}-${++ids}`;

/** The writable fields of a user as read, ready to send back in a PUT. */
function writable(user: Record<string, any>): Record<string, unknown> {
  const { username, email_address, legacy_ids, display_name, attributes } = user;
  return { username, email_address, legacy_ids, display_name, attributes };
}

describeEachStore('PUT and DELETE /users/{uid}', (store) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store });
  });
  after(async () => server.close());

  /** Creates a user with every optional field set; returns the body and ETag of the 201. */
  async function created(overrides: Record<string, unknown> = {}) {
    const res = await server.post('/users', newUser({ legacy_ids: [legacyId('a'), legacyId('b')], display_name: 'Before', attributes: { team: 'x' }, ...overrides }));
    assert.equal(res.status, 201, res.text);
    return { user: res.body as Record<string, any>, etag: String(res.headers.etag) };
  }

  /** The user reads back exactly as `expected`, under the same ETag. */
  async function assertUnchanged(expected: { user: Record<string, any>; etag: string }): Promise<void> {
    const res = await server.get(`/users/${expected.user.uid}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, expected.user);
    assert.equal(res.headers.etag, expected.etag);
  }

  /** Every way to read the user (uid and each key) answers 404. */
  async function assertGone(user: Record<string, any>): Promise<void> {
    const paths = [user.uid, `uid:${user.uid}`, `username:${user.username}`, `email_address:${user.email_address}`, ...user.legacy_ids.map((id: string) => `legacy_id:${encodeURIComponent(id)}`)];
    for (const path of paths) assertProblem(await server.get(`/users/${path}`), 404, 'not-found');
  }

  describe('PUT /users/{uid} replaces the user', () => {
    it('resets omitted legacy_ids, display_name and attributes to [], null and {}', async () => {
      const { user } = await created();
      const res = await server.put(`/users/${user.uid}`, { username: user.username, email_address: user.email_address });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.legacy_ids, []);
      assert.equal(res.body.display_name, null);
      assert.deepEqual(res.body.attributes, {});
    });

    it('counts every accepted PUT as a change, even with identical values: version +1, new updated_at, same uid and created_at', async () => {
      const { user, etag } = await created();
      let previous = user;
      const tags = new Set([etag]);
      for (const expectedVersion of [2, 3]) {
        await sleep(5); // let the clock move on, so a new updated_at is observable
        const res = await server.put(`/users/${user.uid}`, writable(user));
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.version, expectedVersion);
        assert.equal(res.body.uid, user.uid);
        assert.equal(res.body.created_at, user.created_at);
        assert.notEqual(res.body.updated_at, previous.updated_at);
        assert.ok(res.body.updated_at >= res.body.created_at, `updated_at ${res.body.updated_at} < created_at ${res.body.created_at}`);
        assert.deepEqual(writable(res.body), writable(user));
        assert.equal(tags.has(String(res.headers.etag)), false, 'the ETag changes on every PUT');
        tags.add(String(res.headers.etag));
        previous = res.body;
      }
    });

    it('answers 200 with a new ETag and Content-Location, and the user a following GET returns', async () => {
      const { user, etag } = await created();
      const res = await server.put(`/users/${user.uid}`, { ...writable(user), display_name: 'After', attributes: { team: 'y' } });
      assert.equal(res.status, 200, res.text);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.equal(res.headers['content-location'], `/users/${user.uid}`);
      assert.ok(res.headers.etag, 'ETag header present');
      assert.notEqual(res.headers.etag, etag);
      const read = await server.get(`/users/${user.uid}`);
      assert.deepEqual(read.body, res.body);
      assert.equal(read.headers.etag, res.headers.etag);
      assert.equal(read.body.display_name, 'After');
    });

    it('accepts legacy_id as shorthand for legacy_ids with that one value', async () => {
      const { user } = await created();
      const id = legacyId('short');
      const res = await server.put(`/users/${user.uid}`, { username: user.username, email_address: user.email_address, legacy_id: id });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.legacy_ids, [id]);
      assert.equal((await server.get(`/users/legacy_id:${id}`)).body?.uid, user.uid);
    });

    it('accepts the read-only fields sent back as read, even stale, and a body uid in upper case', async () => {
      const { user } = await created();
      const first = await server.put(`/users/${user.uid}`, { ...user, display_name: 'Once' });
      assert.equal(first.status, 200, first.text);
      // `user` is now stale: version 1 and the old updated_at. They are ignored.
      const stale = { ...user, uid: user.uid.toUpperCase(), display_name: 'Twice', created_at: '2000-01-01T00:00:00.000Z' };
      const res = await server.put(`/users/${user.uid}`, stale);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.uid, user.uid);
      assert.equal(res.body.version, 3);
      assert.equal(res.body.created_at, user.created_at);
      assert.equal(res.body.display_name, 'Twice');
    });

    it('accepts the uid in upper case in the path', async () => {
      const { user } = await created();
      const res = await server.put(`/users/${user.uid.toUpperCase()}`, { ...user, display_name: 'Upper' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.uid, user.uid);
      assert.equal(res.headers['content-location'], `/users/${user.uid}`);
    });

    it('answers 400 pointing at /uid to a body whose uid differs from the path, and changes nothing', async () => {
      const before = await created();
      const res = await server.put(`/users/${before.user.uid}`, { ...before.user, uid: UNKNOWN_UID, display_name: 'Hijack' });
      assertProblem(res, 400, 'validation-failed');
      assert.ok(res.body.errors.some((e: { pointer: string }) => e.pointer === '/uid'), res.text);
      await assertUnchanged(before);
      assertProblem(await server.get(`/users/${UNKNOWN_UID}`), 404, 'not-found');
    });

    it('answers 400 naming an unknown field and changes nothing', async () => {
      const before = await created();
      const res = await server.put(`/users/${before.user.uid}`, { ...writable(before.user), display_name: 'Typo', dispaly_name: 'x' });
      assertProblem(res, 400, 'validation-failed');
      assert.match(res.text, /dispaly_name/);
      await assertUnchanged(before);
    });
  });

  describe('unique keys on PUT', () => {
    it('frees the old username, email address and legacy ids at once: another user takes them, the old values no longer find the user, the new ones do', async () => {
      const { user } = await created();
      const next = newUser({ legacy_ids: [legacyId('new')] });
      const res = await server.put(`/users/${user.uid}`, next);
      assert.equal(res.status, 200, res.text);
      for (const path of [`username:${next.username}`, `email_address:${next.email_address}`, `legacy_id:${(next.legacy_ids as string[])[0]}`]) {
        assert.equal((await server.get(`/users/${path}`)).body?.uid, user.uid, path);
      }
      await assertGone({ ...user, uid: UNKNOWN_UID }); // the old keys find nobody
      const taker = await server.post('/users', writable(user));
      assert.equal(taker.status, 201, taker.text);
      assert.equal((await server.get(`/users/username:${user.username}`)).body?.uid, taker.body.uid);
      assert.equal((await server.get(`/users/legacy_id:${user.legacy_ids[1]}`)).body?.uid, taker.body.uid);
    });

    const takes = [
      ['username', (holder: Record<string, any>) => ({ username: holder.username.toUpperCase() })],
      ['email_address', (holder: Record<string, any>) => ({ email_address: holder.email_address.toUpperCase() })],
      ['legacy_id', (holder: Record<string, any>) => ({ legacy_ids: [legacyId('mine'), holder.legacy_ids[1]] })],
    ] as const;
    for (const [key, take] of takes) {
      it(`answers 409 naming ${key} to a PUT onto another user's ${key}, and changes neither user`, async () => {
        const holder = await created();
        const before = await created();
        const res = await server.put(`/users/${before.user.uid}`, { ...writable(before.user), display_name: 'Thief', ...take(holder.user) });
        assertProblem(res, 409, 'key-conflict');
        assert.equal(res.body.key, key);
        assert.equal(res.text.includes(holder.user.uid), false, 'the 409 reveals the holder');
        await assertUnchanged(before);
        await assertUnchanged(holder);
        for (const id of before.user.legacy_ids) assert.equal((await server.get(`/users/legacy_id:${id}`)).body?.uid, before.user.uid);
      });
    }

    it('does not conflict with itself when it keeps its own username and email address in another case', async () => {
      const { user } = await created();
      const res = await server.put(`/users/${user.uid}`, { ...writable(user), username: user.username.toUpperCase(), email_address: user.email_address.toUpperCase() });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.username, user.username.toUpperCase());
      assert.equal(res.body.email_address, user.email_address.toUpperCase());
      assert.equal((await server.get(`/users/username:${user.username}`)).body?.uid, user.uid);
    });
  });

  describe('PUT never creates', () => {
    for (const [name, uid] of [['an unknown uid', UNKNOWN_UID], ['a malformed uid', 'not-a-uid']] as const) {
      it(`answers 404 to ${name} and no user appears`, async () => {
        const body = newUser({ legacy_ids: [legacyId('ghost')] });
        assertProblem(await server.put(`/users/${uid}`, body), 404, 'not-found');
        await assertGone({ ...body, uid: UNKNOWN_UID });
        assert.deepEqual((await server.get(`/users?username=${body.username}`)).body, []);
      });
    }
  });

  /** A PUT that changes the user, or a DELETE; with its success status. */
  const writes = {
    PUT: { ok: 200, send: (user: Record<string, any>, headers: Record<string, string>) => server.put(`/users/${user.uid}`, { ...writable(user), display_name: 'Changed' }, headers) },
    DELETE: { ok: 204, send: (user: Record<string, any>, headers: Record<string, string>) => server.delete(`/users/${user.uid}`, headers) },
  };
  for (const [method, write] of Object.entries(writes)) {
    describe(`If-Match on ${method}`, () => {
      const matching: [string, (etag: string) => string][] = [['the current tag', (etag) => etag], ['*', () => '*'], ['a list holding the current tag', (etag) => `"other", ${etag}`]];
      for (const [name, header] of matching) {
        it(`proceeds for ${name}`, async () => {
          const { user, etag } = await created();
          assert.equal((await write.send(user, { 'if-match': header(etag) })).status, write.ok);
        });
      }

      it('answers 412 for a stale tag from before an update, and changes nothing', async () => {
        const { user, etag: stale } = await created();
        const updated = await server.put(`/users/${user.uid}`, writable(user));
        assert.equal(updated.status, 200, updated.text);
        assertProblem(await write.send(user, { 'if-match': stale }), 412, 'precondition-failed');
        await assertUnchanged({ user: updated.body, etag: String(updated.headers.etag) });
      });

      it('answers 412 for the weak form of the current tag (strong comparison), and changes nothing', async () => {
        const before = await created();
        assertProblem(await write.send(before.user, { 'if-match': `W/${before.etag}` }), 412, 'precondition-failed');
        await assertUnchanged(before);
      });

      it('answers 404, not 412, on an unknown uid', async () => {
        const { user } = await created();
        assertProblem(await write.send({ ...user, uid: UNKNOWN_UID }, { 'if-match': '"whatever"' }), 404, 'not-found');
        assertProblem(await write.send({ ...user, uid: UNKNOWN_UID }, { 'if-match': '*' }), 404, 'not-found');
      });
    });
  }

  describe('concurrency and caching', () => {
    it('gives exactly one 200 and one 412 to two concurrent PUTs with the same If-Match tag', async () => {
      const { user, etag } = await created();
      const results = await Promise.all(['One', 'Two'].map((name) => server.put(`/users/${user.uid}`, { ...writable(user), display_name: name }, { 'if-match': etag })));
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 412], results.map((r) => r.text).join('\n'));
      const winner = results.find((r) => r.status === 200)!;
      const read = await server.get(`/users/${user.uid}`);
      assert.equal(read.body.version, 2);
      assert.equal(read.body.display_name, winner.body.display_name);
    });

    it('answers 200, not 304, to If-None-Match with the tag from before an update', async () => {
      const { user, etag: old } = await created();
      const updated = await server.put(`/users/${user.uid}`, { ...writable(user), display_name: 'New' });
      assert.equal(updated.status, 200, updated.text);
      const res = await server.get(`/users/${user.uid}`, { 'if-none-match': old });
      assert.equal(res.status, 200);
      assert.equal(res.body.display_name, 'New');
      assert.equal(res.headers.etag, updated.headers.etag);
    });
  });

  describe('DELETE /users/{uid}', () => {
    it('answers 204 with an empty body; then every read by uid and by key is 404, and a second DELETE is 404', async () => {
      const { user } = await created();
      const res = await server.delete(`/users/${user.uid}`);
      assert.equal(res.status, 204);
      assert.equal(res.text, '');
      await assertGone(user);
      assertProblem(await server.delete(`/users/${user.uid}`), 404, 'not-found');
    });

    it('frees every key of the deleted user at once, and the new holder has a different ETag', async () => {
      const old = await created();
      assert.equal((await server.delete(`/users/${old.user.uid}`)).status, 204);
      const res = await server.post('/users', writable(old.user));
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.version, 1);
      assert.notEqual(res.body.uid, old.user.uid);
      assert.notEqual(res.headers.etag, old.etag);
      for (const path of [`username:${old.user.username}`, `email_address:${old.user.email_address}`, ...old.user.legacy_ids.map((id: string) => `legacy_id:${id}`)]) {
        assert.equal((await server.get(`/users/${path}`)).body?.uid, res.body.uid, path);
      }
    });

    it('removes the user from search', async () => {
      const { user } = await created();
      const queries = [`username=${user.username}`, `legacy_id=${user.legacy_ids[0]}`, `email_address=${user.email_address}`];
      for (const query of queries) assert.deepEqual((await server.get(`/users?${query}`)).body.map((u: { uid: string }) => u.uid), [user.uid], query);
      assert.equal((await server.delete(`/users/${user.uid}`)).status, 204);
      for (const query of queries) assert.deepEqual((await server.get(`/users?${query}`)).body, [], query);
      const all = await server.get('/users?limit=1000');
      assert.equal(all.body.some((u: { uid: string }) => u.uid === user.uid), false);
    });

    it('answers 404 to a malformed uid and 405 on a lookup path, deleting nothing', async () => {
      const before = await created();
      assertProblem(await server.delete('/users/not-a-uid'), 404, 'not-found');
      assertProblem(await server.delete(`/users/username:${before.user.username}`), 405, 'method-not-allowed');
      await assertUnchanged(before);
    });
  });
});
