/**
 * Failover of a replicated PostgreSQL cluster under load: a primary and a
 * synchronous standby made by the test (initdb, pg_basebackup, a replication slot,
 * synchronous_standby_names), two service processes on the multi-host URL, and
 * concurrent clients creating, patching and deleting with Idempotency-Keys while a
 * consumer follows the feed over SSE. The primary is killed with SIGKILL at a random
 * moment (after a random number of acknowledged writes) and the standby promoted;
 * the killed node is rebuilt as the new standby, and it goes on, back and forth.
 *
 * Checked at the end: every acknowledged write is there; every write answered 503
 * (outcome unknown) is there exactly once after its retry with the same key; no
 * user is duplicated; the feed holds exactly one event per write that took effect,
 * at dense positions, and the consumer received every position once, in order.
 * A stale writer (the old primary restarted from its own data at its old address)
 * is never written to, also by an instance started while it runs. Both instances
 * publish to NATS JetStream: the relay's leadership (an advisory lock on the
 * primary) is won again on each new primary, and the stream ends up holding every
 * event once, in position order (less those erasure purged: a deleted user's
 * earlier events).
 *
 * No assertion is about time: every wait is on a condition, bounded only by the
 * test's timeout. The time from each kill to the first write acknowledged after
 * it is reported as a diagnostic (docs/deployment.md quotes it).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startChildServer, type StartedChildServer } from '../helpers/child-server.js';
import { startWorkload, type Workload } from '../helpers/failover-workload.js';
import { followFeed, type FeedFollower } from '../helpers/feed-follower.js';
import { natsSkipReason, streamMessages, uniqueStream, type TestStream } from '../helpers/nats.js';
import { privateClusterSkipReason } from '../helpers/private-postgres.js';
import { createReplicatedPair, type Node, type ReplicatedPair } from '../helpers/replicated-postgres.js';

const skip = privateClusterSkipReason() ?? (await natsSkipReason());
const FAILOVERS = 6;
const PREFIX = 'fo';

/** Counts on one node that any write by the service changes. */
async function footprint(pair: ReplicatedPair, node: Node): Promise<string> {
  const [row] = await pair.query<Record<string, string>>(
    node,
    'SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM events) AS events, (SELECT count(position) FROM events) AS numbered, (SELECT count(*) FROM idempotency_keys) AS keys',
  );
  return JSON.stringify(row);
}

/** Milliseconds from `since` to the first write sent after it and acknowledged. */
function resumedAfter(workload: Workload, since: number): number | undefined {
  const first = workload.attempts.filter((a) => a.sentAt >= since && a.status >= 200 && a.status < 300).sort((x, y) => x.answeredAt - y.answeredAt)[0];
  return first && first.answeredAt - since;
}

