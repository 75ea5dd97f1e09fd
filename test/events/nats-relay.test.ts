/**
 * The NATS JetStream relay (CONTRACT §11, EVENTS_NATS_URL), against real NATS
 * servers: every event, in position order, the position as the message id,
 * each once; one relay across instances, another taking over when the leader
 * is killed; an outage of NATS loses nothing; retention never deletes what the
 * relay has not published.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { v7 as uuidv7 } from 'uuid';
import { applyRetention } from '../../src/events/retention.js';
import { RELAY_NAME } from '../../src/events/nats-relay.js';
import { withDefaults, type User } from '../../src/users/user.js';
import { startChildServer, type StartedChildServer } from '../helpers/child-server.js';
import { natsSkipReason, purgeStream, startPrivateNats, streamMessages, uniqueStream, type StreamMessage, type TestStream } from '../helpers/nats.js';
import { createTestDatabase, postgresSkipReason } from '../helpers/postgres.js';
import { describeEachStore } from '../helpers/stores.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

/** The stream's messages once it holds `count` of them. */
const messagesOnce = (stream: string, count: number, url?: string, signal?: AbortSignal) => until(() => streamMessages(stream, url), (m) => m.length >= count, signal);

/** Each position once, in order, from 1 to the last, with no gap. */
function assertGapless(messages: StreamMessage[], last: number): void {
  assert.deepEqual(
    messages.map((m) => Number(m.id)),
    Array.from({ length: last }, (_, i) => i + 1),
  );
  assert.deepEqual(messages.map((m) => m.event.id), messages.map((m) => m.id), 'the message id is the CloudEvent id: the position');
}

async function createUsers(server: { post: TestServer['post'] }, count: number): Promise<User[]> {
  const users: User[] = [];
  for (let i = 0; i < count; i++) {
    const response = await server.post('/users', newUser());
    assert.equal(response.status, 201, response.text);
    users.push(response.body);
  }
  return users;
}

const noNats = await natsSkipReason();
const skip = (await postgresSkipReason()) ?? noNats;

describeEachStore('the NATS relay', (kind) => {
  if (noNats) {
    it('needs NATS', { skip: noNats }, () => {});
    return;
  }
  const nats = uniqueStream();
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store: kind, env: nats.env });
  });
  after(async () => {
    await server?.close();
    await nats.cleanup();
  });

  it('publishes every write as the CloudEvent GET /events gives, in position order, the position as the message id', async () => {
    const [user] = await createUsers(server, 3);
    const patched = await server.request('PATCH', `/users/${user!.uid}`, { body: JSON.stringify({ display_name: 'Ada' }), headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(patched.status, 200);
    assert.equal((await server.delete(`/users/${user!.uid}`)).status, 204);
    const now = new Date().toISOString();
    const imported = Array.from({ length: 150 }, (_, i) => (withDefaults({ uid: uuidv7(), username: `relay${process.pid}x${i}`, email_address: `relay${process.pid}x${i}@example.com`, legacy_ids: [], display_name: null, attributes: {}, created_at: now, updated_at: now, version: 1 })));
    await server.store.importUsers(imported, 'skip', now);
    const latest = await server.store.events.settle();
    assert.equal(latest, 155);

    // The deleted user's earlier messages (positions 1 and 4) were purged before its deletion was published (erasure).
    await until(() => server.store.events.relayPosition(RELAY_NAME), (p) => p === latest);
    const messages = await messagesOnce(nats.stream, latest - 2);
    assert.deepEqual(messages.map((m) => Number(m.id)), Array.from({ length: latest }, (_, i) => i + 1).filter((p) => p !== 1 && p !== 4));
    assert.deepEqual(messages.map((m) => m.event.id), messages.map((m) => m.id), 'the message id is the CloudEvent id: the position');
    const feed = (await server.get(`/events?after=0&limit=1000`)).body as Record<string, any>[];
    assert.deepEqual(messages.map((m) => m.event), feed.filter((e) => e.data.erased !== true), 'the same CloudEvents as the HTTP feed, less the erased ones');
    assert.deepEqual(
      messages.slice(0, 3).map((m) => m.subject),
      [`user.created.${feed[1]!.subject}`, `user.created.${feed[2]!.subject}`, `user.deleted.${user!.uid}`].map((t) => `${nats.subjectPrefix}.${t}`),
      'each user\'s events on subjects of their own',
    );
    assert.ok(messages.every((m) => m.contentType === 'application/cloudevents+json'));
    // The relay recorded how far it went, and the lag metric says it is caught up.
    await until(() => server.store.events.relayPosition(RELAY_NAME), (p) => p === latest);
    assert.match((await server.get('/metrics')).text, /user_events_relay_lag_positions 0/);
  });

  it('retention never deletes what the relay has not published', async () => {
    const published = await until(() => server.store.events.relayPosition(RELAY_NAME), (p) => p === 155);
    // Events the relay has not reached: the recorded position is moved back, as after a crash.
    await server.store.events.setRelayPosition(RELAY_NAME, published - 10);
    const deleted = await applyRetention({ events: server.store.events, config: { retentionMs: 0, retentionCount: 1, retentionCheckMs: 60_000 }, relayName: RELAY_NAME });
    assert.ok(deleted > 0);
    const page = await server.store.events.read(0, 1);
    assert.equal(page.prunedThrough, published - 10, 'pruned up to the relay position, not beyond');
  });
});

