/**
 * CONTRACT §11 over HTTP, on both stores: GET /events as JSON pages and as
 * Server-Sent Events; the Feed-Position of every read of users; 410 once
 * retention passed a position; Last-Event-ID resume; heartbeats; a slow
 * subscriber cut off while another keeps up; the subscriber limit; streams
 * ended by a graceful stop. Every response is checked against the OpenAPI
 * document (helpers/http-client.ts, helpers/sse-client.ts).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { v7 as uuidv7 } from 'uuid';
import { withDefaults, type User } from '../../src/users/user.js';
import { assertProblem } from '../helpers/problem-assertions.js';
import { openEventStream } from '../helpers/sse-client.js';
import { describeEachStore } from '../helpers/stores.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

/** A position header or event id as a number. */
const positionOf = (value: unknown) => Number(value);

describeEachStore('GET /events', (kind) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store: kind, env: { EVENTS_HEARTBEAT_S: '1', EVENTS_MAX_SUBSCRIBERS: '3', EVENTS_SUBSCRIBER_BUFFER_BYTES: '16384' } });
  });
  after(() => server?.close());

  /** The latest position, once every write so far is readable. */
  const settled = () => server.store.events.settle();

  async function create(overrides: Record<string, unknown> = {}): Promise<User> {
    const response = await server.post('/users', newUser(overrides));
    assert.equal(response.status, 201, response.text);
    return response.body;
  }

  async function eventsAfter(after: number, limit = 1000): Promise<Record<string, any>[]> {
    await settled();
    const response = await server.get(`/events?after=${after}&limit=${limit}`);
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  it('every write is a CloudEvent in position order: the user as the API returns it (erased once it is deleted), or its uid and last version', async () => {
    const start = await settled();
    const created = await create({ legacy_ids: ['crm:1'], attributes: { team: 'ops' } });
    const replaced = (await server.put(`/users/${created.uid}`, { username: created.username, email_address: created.email_address, display_name: 'Ada' })).body;
    const patched = await server.request('PATCH', `/users/${created.uid}`, { body: JSON.stringify({ attributes: { floor: 2 } }), headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(patched.status, 200);
    const before = await eventsAfter(start);
    assert.deepEqual(before.map((e) => e.data), [created, replaced, patched.body]);
    assert.ok(before.every((e) => e.origininterface === 'rest' && !('origincredential' in e)), 'written through REST without a credential');
    assert.equal((await server.delete(`/users/${created.uid}`)).status, 204);

    const events = await eventsAfter(start);
    assert.deepEqual(events.map((e) => e.type), ['user.created', 'user.updated', 'user.updated', 'user.deleted']);
    assert.deepEqual(events.map((e) => e.id), [1, 2, 3, 4].map((i) => String(start + i)), 'id = position, in decimal');
    for (const event of events) {
      assert.equal(event.specversion, '1.0');
      assert.equal(event.source, '/users');
      assert.equal(event.subject, created.uid);
      assert.equal(event.datacontenttype, 'application/json');
    }
    // Erased by the delete: each keeps its position, type, subject and version.
    assert.deepEqual(events.slice(0, 3).map((e) => e.data), [1, 2, 3].map((version) => ({ uid: created.uid, version, erased: true })));
    assert.deepEqual(events[3]!.data, { uid: created.uid, version: 3 });
    assert.equal(events[1]!.time, replaced.updated_at);
  });

  it('a PATCH that changes nothing appends nothing; every accepted PUT is a change and appends one', async () => {
    const user = await create({ legacy_ids: ['crm:same'], attributes: { a: 1 } });
    const start = await settled();
    for (const patch of ['{}', JSON.stringify({ attributes: { a: 1 } }), JSON.stringify({ display_name: null })]) {
      const same = await server.request('PATCH', `/users/${user.uid}`, { body: patch, headers: { 'content-type': 'application/merge-patch+json' } });
      assert.deepEqual(same.body, user, patch);
    }
    assert.deepEqual(await eventsAfter(start), []);
    // docs/api.md, "Writing": a PUT counts as a change even with equal values (version +1), so it has its event.
    const body = { username: user.username, email_address: user.email_address, legacy_ids: user.legacy_ids, display_name: user.display_name, attributes: user.attributes };
    const put = await server.put(`/users/${user.uid}`, body);
    assert.equal(put.body.version, 2);
    assert.deepEqual((await eventsAfter(start)).map((e) => [e.type, e.data.version]), [['user.updated', 2]]);
  });

  it('a page links to the next one, always, and tells the latest position', async () => {
    const start = await settled();
    for (let i = 0; i < 5; i++) await create();
    await settled();
    const first = await server.get(`/events?after=${start}&limit=2`);
    assert.equal(first.headers.link, `</events?after=${start + 2}&limit=2>; rel="next"`);
    assert.equal(positionOf(first.headers['feed-position']), start + 5);
    assert.match(String(first.headers.vary), /accept/i);
    // Following the links visits every event once, and the last page links to where the next event will be.
    const seen: number[] = [];
    let next = `/events?after=${start}&limit=2`;
    for (let page = 0; page < 10; page++) {
      const response = await server.get(next);
      seen.push(...(response.body as { id: string }[]).map((e) => Number(e.id)));
      next = /^<([^>]+)>; rel="next"$/.exec(String(response.headers.link))![1]!;
      if (response.body.length === 0) break;
    }
    assert.deepEqual(seen, [1, 2, 3, 4, 5].map((i) => start + i));
    assert.equal(next, `/events?after=${start + 5}&limit=2`);
    const empty = await server.get(next);
    assert.deepEqual(empty.body, []);
  });

  it('parameters are as strict as search: a bad one is a 400 problem', async () => {
    for (const query of ['after=007', 'after=-1', 'after=1e2', 'after=', 'limit=0', 'limit=1001', 'after=1&after=2', 'cursor=x', 'after=%zz', 'after=99999999999999999']) {
      assertProblem(await server.get(`/events?${query}`), 400, 'invalid-query');
    }
    const badId = await openEventStream(server.baseUrl, '/events', { 'last-event-id': 'abc' });
    assert.equal(badId.status, 400);
  });

  it('every read of users tells the position it reflects; listing then following from it misses nothing', async () => {
    const user = await create();
    const position = await settled();
    const read = await server.get(`/users/${user.uid}`);
    assert.equal(positionOf(read.headers['feed-position']), position);
    const lookup = await server.get(`/users/username:${user.username}`);
    assert.equal(positionOf(lookup.headers['feed-position']), position);
    const notModified = await server.get(`/users/${user.uid}`, { 'if-none-match': String(read.headers.etag) });
    assert.equal(notModified.status, 304);
    assert.equal(positionOf(notModified.headers['feed-position']), position);
    const listed = await server.get('/users?limit=1');
    assert.equal(positionOf(listed.headers['feed-position']), position);

    const later = await create();
    const events = await eventsAfter(positionOf(listed.headers['feed-position']));
    assert.deepEqual(events.map((e) => e.subject), [later.uid]);
  });

  it('a stream sends every event live, with its position as the SSE id, and heartbeats while idle', async () => {
    const start = await settled();
    const stream = await openEventStream(server.baseUrl, `/events?after=${start}`);
    try {
      assert.equal(stream.status, 200);
      assert.match(String(stream.headers['content-type']), /^text\/event-stream/);
      assert.equal(stream.headers['cache-control'], 'no-store');
      const users = [await create(), await create(), await create()];
      const got = await stream.waitForEvents(3);
      assert.deepEqual(got.map((e) => e.id), [start + 1, start + 2, start + 3]);
      assert.deepEqual(got.map((e) => e.event.subject), users.map((u) => u.uid));
      assert.deepEqual(got.map((e) => e.event.id), got.map((e) => String(e.id)));
      assert.equal(await stream.waitForComment(), 'heartbeat');
    } finally {
      stream.close();
    }
  });

  it('a reconnect with Last-Event-ID resumes right after it, whatever `after` says', async () => {
    const start = await settled();
    for (let i = 0; i < 6; i++) await create();
    const first = await openEventStream(server.baseUrl, `/events?after=${start}`);
    const received = await first.waitForEvents(3);
    first.close();
    const resumed = await openEventStream(server.baseUrl, `/events?after=${start}`, { 'last-event-id': String(received[2]!.id) });
    try {
      const rest = await resumed.waitForEvents(3);
      assert.deepEqual([...received, ...rest].map((e) => e.id), [1, 2, 3, 4, 5, 6].map((i) => start + i), 'each event once, in order');
    } finally {
      resumed.close();
    }
  });

  it('a position retention has deleted is a 410 telling the consumer to resync, as a page and as a stream', async () => {
    for (let i = 0; i < 3; i++) await create();
    const latest = await settled();
    while ((await server.store.events.prune({ keep: 1 }, 1000)) > 0);
    const gone = await server.get(`/events?after=${latest - 2}`);
    assertProblem(gone, 410, 'events-gone');
    assert.match(gone.body.detail, /resync/i);
    const stream = await openEventStream(server.baseUrl, '/events', { 'last-event-id': String(latest - 2) });
    assert.equal(stream.status, 410);
    assert.equal(JSON.parse(stream.text).type, '/problems/events-gone');
    // The position retention stopped at still works: nothing was lost after it.
    const kept = await server.get(`/events?after=${latest - 1}`);
    assert.deepEqual((kept.body as { id: string }[]).map((e) => Number(e.id)), [latest]);
    // A position beyond the feed (a store restored from a backup) is gone too.
    assertProblem(await server.get(`/events?after=${latest + 1000}`), 410, 'events-gone');
  });

  it('a subscriber too slow to keep up is cut off; another keeps receiving every event', async () => {
    const start = await settled();
    const slow = await openEventStream(server.baseUrl, `/events?after=${start}`);
    const fast = await openEventStream(server.baseUrl, `/events?after=${start}`);
    try {
      slow.pause();
      // Large events, in imports of 100: the slow one's backlog passes what the sockets hold (about 4 MiB
      // on loopback while the reader is paused) and then its 16 KiB limit. The fast one reads each
      // batch before the next is written, so its backlog is empty whenever a batch comes.
      const count = 1000;
      const padding = 'x'.repeat(16000);
      const now = new Date().toISOString();
      const users: User[] = Array.from({ length: count }, (_, i) => withDefaults({
        uid: uuidv7(),
        username: `slow${process.pid}x${i}`,
        email_address: `slow${process.pid}x${i}@example.com`,
        legacy_ids: [],
        display_name: null,
        attributes: { padding },
        created_at: now,
        updated_at: now,
        version: 1,
      }));
      for (let i = 0; i < count; i += 100) {
        await server.store.importUsers(users.slice(i, i + 100), 'skip', now);
        await fast.waitForEvents(i + 100);
      }
      const got = fast.events;
      assert.deepEqual(got.map((e) => e.id), users.map((_, i) => start + i + 1));
      const metrics = await server.get('/metrics');
      assert.match(metrics.text, /user_events_streams_ended_total\{reason="too-slow"\} 1/);
      slow.resume();
      await slow.ended;
      assert.ok(slow.events.length < count, 'the slow one did not get them all');
      assert.ok(slow.events.every((e, i) => e.id === start + i + 1), 'what it got is a prefix, in order: it resumes from its last id');
    } finally {
      slow.close();
      fast.close();
    }
  });

  it('an instance serves at most EVENTS_MAX_SUBSCRIBERS streams; one more is a 503 with Retry-After', async () => {
    // After the latest position: an earlier test's retention made position 0 gone.
    const path = `/events?after=${await settled()}`;
    const open = [await openEventStream(server.baseUrl, path), await openEventStream(server.baseUrl, path), await openEventStream(server.baseUrl, path)];
    try {
      const refused = await openEventStream(server.baseUrl, path);
      assert.equal(refused.status, 503);
      assert.equal(JSON.parse(refused.text).type, '/problems/subscriber-limit');
      assert.equal(refused.headers['retry-after'], '5');
      // JSON pages are not streams: still served.
      assert.equal((await server.get(path)).status, 200);
    } finally {
      for (const stream of open) stream.close();
    }
  });

  it('an invalid qvalue does not ask for a stream; Last-Event-ID allows only spaces and tabs around the number', async () => {
    const latest = await settled();
    const path = `/events?after=${latest}`;
    for (const accept of ['text/event-stream;q=2', 'text/event-stream;q=1e-3', 'text/event-stream;q=0x1', 'text/event-stream;q=0']) {
      const response = await server.request('GET', path, { headers: { accept } });
      assert.equal(response.status, 200, accept);
      assert.match(String(response.headers['content-type']), /^application\/json/, accept);
    }
    const spaced = await openEventStream(server.baseUrl, path, { 'last-event-id': ` \t${latest} ` });
    assert.equal(spaced.status, 200);
    spaced.close();
    const nbsp = await openEventStream(server.baseUrl, path, { 'last-event-id': `${latest}\u00a0` });
    assert.equal(nbsp.status, 400);
  });

  it('HEAD never opens a stream', async () => {
    const head = await server.request('HEAD', `/events?after=${await settled()}`, { headers: { accept: 'text/event-stream' } });
    assert.equal(head.status, 200);
    assert.match(String(head.headers['content-type']), /^application\/json/);
  });
});

describeEachStore('GET /events while the instance stops', (kind) => {
  it('a graceful stop ends every stream, so it waits for none of them', async () => {
    const server = await startTestServer({ store: kind });
    let stream;
    try {
      stream = await openEventStream(server.baseUrl);
    } finally {
      await server.close();
    }
    await stream.ended;
  });
});