describe('a primary and a synchronous standby, two instances on the multi-host URL', { skip, timeout: 600_000 }, () => {
  let pair: ReplicatedPair;
  const services: StartedChildServer[] = [];
  let workload: Workload | undefined;
  let feed: FeedFollower | undefined;
  const nats: TestStream = uniqueStream();
  const baseUrls = () => services.map((s) => `http://127.0.0.1:${s.port}`);
  const start = () => startChildServer({ env: { DATABASE_URL: pair.url, ...nats.env } }, 60_000);

  before(async () => {
    pair = await createReplicatedPair();
    services.push(await start(), await start());
  });
  after(async () => {
    await feed?.close().catch(() => {});
    await workload?.stop().catch(() => {});
    await Promise.all(services.map((s) => s.dispose()));
    pair?.destroy();
    await nats.cleanup();
  });

  it('follows six failovers under concurrent writes: nothing acknowledged is lost, nothing is written twice, the feed stays gapless', async (t) => {
    workload = startWorkload(baseUrls, PREFIX, 4);
    feed = followFeed(baseUrls);
    const windows: number[] = [];
    for (let round = 1; round <= FAILOVERS; round++) {
      // A random moment: after a random number of acknowledged writes.
      await workload.waitForAcknowledged(5 + Math.floor(Math.random() * 40), t.signal);
      const killedAt = Date.now();
      pair.killPrimary();
      // The consumer's connection breaks too: it comes back with Last-Event-ID.
      feed.drop();
      await pair.promote();
      while (resumedAfter(workload, killedAt) === undefined) await workload.waitForAcknowledged(1, t.signal);
      windows.push(resumedAfter(workload, killedAt) as number);
      if (round === 1) await staleWriterPhase(t.signal);
      await pair.rebuildStandby();
    }
    await workload.waitForAcknowledged(20, t.signal);
    await workload.stop();
    assert.deepEqual(workload.failures, []);
    const unknown = workload.attempts.filter((a) => a.outcomeUnknown).length;
    t.diagnostic(`write unavailability after each kill -9 (ms, kill to the first acknowledged write sent after it): ${windows.join(', ')}`);
    t.diagnostic(`${workload.acknowledged()} writes acknowledged; ${unknown} answers said the outcome was unknown (each resolved by its retry)`);

    // Every acknowledged write is there, as last acknowledged.
    const live = [...workload.users].filter(([, u]) => u.live);
    for (const [uid, user] of workload.users) {
      const res = await services[0]!.get(`/users/${uid}`);
      if (user.live) assert.equal(res.status === 200 && res.body.display_name, user.displayName, `user ${uid}: ${res.status} ${res.text}`);
      else assert.equal(res.status, 404, `deleted user ${uid}: ${res.text}`);
    }
    // No user twice: the database holds exactly the live users of the model.
    const primary = pair.primary();
    const [count] = await pair.query<{ n: string }>(primary, `SELECT count(*) AS n FROM users WHERE username LIKE '${PREFIX}c%'`);
    assert.equal(Number(count!.n), live.length);

    // The feed: one event per write that took effect, at dense positions, all numbered.
    const expectedEvents = [...workload.users.values()].reduce((sum, u) => sum + u.writes, 0);
    let feedRow: { total: string; numbered: string; low: string | null; high: string | null } | undefined;
    for (;;) {
      [feedRow] = await pair.query<typeof feedRow & object>(primary, 'SELECT count(*) AS total, count(position) AS numbered, min(position) AS low, max(position) AS high FROM events');
      if (feedRow!.total === feedRow!.numbered) break;
      t.signal.throwIfAborted();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(Number(feedRow!.total), expectedEvents, 'one event per write that took effect');
    assert.equal(Number(feedRow!.high) - Number(feedRow!.low) + 1, expectedEvents, 'positions are dense');

    // The SSE consumer reconnected with Last-Event-ID and received every position once, in order.
    await feed.waitFor(Number(feedRow!.high), t.signal);
    await feed.close();
    const received = feed.positions;
    assert.deepEqual(received, Array.from({ length: received.length }, (_, i) => Number(feedRow!.low) + i));
    assert.equal(received.at(-1), Number(feedRow!.high));
    assert.ok(feed.connections() > FAILOVERS, 'the consumer reconnected after every failover');
    t.diagnostic(`the consumer received ${received.length} events over ${feed.connections()} streams`);

    // NATS: the relay's leadership followed every failover; the stream holds each event once, in order,
    // less the earlier events of users deleted since (erasure purges them before publishing the deletion).
    const rows = await pair.query<{ position: string; subject: string; type: string }>(primary, 'SELECT position, subject::text AS subject, type FROM events ORDER BY position');
    const deletedUsers = new Set(rows.filter((row) => row.type === 'user.deleted').map((row) => row.subject));
    const published = rows.filter((row) => row.type === 'user.deleted' || !deletedUsers.has(row.subject)).map((row) => Number(row.position));
    let messages = await streamMessages(nats.stream);
    while (Number(messages.at(-1)?.id) !== Number(feedRow!.high)) {
      t.signal.throwIfAborted();
      await new Promise((resolve) => setTimeout(resolve, 200));
      messages = await streamMessages(nats.stream);
    }
    assert.deepEqual(messages.map((message) => Number(message.id)), published, 'the NATS stream holds every event once, in position order');

    // Both instances followed every failover, and say so in their metrics.
    for (const service of services) {
      const metrics = (await service.get('/metrics')).text;
      assert.match(metrics, /^user_store_primary_changes_total [1-9]/m);
    }
  });

  /**
   * The killed primary is started again from its own data at its old address, writable
   * (what a restart without fencing does): instances that followed the promotion never
   * write to it, nor does one started while it runs (it takes the higher timeline).
   */
  async function staleWriterPhase(signal: AbortSignal): Promise<void> {
    const stale = pair.nodes.find((node) => node !== pair.primary()) as Node;
    pair.startStale();
    const before = await footprint(pair, stale);
    const restarted = services.pop() as StartedChildServer;
    await restarted.dispose();
    services.push(await start());
    await workload!.waitForAcknowledged(40, signal);
    assert.equal(await footprint(pair, stale), before, 'the stale writer was written to');
    const logs = services.at(-1)!.logs();
    assert.ok(logs.some((line) => /stale primary/.test(String(line.msg))), 'the instance started beside the stale writer refused it');
  }
});