describe('the NATS relay while NATS is down', noNats ? { skip: noNats } : {}, () => {
  it('goes on publishing where it stopped once NATS is back: nothing lost, nothing twice, in order', async () => {
    const nats = await startPrivateNats();
    const target = uniqueStream(nats.url);
    const server = await startTestServer({ env: { ...target.env, LOG_LEVEL: 'silent' } });
    try {
      await createUsers(server, 5);
      await messagesOnce(target.stream, 5, nats.url);
      await nats.stop();
      // Writes go on while NATS is away: the feed keeps them.
      await createUsers(server, 20);
      assert.equal((await server.get('/events?after=5')).body.length, 20);
      await nats.start();
      const messages = await messagesOnce(target.stream, 25, nats.url);
      assertGapless(messages, 25);
    } finally {
      await server.close();
      await nats.remove();
    }
  });
});

/**
 * A server relaying to `target` that has published three creates and recorded them,
 * handed to `steps`; closed afterwards. `signal`: the test's, so polling ends with it.
 */
async function afterThreePublished(target: TestStream, url: string | undefined, signal: AbortSignal, steps: (server: TestServer) => Promise<void>): Promise<void> {
  const server = await startTestServer({ env: { ...target.env, LOG_LEVEL: 'silent' } });
  try {
    await createUsers(server, 3);
    await messagesOnce(target.stream, 3, url, signal);
    await until(() => server.store.events.relayPosition(RELAY_NAME), (p) => p === 3, signal);
    await steps(server);
  } finally {
    await server.close();
  }
}

describe('the NATS relay after an operator purges or deletes its stream', noNats ? { skip: noNats } : {}, () => {
  // Bounded so that a relay stuck on the purged stream fails the test instead of hanging the run.
  it('goes on with the events after those it published: the stream holds them alone, in order', { timeout: 60_000 }, async (t) => {
    const target = uniqueStream();
    try {
      await afterThreePublished(target, undefined, t.signal, async (server) => {
        await purgeStream(target.stream);
        assert.deepEqual(await streamMessages(target.stream), []);
        await createUsers(server, 4);
        const messages = await messagesOnce(target.stream, 4, undefined, t.signal);
        assert.deepEqual(messages.map((m) => Number(m.id)), [4, 5, 6, 7]);
        assert.deepEqual(messages.map((m) => m.seq), [4, 5, 6, 7], 'the stream numbers them after the purged ones');
        await until(() => server.store.events.relayPosition(RELAY_NAME), (p) => p === 7, t.signal);
      });
    } finally {
      await target.cleanup();
    }
  });

  it('a deleted stream is made again and takes the events after those the relay published', { timeout: 60_000 }, async (t) => {
    const target = uniqueStream();
    try {
      await afterThreePublished(target, undefined, t.signal, async (server) => {
        await target.cleanup(); // deletes the stream
        await createUsers(server, 2);
        const messages = await messagesOnce(target.stream, 2, undefined, t.signal);
        assert.deepEqual(messages.map((m) => Number(m.id)), [4, 5]);
        assert.deepEqual(messages.map((m) => m.seq), [1, 2], 'a new stream, numbered from 1');
      });
    } finally {
      await target.cleanup();
    }
  });

  it('a relay that starts on a purged stream (its connection lost, NATS restarted) goes on after its recorded position', { timeout: 60_000 }, async (t) => {
    const nats = await startPrivateNats();
    const target = uniqueStream(nats.url);
    try {
      await afterThreePublished(target, nats.url, t.signal, async (server) => {
        await purgeStream(target.stream, nats.url);
        // The relay's connection ends with the server: its next session reads the purged stream afresh.
        await nats.stop();
        await nats.start();
        await createUsers(server, 2);
        const messages = await messagesOnce(target.stream, 2, nats.url, t.signal);
        assert.deepEqual(messages.map((m) => Number(m.id)), [4, 5]);
        assert.deepEqual(messages.map((m) => m.seq), [4, 5]);
      });
    } finally {
      await nats.remove();
    }
  });
});

describe('the NATS relay across instances on one PostgreSQL database', skip ? { skip } : {}, () => {
  it('one relay publishes for all; when its process is killed mid-publish another takes over, each event once, in order', async () => {
    const db = await createTestDatabase();
    const nats = uniqueStream();
    const env = { DATABASE_URL: db.url, ...nats.env };
    const instances: StartedChildServer[] = [];
    try {
      // The first instance alone: it takes the relay's leadership.
      instances.push(await startChildServer({ env }));
      await createUsers(instances[0]!, 10);
      await messagesOnce(nats.stream, 10);
      instances.push(...(await Promise.all([startChildServer({ env }), startChildServer({ env })])));
      // Writes through every instance at once.
      await Promise.all(instances.map((instance) => createUsers(instance, 20)));
      // Kill the leader while it publishes (writes through the others keep it busy), then the next one.
      for (const victim of instances.slice(0, 2)) {
        const writes = createUsers(instances[2]!, 20);
        await createUsers(victim, 5);
        victim.kill('SIGKILL');
        await victim.waitForExit();
        await writes;
      }
      await createUsers(instances[2]!, 5);
      const messages = await messagesOnce(nats.stream, 125);
      assertGapless(messages, 125);
    } finally {
      await Promise.all(instances.map((instance) => instance.dispose()));
      await nats.cleanup();
      await db.drop();
    }
  });
});
