/**
 * The typed client against the real server: every method, hostile key values,
 * conditional writes, typed errors, and search across pages.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createUserClient, nextLink, UserServiceError, type UserClient } from '../../src/client/index.js';
import { apiKeysFixture, type ApiKeysFixture } from '../helpers/auth-fixtures.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('createUserClient against the real server', () => {
  let keys: ApiKeysFixture;
  let server: TestServer;
  let client: UserClient;
  before(async () => {
    keys = apiKeysFixture();
    server = await startTestServer({ env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file } });
    client = createUserClient({ baseUrl: server.baseUrl, token: keys.keys.admin });
  });
  after(async () => {
    await server.close();
    keys.cleanup();
  });

  it('create, get, update with ifMatch, delete', async () => {
    const { user, etag } = await client.create({ username: 'client.one', email_address: 'Client.One@example.com', legacy_id: 'crm:1' });
    assert.equal(user.version, 1);
    assert.deepEqual(await client.get(user.uid), { user, etag });
    const updated = await client.update(user.uid, { username: 'client.one', email_address: 'c1@example.com', display_name: 'One' }, { ifMatch: etag });
    assert.equal(updated.user.version, 2);
    assert.notEqual(updated.etag, etag);
    await assert.rejects(client.update(user.uid, { username: 'client.one', email_address: 'c1@example.com' }, { ifMatch: etag }), (e: unknown) => e instanceof UserServiceError && e.status === 412 && e.type === '/problems/precondition-failed');
    await assert.rejects(client.delete(user.uid, { ifMatch: etag }), (e: unknown) => e instanceof UserServiceError && e.status === 412);
    await client.delete(user.uid, { ifMatch: updated.etag });
    await assert.rejects(client.get(user.uid), (e: unknown) => e instanceof UserServiceError && e.status === 404 && e.problem.type === '/problems/not-found');
  });

  it('lookup encodes hostile values: colons, slashes, percent, plus, spaces, non-ASCII', async () => {
    const ids = ['crm:77:x', 'dept/42', '100%', '100%25', 'a+b', 'with space', 'ü/ß?#&='];
    const { user } = await client.create({ username: 'Hostile.Keys', email_address: 'a+b/c@example.com', legacy_ids: ids });
    for (const id of ids) assert.equal((await client.lookup('legacy_id', id)).user.uid, user.uid, id);
    assert.equal((await client.lookup('email_address', 'A+B/C@EXAMPLE.COM')).user.uid, user.uid);
    assert.equal((await client.lookup('username', 'ｈｏｓｔｉｌｅ.ｋｅｙｓ')).user.uid, user.uid);
    assert.equal((await client.lookup('uid', user.uid.toUpperCase())).user.uid, user.uid);
  });

  it('throws typed errors carrying the problem document (409 with its key, 400 with pointers)', async () => {
    await client.create({ username: 'taken.name', email_address: 'taken@example.com' });
    await assert.rejects(client.create({ username: 'TAKEN.NAME', email_address: 'other@example.com' }), (e: unknown) => e instanceof UserServiceError && e.status === 409 && e.problem.key === 'username');
    await assert.rejects(
      client.create({ username: 'ok.name', email_address: 'not-an-address' }),
      (e: unknown) => e instanceof UserServiceError && e.status === 400 && e.problem.errors?.[0]?.pointer === '/email_address',
    );
  });

  it('search iterates every matching user across pages, following Link', async () => {
    const made: string[] = [];
    for (let i = 0; i < 23; i++) made.push((await client.create({ username: `paged${i}`, email_address: `paged${i}@example.com` })).user.uid);
    const seen: string[] = [];
    for await (const user of client.search({ q: 'paged', limit: 5 })) seen.push(user.uid);
    assert.deepEqual(seen, [...made].sort());
    const filtered: string[] = [];
    for await (const user of client.search({ username: 'PAGED7' })) filtered.push(user.uid);
    assert.deepEqual(filtered, [made[7]]);
  });

  it('sends the token from a function before every request, and fails with 401 without one', async () => {
    let asked = 0;
    const refreshing = createUserClient({ baseUrl: server.baseUrl, token: () => { asked += 1; return keys.keys.reader; } });
    for await (const _ of refreshing.search({ limit: 1 })) break;
    assert.equal(asked, 1);
    const anonymous = createUserClient({ baseUrl: `${server.baseUrl}/` });
    await assert.rejects(anonymous.lookup('username', 'taken.name'), (e: unknown) => e instanceof UserServiceError && e.status === 401);
  });
});

describe('nextLink (RFC 8288)', () => {
  it('finds rel="next" among several links and parameters', () => {
    assert.equal(nextLink('</users?cursor=a>; rel="next"'), '/users?cursor=a');
    assert.equal(nextLink('</a>; rel="prev", </b>; rel="next"'), '/b');
    assert.equal(nextLink('</b>; title="x"; rel="first next"'), '/b');
    assert.equal(nextLink('</a>; rel="prev"'), undefined);
    assert.equal(nextLink(null), undefined);
  });
});
