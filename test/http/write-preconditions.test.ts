/**
 * If-None-Match on PUT, PATCH and DELETE of /users/{uid} (CONTRACT §5, RFC 9110
 * §13.1.2), alone and with If-Match (§13.2.2: If-Match first), on every store: a
 * failed precondition is a 412 that changes nothing (version, body, change feed); a
 * malformed value is a 400 that changes nothing either.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem } from '../helpers/problem-assertions.js';
import { describeEachStore } from '../helpers/stores.js';
import type { TestResponse } from '../helpers/http-client.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

const UNKNOWN_UID = '01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f';

describeEachStore('If-None-Match on writes', (kind) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store: kind });
  });
  after(() => server.close());

  async function created(): Promise<{ user: Record<string, any>; etag: string }> {
    const res = await server.post('/users', newUser({ display_name: 'Before', attributes: { team: 'x' } }));
    assert.equal(res.status, 201, res.text);
    return { user: res.body, etag: String(res.headers.etag) };
  }

  /** The latest change-feed position. */
  async function feedPosition(): Promise<number> {
    const res = await server.get('/users?limit=1');
    assert.equal(res.status, 200, res.text);
    return Number(res.headers['feed-position']);
  }

  /** The user reads back as it was, under the same tag, and the feed has no event after `position`. */
  async function assertUnchanged(before: { user: Record<string, any>; etag: string }, position: number): Promise<void> {
    const res = await server.get(`/users/${before.user.uid}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, before.user);
    assert.equal(res.headers.etag, before.etag);
    // The position a read reports may be below the user's creation (user-store.ts, Positioned): only the create may follow it.
    const events = await server.get(`/events?after=${position}&limit=1000`);
    assert.equal(events.status, 200, events.text);
    const written = (events.body as Array<Record<string, any>>).filter((event) => event.subject === before.user.uid && event.type !== 'user.created');
    assert.deepEqual(written, [], 'a refused write appended a change event');
  }

  /** Each write, with the status it answers when it proceeds. */
  const writes: Record<string, { ok: number; send: (user: Record<string, any>, headers: Record<string, string>) => Promise<TestResponse> }> = {
    PUT: {
      ok: 200,
      send: (user, headers) => {
        const { username, email_address } = user;
        return server.put(`/users/${user.uid}`, { username, email_address, display_name: 'Changed' }, headers);
      },
    },
    PATCH: {
      ok: 200,
      send: (user, headers) => server.request('PATCH', `/users/${user.uid}`, { headers: { 'content-type': 'application/merge-patch+json', ...headers }, body: JSON.stringify({ display_name: 'Changed' }) }),
    },
    DELETE: { ok: 204, send: (user, headers) => server.delete(`/users/${user.uid}`, headers) },
  };

  for (const [method, write] of Object.entries(writes)) {
    describe(method, () => {
      const refused: [string, (etag: string) => Record<string, string>][] = [
        ['If-None-Match: * on an existing user', () => ({ 'if-none-match': '*' })],
        ['If-None-Match with the current tag', (etag) => ({ 'if-none-match': etag })],
        ['If-None-Match with a list holding the current tag', (etag) => ({ 'if-none-match': `"other", ${etag}` })],
        ['If-None-Match with the weak form of the current tag (weak comparison)', (etag) => ({ 'if-none-match': `W/${etag}` })],
        ['a matching If-Match and a matching If-None-Match', (etag) => ({ 'if-match': etag, 'if-none-match': etag })],
        ['a failing If-Match and a non-matching If-None-Match', () => ({ 'if-match': '"stale"', 'if-none-match': '"other"' })],
        // If-Match is read strictly: the current tag inside a value that is no list of entity tags matches nothing.
        ['If-Match with the current tag among words', (etag) => ({ 'if-match': `foo bar ${etag} junk` })],
        ['If-Match with the current tag after garbage', (etag) => ({ 'if-match': `xyzzy${etag}` })],
        ['If-Match with a lower-case weak prefix (no entity tag)', (etag) => ({ 'if-match': `w/${etag}` })],
        ['If-Match with a space inside the weak prefix', (etag) => ({ 'if-match': `W/ ${etag}` })],
        ['If-Match with a malformed member before the current tag', (etag) => ({ 'if-match': `garbage, ${etag}` })],
        ['If-Match with the weak form of the current tag (strong comparison)', (etag) => ({ 'if-match': `W/${etag}` })],
      ];
      for (const [name, headers] of refused) {
        it(`answers 412 to ${name}, and changes nothing`, async () => {
          const before = await created();
          const position = await feedPosition();
          assertProblem(await write.send(before.user, headers(before.etag)), 412, 'precondition-failed');
          await assertUnchanged(before, position);
        });
      }

      const proceeding: [string, (etag: string) => Record<string, string>][] = [
        ['If-None-Match with another tag', () => ({ 'if-none-match': '"other"' })],
        ['If-None-Match with the weak form of another tag', () => ({ 'if-none-match': 'W/"other", W/"more"' })],
        ['a matching If-Match and a non-matching If-None-Match', (etag) => ({ 'if-match': etag, 'if-none-match': '"other"' })],
      ];
      for (const [name, headers] of proceeding) {
        it(`proceeds for ${name}`, async () => {
          const { user, etag } = await created();
          const res = await write.send(user, headers(etag));
          assert.equal(res.status, write.ok, res.text);
        });
      }

      it('proceeds for the tag of an earlier version (the user has changed since)', async () => {
        const { user, etag: old } = await created();
        const changed = await server.request('PATCH', `/users/${user.uid}`, { headers: { 'content-type': 'application/merge-patch+json' }, body: '{"display_name":"Between"}' });
        assert.equal(changed.status, 200, changed.text);
        assert.equal((await write.send(changed.body, { 'if-none-match': old })).status, write.ok);
      });

      for (const value of ['xyzzy', '"a" "b"', '*, "a"', '', ' , ', '"unterminated', 'w/"lower-case-weak"', '"a", b']) {
        it(`answers 400 to the malformed If-None-Match ${JSON.stringify(value)}, and changes nothing`, async () => {
          const before = await created();
          const position = await feedPosition();
          const res = await write.send(before.user, { 'if-none-match': value });
          assertProblem(res, 400, 'malformed-request');
          assert.match(res.body.detail, /If-None-Match/);
          await assertUnchanged(before, position);
        });
      }

      it('answers 404, not 412, on an unknown uid, with If-None-Match: * (writes never create)', async () => {
        const { user } = await created();
        assertProblem(await write.send({ ...user, uid: UNKNOWN_UID }, { 'if-none-match': '*' }), 404, 'not-found');
        assertProblem(await write.send({ ...user, uid: UNKNOWN_UID }, { 'if-none-match': '"other"' }), 404, 'not-found');
      });
    });
  }

  it('an Idempotency-Key retry of a PATCH refused for a malformed If-None-Match runs as new: the 400 is not kept', async () => {
    const { user } = await created();
    const headers = { 'content-type': 'application/merge-patch+json', 'idempotency-key': `"inm-${process.pid}-${user.uid}"` };
    const body = JSON.stringify({ display_name: 'Once' });
    assertProblem(await server.request('PATCH', `/users/${user.uid}`, { headers: { ...headers, 'if-none-match': 'xyzzy' }, body }), 400, 'malformed-request');
    const retried = await server.request('PATCH', `/users/${user.uid}`, { headers, body });
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.body.display_name, 'Once');
  });

  it('GET still ignores members of If-None-Match that are not entity tags: a 200, never a 400', async () => {
    const { user, etag } = await created();
    assert.equal((await server.get(`/users/${user.uid}`, { 'if-none-match': 'xyzzy' })).status, 200);
    // Member by member: the current tag inside a member that is not exactly an entity tag does not match.
    for (const value of [`w/${etag}`, `xyzzy${etag}`, `foo ${etag}`]) assert.equal((await server.get(`/users/${user.uid}`, { 'if-none-match': value })).status, 200, value);
    assert.equal((await server.get(`/users/${user.uid}`, { 'if-none-match': `"other" , W/${etag}` })).status, 304);
  });
});
