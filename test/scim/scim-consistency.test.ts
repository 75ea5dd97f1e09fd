/**
 * One directory behind two doors, on every store: what SCIM writes, REST reads
 * (and the other way round), with the same entity tags, the same keys and the same
 * uniqueness; deactivation is a state of the one user, not a second record; REST-only
 * members survive a SCIM replace; Idempotency-Key protects SCIM creates as REST ones.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, it } from 'node:test';
import { assertProblem } from '../helpers/problem-assertions.js';
import { describeEachStore } from '../helpers/stores.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { scimRequest, type ScimResponse } from '../helpers/scim-client.js';

const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';



function assertScimError(res: ScimResponse, status: number, scimType?: string): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${res.text}`);
  assert.match(String(res.headers['content-type']), /^application\/scim\+json(?:;|$)/, res.text);
  assert.deepEqual(res.body?.schemas, [ERROR], res.text);
  assert.equal(res.body.status, String(status), res.text);
  if (scimType !== undefined) assert.equal(res.body.scimType, scimType, res.text);
}

let counter = 0;
const tag = () => `${process.pid}x${++counter}`;

describeEachStore('one directory behind /users and /scim/v2', (kind) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store: kind });
  });
  after(() => server.close());

  const scim = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => scimRequest(server.baseUrl, method, `/scim/v2${path}`, { body, headers });
  const mergePatch = (uid: string, body: unknown) => server.request('PATCH', `/users/${uid}`, { headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify(body) });

  async function scimCreated(extra: Record<string, unknown> = {}) {
    const t = tag();
    const userName = `Door.User${t}`;
    const email = `Door.User${t}@Example.com`;
    const res = await scim('POST', '/Users', { schemas: [CORE], userName, emails: [{ value: email, type: 'work', primary: true }], ...extra });
    assert.equal(res.status, 201, res.text);
    return { user: res.body, etag: String(res.headers.etag), userName, email };
  }

  it('a SCIM create is read through REST by uid, by username in any case and by email address, with meta.version as the ETag', async () => {
    const { user, etag, userName, email } = await scimCreated({ displayName: 'Two Doors' });
    assert.equal(user.meta.version, etag);
    const reads = [
      await server.get(`/users/${user.id}`),
      await server.get(`/users/${user.id.toUpperCase()}`),
      await server.get(`/users/username:${encodeURIComponent(userName.toUpperCase())}`),
      await server.get(`/users/username:${encodeURIComponent(userName.toLowerCase())}`),
      await server.get(`/users/email_address:${encodeURIComponent(email.toLowerCase())}`),
    ];
    for (const rest of reads) {
      assert.equal(rest.status, 200, rest.text);
      assert.equal(rest.headers.etag, etag, 'REST and SCIM name the version alike');
      assert.equal(rest.body.uid, user.id);
      assert.equal(rest.body.username, userName);
      assert.equal(rest.body.email_address, email);
      assert.equal(rest.body.display_name, 'Two Doors');
      assert.equal(rest.body.active, true);
      assert.equal(rest.body.created_at, user.meta.created);
      assert.equal(rest.body.updated_at, user.meta.lastModified);
    }
    const again = await scim('GET', `/Users/${user.id}`);
    assert.equal(again.headers.etag, etag);
  });

  it('a REST merge patch of title and department shows in SCIM as title and the enterprise department, with a new meta.version', async () => {
    const { user, etag } = await scimCreated();
    const patched = await mergePatch(user.id, { title: 'CTO', department: 'R&D' });
    assert.equal(patched.status, 200, patched.text);
    assert.notEqual(patched.headers.etag, etag);
    const res = await scim('GET', `/Users/${user.id}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.title, 'CTO');
    assert.deepEqual(res.body[ENTERPRISE], { department: 'R&D' });
    assert.deepEqual(res.body.schemas, [CORE, ENTERPRISE]);
    assert.equal(res.body.meta.version, patched.headers.etag);
    assert.equal(res.headers.etag, patched.headers.etag);
    assert.notEqual(res.body.meta.version, user.meta.version);
    assert.equal(res.body.meta.lastModified, patched.body.updated_at);
    // And back: a SCIM change of the department is the REST department.
    const back = await scimRequest(server.baseUrl, 'PATCH', `/scim/v2/Users/${user.id}`, {
      body: { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: `${ENTERPRISE}:department`, value: 'Sales' }] },
    });
    assert.equal(back.status, 200, back.text);
    const rest = await server.get(`/users/${user.id}`);
    assert.equal(rest.body.department, 'Sales');
    assert.equal(rest.body.title, 'CTO');
    assert.equal(rest.headers.etag, back.headers.etag);
  });

  it('a SCIM deactivation is REST active:false: ?active=false lists the user, ?active=true does not, and its keys stay taken', async () => {
    const { user, userName, email } = await scimCreated();
    const off = await scim('PATCH', `/Users/${user.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.active, false);
    const rest = await server.get(`/users/${user.id}`);
    assert.equal(rest.body.active, false);
    assert.equal(rest.headers.etag, off.headers.etag);
    const inactive = await server.get('/users?active=false&limit=1000');
    assert.ok(inactive.body.some((u: { uid: string }) => u.uid === user.id), 'listed among the deactivated');
    const active = await server.get('/users?active=true&limit=1000');
    assert.equal(active.body.some((u: { uid: string }) => u.uid === user.id), false, 'not listed among the active');
    assert.deepEqual((await server.get(`/users?active=false&username=${encodeURIComponent(userName)}`)).body.map((u: { uid: string }) => u.uid), [user.id]);
    assert.deepEqual((await server.get(`/users?active=true&username=${encodeURIComponent(userName)}`)).body, []);
    const scimInactive = await scim('GET', `/Users?filter=${encodeURIComponent(`active eq false and userName eq "${userName}"`)}`);
    assert.deepEqual(scimInactive.body.Resources.map((r: { id: string }) => r.id), [user.id]);
    // Still the holder of its username and email address, at both doors.
    const t = tag();
    const sameName = await server.post('/users', { username: userName.toUpperCase(), email_address: `fresh${t}@example.com` });
    assertProblem(sameName, 409, 'key-conflict');
    assert.equal(sameName.body.key, 'username');
    const sameEmail = await server.post('/users', { username: `fresh${t}`, email_address: email.toUpperCase() });
    assertProblem(sameEmail, 409, 'key-conflict');
    assert.equal(sameEmail.body.key, 'email_address');
    assertScimError(await scim('POST', '/Users', { schemas: [CORE], userName: userName.toLowerCase(), emails: [{ value: `fresh${t}@example.com` }] }), 409, 'uniqueness');
    assert.equal((await server.get(`/users/username:${encodeURIComponent(userName)}`)).body.uid, user.id, 'lookups still find it');
  });

  it('SCIM externalId is REST external_id: GET /users?external_id= finds it exactly, and a REST change shows in the SCIM filter', async () => {
    const externalId = `00u${tag()}OkTa`;
    const { user } = await scimCreated({ externalId });
    const rest = await server.get(`/users/${user.id}`);
    assert.equal(rest.body.external_id, externalId);
    assert.deepEqual((await server.get(`/users?external_id=${encodeURIComponent(externalId)}`)).body.map((u: { uid: string }) => u.uid), [user.id]);
    assert.deepEqual((await server.get(`/users?external_id=${encodeURIComponent(externalId.toUpperCase())}`)).body, [], 'matched exactly');
    const changed = `${externalId}-2`;
    const patched = await mergePatch(user.id, { external_id: changed });
    assert.equal(patched.status, 200, patched.text);
    const found = await scim('GET', `/Users?filter=${encodeURIComponent(`externalId eq "${changed}"`)}`);
    assert.equal(found.status, 200, found.text);
    assert.deepEqual(found.body.Resources.map((r: { id: string; externalId: string }) => [r.id, r.externalId]), [[user.id, changed]]);
    assert.equal((await scim('GET', `/Users?filter=${encodeURIComponent(`externalId eq "${externalId}"`)}`)).body.totalResults, 0);
  });

  it('a SCIM PUT keeps the REST-only legacy_ids and attributes, and active when the body leaves it out', async () => {
    const { user, userName, email } = await scimCreated({ displayName: 'Before PUT' });
    const patched = await mergePatch(user.id, { legacy_ids: ['crm:77', 'A-1001'], attributes: { team: 'Identity', n: [1, null] }, active: false });
    assert.equal(patched.status, 200, patched.text);
    const put = await scim('PUT', `/Users/${user.id}`, { schemas: [CORE], userName, emails: [{ value: email, type: 'work' }], displayName: 'After PUT' });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.displayName, 'After PUT');
    assert.equal(put.body.active, false);
    const rest = await server.get(`/users/${user.id}`);
    assert.deepEqual(rest.body.legacy_ids, ['crm:77', 'A-1001']);
    assert.deepEqual(rest.body.attributes, { team: 'Identity', n: [1, null] });
    assert.equal(rest.body.active, false);
    assert.equal(rest.body.display_name, 'After PUT');
    assert.equal((await server.get('/users/legacy_id:crm:77')).body.uid, user.id, 'the legacy id is still a key of the user');
  });

  it('an Idempotency-Key on a SCIM POST replays the same 201 (Idempotent-Replayed: true) with the same id; another body under the key is refused', async () => {
    const t = tag();
    const key = `scim-create-${t}`;
    const body = { schemas: [CORE], userName: `idem${t}`, emails: [{ value: `idem${t}@example.com`, type: 'work' }] };
    const first = await scim('POST', '/Users', body, { 'idempotency-key': key });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const retry = await scim('POST', '/Users', body, { 'idempotency-key': key });
    assert.equal(retry.status, 201, retry.text);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.match(String(retry.headers['content-type']), /^application\/scim\+json(?:;|$)/);
    assert.equal(retry.body.id, first.body.id);
    assert.deepEqual(retry.body, first.body);
    assert.equal(retry.headers.etag, first.headers.etag);
    assert.equal(retry.headers.location, first.headers.location);
    const listed = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "idem${t}"`)}`);
    assert.equal(listed.body.totalResults, 1, 'one user');
    const reused = await scim('POST', '/Users', { ...body, displayName: 'Another request' }, { 'idempotency-key': key });
    assertScimError(reused, 422);
    assert.equal((await server.get(`/users/${first.body.id}`)).body.display_name, null, 'the other request did not run');
  });

  it('the fingerprint of a SCIM create leaves the discarded password out: a retry that differs only in the password gets the first answer', async () => {
    const t = tag();
    const key = `scim-create-pw-${t}`;
    const body = { schemas: [CORE], userName: `idempw${t}`, emails: [{ value: `idempw${t}@example.com` }], password: 'first-secret' };
    const first = await scim('POST', '/Users', body, { 'idempotency-key': key });
    assert.equal(first.status, 201, first.text);
    const retry = await scim('POST', '/Users', { ...body, password: 'second-secret' }, { 'idempotency-key': key });
    assert.equal(retry.status, 201, retry.text);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.equal(retry.body.id, first.body.id);
  });
});
