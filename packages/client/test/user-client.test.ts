/**
 * The typed client, imported by its package name as a consumer imports it,
 * against the real service in a process of its own: every method, hostile key
 * values, conditional writes, typed errors, search across pages, retries with
 * an Idempotency-Key, and the change feed through connections that break.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createUserClient, nextLink, UserServiceError, type UserClient } from '@user-service/client';
import { startService, type Service } from './helpers/service.js';
import { startTcpProxy } from './helpers/tcp-proxy.js';

describe('createUserClient against the real service', () => {
  let server: Service;
  let client: UserClient;
  /** The feed's latest position, as the service reports it (Feed-Position). */
  const latestPosition = async () => (await client.events.list({ limit: 1 })).latest;
  before(async () => {
    server = await startService();
    client = createUserClient({ baseUrl: server.baseUrl, token: server.keys.admin });
  });
  after(() => server.stop());

  it('create, get, update with ifMatch, delete', async () => {
    const { user, etag, location } = await client.create({ username: 'client.one', email_address: 'Client.One@example.com', legacy_id: 'crm:1' });
    assert.equal(user.version, 1);
    assert.equal(location, `/users/${user.uid}`, 'the Location of the create');
    assert.match(etag, /^"[^"]+"$/);
    assert.deepEqual(await client.get(user.uid), { user, etag, location, position: 1 });
    const updated = await client.update(user.uid, { username: 'client.one', email_address: 'c1@example.com', display_name: 'One' }, { ifMatch: etag });
    assert.equal(updated.user.version, 2);
    assert.notEqual(updated.etag, etag);
    await assert.rejects(client.update(user.uid, { username: 'client.one', email_address: 'c1@example.com' }, { ifMatch: etag }), (e: unknown) => e instanceof UserServiceError && e.status === 412 && e.type === '/problems/precondition-failed');
    await assert.rejects(client.delete(user.uid, { ifMatch: etag }), (e: unknown) => e instanceof UserServiceError && e.status === 412);
    await client.delete(user.uid, { ifMatch: updated.etag });
    await assert.rejects(client.get(user.uid), (e: unknown) => e instanceof UserServiceError && e.status === 404 && e.problem.type === '/problems/not-found');
  });

  it('refresh answers the cached user on a 304 and the current one after a change; ifNoneMatch guards writes', async () => {
    const cached = await client.create({ username: 'client.refresh', email_address: 'refresh@example.com' });
    const same = await client.refresh(cached);
    assert.equal(same.changed, false, 'a 304 is "unchanged", never an error');
    assert.deepEqual(same.user, cached.user);
    assert.equal(same.etag, cached.etag);
    assert.equal(typeof same.position, 'number', 'the 304 carries Feed-Position');
    await assert.rejects(client.patch(cached.user.uid, { display_name: 'No' }, { ifNoneMatch: '*' }), (e: unknown) => e instanceof UserServiceError && e.status === 412);
    await assert.rejects(client.update(cached.user.uid, { username: 'client.refresh', email_address: 'refresh@example.com' }, { ifNoneMatch: cached.etag }), (e: unknown) => e instanceof UserServiceError && e.status === 412);
    const patched = await client.patch(cached.user.uid, { display_name: 'Changed' }, { ifNoneMatch: '"some-other-tag"' });
    const fresh = await client.refresh(cached);
    assert.equal(fresh.changed, true);
    assert.deepEqual(fresh.user, patched.user);
    assert.equal(fresh.etag, patched.etag);
    await client.delete(cached.user.uid, { ifNoneMatch: cached.etag });
    await assert.rejects(client.refresh(fresh), (e: unknown) => e instanceof UserServiceError && e.status === 404);
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

  it('pages exposes each page with the link to the next, absent on the last', async () => {
    const pages = [];
    for await (const page of client.pages({ q: 'paged', limit: 10 })) pages.push(page);
    assert.deepEqual(pages.map((p) => p.users.length), [10, 10, 3]);
    assert.match(String(pages[0]!.next), /^http:\/\/127\.0\.0\.1:\d+\/users\?q=paged&limit=10&cursor=/);
    assert.equal(pages[2]!.next, undefined);
  });

  it('patch applies a merge patch, honours ifMatch, and keeps the version when nothing changes', async () => {
    const { user, etag } = await client.create({ username: 'client.patch', email_address: 'patch@example.com', display_name: 'Before', attributes: { a: 1, b: 2 } });
    const patched = await client.patch(user.uid, { display_name: null, attributes: { b: null, c: 3 } }, { ifMatch: etag });
    assert.equal(patched.user.display_name, null);
    assert.deepEqual(patched.user.attributes, { a: 1, c: 3 });
    assert.equal(patched.user.version, 2);
    await assert.rejects(client.patch(user.uid, { display_name: 'x' }, { ifMatch: etag }), (e: unknown) => e instanceof UserServiceError && e.status === 412);
    assert.equal((await client.patch(user.uid, {})).user.version, 2);
  });

  it('a create whose response is lost is retried with the same Idempotency-Key: one user, and the caller gets it', async () => {
    const keysSent: string[] = [];
    let lose = true;
    // The request reaches the server and commits; the answer never reaches the client (once).
    const flaky: typeof fetch = async (input, init) => {
      keysSent.push(String(new Headers(init?.headers).get('idempotency-key')));
      const response = await fetch(input, init);
      if (lose && init?.method === 'POST') {
        lose = false;
        await response.arrayBuffer();
        throw new TypeError('fetch failed: the connection was reset');
      }
      return response;
    };
    const retrying = createUserClient({ baseUrl: server.baseUrl, token: server.keys.admin, fetch: flaky, retryDelayMs: 10 });
    const { user } = await retrying.create({ username: 'client.lost', email_address: 'lost@example.com' });
    assert.equal(keysSent.length, 2);
    assert.equal(keysSent[0], keysSent[1], 'the retry carries the same key');
    assert.match(String(keysSent[0]), /^"[0-9a-f-]{36}"$/);
    const found: string[] = [];
    for await (const u of client.search({ username: 'client.lost' })) found.push(u.uid);
    assert.deepEqual(found, [user.uid]);
  });

  it('a 503 is retried after its Retry-After with the same key; a 4xx is not retried', async () => {
    let calls = 0;
    const unavailableOnce: typeof fetch = async (input, init) => {
      calls += 1;
      if (calls === 1) {
        const problem = { type: '/problems/store-unavailable', title: 't', status: 503, detail: 'd', instance: '/users' };
        return new Response(JSON.stringify(problem), { status: 503, headers: { 'content-type': 'application/problem+json', 'retry-after': '1' } });
      }
      return fetch(input, init);
    };
    const retrying = createUserClient({ baseUrl: server.baseUrl, token: server.keys.admin, fetch: unavailableOnce, retryDelayMs: 10 });
    assert.equal((await retrying.create({ username: 'client.503', email_address: 'c503@example.com' })).user.version, 1);
    assert.equal(calls, 2);
    calls = 10;
    await assert.rejects(retrying.create({ username: 'client.503', email_address: 'other503@example.com' }), (e: unknown) => e instanceof UserServiceError && e.status === 409);
    assert.equal(calls, 11, 'a 409 key conflict is not retried');
  });

  it('reads and pages carry the change-feed position; events.list pages the feed from it', async () => {
    const start = await latestPosition();
    const { user, position } = await client.create({ username: 'feed-a', email_address: 'feed-a@example.com' });
    assert.equal(position, undefined, 'a write answers no position');
    const read = await client.get(user.uid);
    assert.equal(read.position, start + 1);
    assert.equal(read.position, await latestPosition());
    const [page] = await client.pages({ username: 'feed-a' }).next().then((r) => [r.value]);
    assert.equal(page!.position, read.position);
    await client.patch(user.uid, { display_name: 'Feed A' });
    const listed = await client.events.list({ after: start });
    assert.deepEqual(listed.events.map((e) => [e.type, e.subject]), [['user.created', user.uid], ['user.updated', user.uid]]);
    assert.equal(listed.after, start + 2);
    assert.equal(listed.latest, start + 2);
    assert.deepEqual((await client.events.list({ after: listed.after })).events, []);
  });

  it('events.follow streams live events, reconnects with Last-Event-ID when the connection breaks, and never repeats one', async () => {
    const proxy = await startTcpProxy(server.baseUrl);
    const following = createUserClient({ baseUrl: proxy.baseUrl, token: server.keys.admin });
    const start = await latestPosition();
    const controller = new AbortController();
    const seen: number[] = [];
    const followed = (async () => {
      for await (const event of following.events.follow({ after: start, signal: controller.signal })) {
        seen.push(Number(event.id));
        if (seen.length === 3) {
          // Cut the stream's connection: the client reconnects after the server's retry delay.
          proxy.cut();
          await client.create({ username: 'follow-d', email_address: 'follow-d@example.com' });
        }
        if (seen.length === 4) controller.abort();
      }
    })();
    try {
      for (const name of ['follow-a', 'follow-b', 'follow-c']) await client.create({ username: name, email_address: `${name}@example.com` });
      await followed;
    } finally {
      await proxy.close();
    }
    assert.deepEqual(seen, [start + 1, start + 2, start + 3, start + 4]);
  });

  it('events.follow throws the 410 of a position retention has deleted: the consumer must resync', { timeout: 60_000 }, async () => {
    // A service of its own that keeps only the newest event, checked every second.
    const pruning = await startService({ EVENTS_RETENTION_COUNT: '1', EVENTS_RETENTION_CHECK_S: '1' });
    try {
      const users = createUserClient({ baseUrl: pruning.baseUrl, token: pruning.keys.admin });
      for (const name of ['gone-a', 'gone-b', 'gone-c']) await users.create({ username: name, email_address: `${name}@example.com` });
      // Retention runs in the background: wait until position 1 is gone (the first list that answers 410).
      for (;;) {
        const gone = await users.events.list({ after: 0 }).then(() => false, (error: unknown) => error instanceof UserServiceError && error.status === 410);
        if (gone) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await assert.rejects(
        async () => {
          for await (const _ of users.events.follow({ after: 0 })) break;
        },
        (error: unknown) => error instanceof UserServiceError && error.status === 410 && error.type === '/problems/events-gone',
      );
    } finally {
      await pruning.stop();
    }
  });

  it('sends the token from a function before every request, and fails with 401 without one', async () => {
    let asked = 0;
    const refreshing = createUserClient({ baseUrl: server.baseUrl, token: () => { asked += 1; return server.keys.reader; } });
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
