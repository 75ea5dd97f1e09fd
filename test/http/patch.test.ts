/**
 * PATCH /users/{uid} with JSON Merge Patch (CONTRACT §9), on every store: RFC
 * 7396's own examples, the user's fields, validation as PUT, preconditions, media
 * types, the canonical path only, and concurrent patches.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem } from '../helpers/problem-assertions.js';
import { describeEachStore } from '../helpers/stores.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { RFC7396_EXAMPLES } from '../users/rfc7396-examples.js';

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

describeEachStore('PATCH /users/{uid}', (kind) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store: kind });
  });
  after(() => server.close());

  const patch = (uid: string, body: unknown, headers: Record<string, string> = {}) => server.request('PATCH', `/users/${uid}`, { headers: { ...MERGE_PATCH, ...headers }, body: JSON.stringify(body) });
  const create = async (overrides: Record<string, unknown> = {}) => {
    const res = await server.post('/users', newUser(overrides));
    assert.equal(res.status, 201, res.text);
    return { user: res.body, etag: String(res.headers.etag) };
  };

  describe('RFC 7396 Appendix A, through the attributes member', () => {
    // Each example is wrapped as attributes.x: merging {x: patch} into {x: original} merges x (§2).
    for (const [original, patchValue, result] of RFC7396_EXAMPLES) {
      it(`${JSON.stringify(original)} + ${JSON.stringify(patchValue)}`, async () => {
        const { user } = await create({ attributes: { x: original, kept: true } });
        const res = await patch(user.uid, { attributes: { x: patchValue } });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body.attributes, patchValue === null ? { kept: true } : { x: result, kept: true });
        assert.deepEqual((await server.get(`/users/${user.uid}`)).body, res.body, 'stored as answered');
      });
    }
  });

  it('changes only the fields named; null removes an optional one; arrays are replaced whole; version +1 and a new updated_at', async () => {
    const { user, etag } = await create({ legacy_ids: ['p-1', 'p-2'], display_name: 'Before', attributes: { a: 1, b: 2 } });
    const res = await patch(user.uid, { display_name: null, legacy_ids: ['p-3'], attributes: { b: null, c: 3 } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.username, user.username);
    assert.equal(res.body.email_address, user.email_address);
    assert.equal(res.body.display_name, null);
    assert.deepEqual(res.body.legacy_ids, ['p-3']);
    assert.deepEqual(res.body.attributes, { a: 1, c: 3 });
    assert.equal(res.body.version, 2);
    assert.notEqual(res.body.updated_at, user.updated_at);
    assert.equal(res.body.created_at, user.created_at);
    assert.notEqual(res.headers.etag, etag, 'a new entity tag');
    assert.equal((await server.get('/users/legacy_id:p-1')).status, 404, 'a removed legacy id is free');
    assert.equal((await server.get('/users/legacy_id:p-3')).body.uid, user.uid);
  });

  it('{} and a patch of equal values change nothing and keep the version and the entity tag', async () => {
    const { user, etag } = await create({ display_name: 'Same' });
    for (const body of [{}, { display_name: 'Same' }, { attributes: {} }, { username: user.username }]) {
      const res = await patch(user.uid, body);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, user);
      assert.equal(res.headers.etag, etag);
    }
  });

  it('validates the patched user as a PUT body: 400 with pointers, and nothing changes', async () => {
    const { user } = await create();
    for (const [body, pointer] of [
      [{ username: null }, '/username'],
      [{ email_address: null }, '/email_address'],
      [{ email_address: 'not-an-address' }, '/email_address'],
      [{ username: 'has space' }, '/username'],
      [{ display_name: 'x'.repeat(300) }, '/display_name'],
      [{ legacy_ids: ['dup', 'dup'] }, '/legacy_ids'],
      [{ attributes: { blob: 'x'.repeat(17 * 1024) } }, '/attributes'],
    ] as const) {
      const res = await patch(user.uid, body);
      assertProblem(res, 400, 'validation-failed');
      assert.ok(res.body.errors.some((e: { pointer: string }) => e.pointer === pointer), `${JSON.stringify(body).slice(0, 80)}: ${res.text.slice(0, 300)}`);
    }
    assert.equal((await server.get(`/users/${user.uid}`)).body.version, 1);
  });

  it('refuses read-only fields, unknown fields and the legacy_id shorthand with a 400 naming them', async () => {
    const { user } = await create();
    for (const field of ['uid', 'created_at', 'updated_at', 'version']) {
      const res = await patch(user.uid, { [field]: field === 'version' ? 5 : 'x' });
      assertProblem(res, 400, 'validation-failed');
      assert.deepEqual(res.body.errors, [{ pointer: `/${field}`, detail: 'is read-only; the service assigns it' }]);
    }
    for (const field of ['legacy_id', 'dispaly_name']) {
      const res = await patch(user.uid, { [field]: null });
      assertProblem(res, 400, 'validation-failed');
      assert.deepEqual(res.body.errors, [{ pointer: `/${field}`, detail: 'is not a known field' }], 'a typo is never a silent no-op');
    }
    assert.equal((await server.get(`/users/${user.uid}`)).body.version, 1);
  });

  it('a key another user holds is a 409 naming it, and nothing changes', async () => {
    const holder = await create({ legacy_ids: ['held-by-other'] });
    const { user } = await create();
    for (const [body, key] of [
      [{ username: holder.user.username.toUpperCase() }, 'username'],
      [{ email_address: holder.user.email_address }, 'email_address'],
      [{ legacy_ids: ['mine', 'held-by-other'] }, 'legacy_id'],
    ] as const) {
      const res = await patch(user.uid, body);
      assertProblem(res, 409, 'key-conflict');
      assert.equal(res.body.key, key);
    }
    assert.equal((await server.get(`/users/${user.uid}`)).body.version, 1);
  });

  it('honours If-Match: a stale tag is a 412 and changes nothing; the current one writes', async () => {
    const { user, etag } = await create();
    assert.equal((await patch(user.uid, { display_name: 'One' }, { 'if-match': etag })).status, 200);
    assertProblem(await patch(user.uid, { display_name: 'Two' }, { 'if-match': etag }), 412, 'precondition-failed');
    const current = await server.get(`/users/${user.uid}`);
    assert.equal(current.body.display_name, 'One');
    assert.equal((await patch(user.uid, { display_name: 'Two' }, { 'if-match': String(current.headers.etag) })).status, 200);
  });

  it('application/json is read as the same merge patch: null removes, objects merge, arrays are replaced', async () => {
    const { user } = await create({ display_name: 'Before', legacy_ids: ['json-1'], attributes: { a: 1, b: 2 } });
    const body = JSON.stringify({ display_name: null, legacy_ids: ['json-2'], attributes: { b: null, c: 3 } });
    const asJson = await server.request('PATCH', `/users/${user.uid}`, { headers: { 'content-type': 'application/json; charset=utf-8' }, body });
    assert.equal(asJson.status, 200, asJson.text);
    const { user: twin } = await create({ display_name: 'Before', legacy_ids: ['json-3'], attributes: { a: 1, b: 2 } });
    const asMergePatch = await server.request('PATCH', `/users/${twin.uid}`, { headers: MERGE_PATCH, body: body.replace('json-2', 'json-4') });
    for (const res of [asJson, asMergePatch]) {
      assert.equal(res.body.display_name, null);
      assert.deepEqual(res.body.attributes, { a: 1, c: 3 });
      assert.equal(res.body.version, 2);
    }
    assert.deepEqual(asJson.body.legacy_ids, ['json-2']);
    assert.deepEqual((await server.get(`/users/${user.uid}`)).body, asJson.body, 'stored as answered');
  });

  it('another media type (JSON Patch included) is a 415 with Accept-Patch naming both merge-patch types, and changes nothing', async () => {
    const { user } = await create();
    for (const type of ['application/json-patch+json', 'text/plain', 'application/scim+json']) {
      const res = await server.request('PATCH', `/users/${user.uid}`, { headers: { 'content-type': type }, body: JSON.stringify({ display_name: 'x' }) });
      assertProblem(res, 415, 'unsupported-media-type');
      assert.equal(res.headers['accept-patch'], 'application/merge-patch+json, application/json');
    }
    const jsonPatch = await server.request('PATCH', `/users/${user.uid}`, { headers: { 'content-type': 'application/json-patch+json' }, body: JSON.stringify([{ op: 'replace', path: '/display_name', value: 'x' }]) });
    assertProblem(jsonPatch, 415, 'unsupported-media-type');
    assert.equal((await server.get(`/users/${user.uid}`)).body.version, 1);
  });

  it('exists only on the canonical path: PATCH /users/{key}:{value} is a 405 with Allow: GET, HEAD', async () => {
    const { user } = await create({ legacy_ids: ['patch-lookup'] });
    for (const ref of [`username:${user.username}`, `uid:${user.uid}`, 'legacy_id:patch-lookup']) {
      const res = await patch(ref, { display_name: 'x' });
      assertProblem(res, 405, 'method-not-allowed');
      assert.equal(res.headers.allow, 'GET, HEAD');
    }
  });

  it('an unknown or malformed uid is a 404', async () => {
    assertProblem(await patch('01900000-0000-7000-8000-000000000000', {}), 404, 'not-found');
    assertProblem(await patch('not-a-uid', {}), 404, 'not-found');
  });

  it('two concurrent patches of different fields of one user both survive, every time', async () => {
    for (let i = 0; i < 40; i++) {
      const { user } = await create({ attributes: { keep: i } });
      const [a, b] = await Promise.all([patch(user.uid, { display_name: `name ${i}` }), patch(user.uid, { attributes: { extra: i } })]);
      assert.equal(a.status, 200, a.text);
      assert.equal(b.status, 200, b.text);
      const final = (await server.get(`/users/${user.uid}`)).body;
      assert.equal(final.display_name, `name ${i}`);
      assert.deepEqual(final.attributes, { keep: i, extra: i });
      assert.equal(final.version, 3);
    }
  });

  it('concurrent patches renaming two users to one username: exactly one succeeds, the other is a 409', async () => {
    for (let i = 0; i < 20; i++) {
      const [first, second] = [await create(), await create()];
      const name = `contested${process.pid}x${i}`;
      const answers = await Promise.all([patch(first.user.uid, { username: name }), patch(second.user.uid, { username: name.toUpperCase() })]);
      assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409], answers.map((r) => r.text).join('\n'));
      assert.equal((await server.get(`/users?username=${name}`)).body.length, 1);
    }
  });
});
