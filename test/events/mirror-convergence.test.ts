/**
 * The mirror recipe of docs/events.md, run as examples/mirror-consumer.mjs
 * runs it, against several service processes on one store (three on one
 * PostgreSQL database; two on one SQLite file) while writers go on through
 * every instance (creates, replaces, patches, deletes, usernames moved from one
 * user to another) and an import runs beside them. Two consumers follow the
 * Server-Sent Events stream and are disconnected at random points; a third
 * polls the JSON pages with random page sizes. At the end every copy equals an
 * export of the store, and every consumer applied each position after its
 * listing once, in order, none missing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { it } from 'node:test';
import { v7 as uuidv7 } from 'uuid';
import { createUserClient, type UserClient, type UserEvent } from '@user-service/client';
import { runCli } from '../cli/run-cli.js';
import { REPO_ROOT, startChildServer, type StartedChildServer } from '../helpers/child-server.js';
import { createTestDatabaseUrl, describeEachStore, openTestStoreAt } from '../helpers/stores.js';

type Replica = Map<string, Record<string, unknown> & { version: number }>;
interface MirrorExample {
  applyEvent(replica: Replica, event: UserEvent): boolean;
  resync(users: UserClient, replica: Replica): Promise<number>;
  follow(users: UserClient, replica: Replica, position: number, options?: { signal?: AbortSignal; onEvent?: (event: UserEvent) => void }): Promise<number>;
}
const example = (await import(pathToFileURL(join(REPO_ROOT, 'examples', 'mirror-consumer.mjs')).href)) as MirrorExample;

/** A small seeded generator: the same run every time, so a failure can be replayed. */
function random(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
}

interface Consumer {
  replica: Replica;
  /** Every position applied, in the order applied. */
  positions: number[];
  /** The position the consumer's listing reflected: it applies every later one. */
  start: number;
  position: () => number;
  stop(): Promise<void>;
}

/** The example's recipe over Server-Sent Events, disconnected (aborted and resumed) after a random number of events. */
async function streamingConsumer(users: UserClient, seed: number): Promise<Consumer> {
  const replica: Replica = new Map();
  const positions: number[] = [];
  const start = await example.resync(users, replica);
  const next = random(seed);
  let position = start;
  let stopped = false;
  let current: AbortController | undefined;
  const running = (async () => {
    while (!stopped) {
      const controller = (current = new AbortController());
      let budget = 1 + next(40);
      position = await example.follow(users, replica, position, {
        signal: controller.signal,
        onEvent: (event) => {
          positions.push(Number(event.id));
          if (--budget === 0) controller.abort();
        },
      });
    }
  })();
  return {
    replica,
    positions,
    start,
    position: () => positions[positions.length - 1] ?? start,
    async stop() {
      stopped = true;
      current?.abort();
      await running;
    },
  };
}

/** Polls the JSON pages with random page sizes, applying each event by version. */
async function pollingConsumer(users: UserClient, seed: number): Promise<Consumer> {
  const replica: Replica = new Map();
  const positions: number[] = [];
  const start = await example.resync(users, replica);
  const next = random(seed);
  let after = start;
  let stopped = false;
  const running = (async () => {
    while (!stopped) {
      const page = await users.events.list({ after, limit: 1 + next(50) });
      for (const event of page.events) {
        example.applyEvent(replica, event);
        positions.push(Number(event.id));
      }
      after = page.after;
      if (page.events.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return { replica, positions, start, position: () => after, stop: async () => ((stopped = true), await running) };
}

/** One writer through one instance: a seeded mix of every kind of write; conflicts and vanished users are expected answers. */
async function writer(server: StartedChildServer, tag: string, ops: number, seed: number): Promise<void> {
  const next = random(seed);
  const mine: { uid: string; username: string }[] = [];
  const expect = (status: number, allowed: number[], what: string) => assert.ok(allowed.includes(status), `${what}: ${status}`);
  for (let i = 0; i < ops; i++) {
    const op = mine.length < 3 ? 0 : next(10);
    if (op <= 2) {
      const username = `${tag}u${i}`;
      const res = await server.post('/users', { username, email_address: `${username}@example.com`, legacy_ids: [`${tag}:${i}`] });
      expect(res.status, [201], 'create');
      mine.push({ uid: res.body.uid, username });
    } else if (op <= 4) {
      const user = mine[next(mine.length)]!;
      const res = await server.put(`/users/${user.uid}`, { username: user.username, email_address: `${user.username}.${i}@example.com`, display_name: `Name ${i}` });
      expect(res.status, [200, 404], 'replace');
    } else if (op <= 6) {
      const user = mine[next(mine.length)]!;
      const res = await server.request('PATCH', `/users/${user.uid}`, { body: JSON.stringify({ attributes: { step: i, [`k${next(3)}`]: next(2) ? null : i } }), headers: { 'content-type': 'application/merge-patch+json' } });
      expect(res.status, [200, 404], 'patch');
    } else if (op === 7) {
      const [user] = mine.splice(next(mine.length), 1);
      expect((await server.delete(`/users/${user!.uid}`)).status, [204, 404], 'delete');
    } else {
      // Move a username from one user to another: free it, then take it (two events, in that order).
      const a = mine[next(mine.length)]!;
      const b = mine[next(mine.length)]!;
      if (a === b) continue;
      const freed = `${tag}f${i}`;
      const patch = (uid: string, username: string) => server.request('PATCH', `/users/${uid}`, { body: JSON.stringify({ username }), headers: { 'content-type': 'application/merge-patch+json' } });
      const first = await patch(a.uid, freed);
      expect(first.status, [200, 404], 'free a username');
      if (first.status !== 200) continue;
      const taken = a.username;
      a.username = freed;
      const second = await patch(b.uid, taken);
      expect(second.status, [200, 404, 409], 'take the freed username');
      if (second.status === 200) b.username = taken;
    }
  }
}

describeEachStore('mirroring through the change feed', (kind) => {
  it('every copy converges to the export, each consumer applying every position once, in order', async () => {
    const { databaseUrl, remove } = await createTestDatabaseUrl(kind);
    const dir = mkdtempSync(join(tmpdir(), 'mirror-'));
    const env = { DATABASE_URL: databaseUrl };
    const instances: StartedChildServer[] = [];
    const consumers: Consumer[] = [];
    try {
      instances.push(await startChildServer({ env }));
      instances.push(...(await Promise.all(Array.from({ length: kind === 'postgres' ? 2 : 1 }, () => startChildServer({ env })))));
      const clientOf = (i: number) => createUserClient({ baseUrl: instances[i % instances.length]!.baseUrl });
      // Some users before the consumers list, so their listings are not empty.
      await writer(instances[0]!, 'pre', 30, 1);

      consumers.push(await streamingConsumer(clientOf(0), 11), await streamingConsumer(clientOf(1), 12), await pollingConsumer(clientOf(2), 13));

      const now = new Date().toISOString();
      const file = join(dir, 'import.jsonl');
      writeFileSync(
        file,
        Array.from({ length: 200 }, (_, i) => JSON.stringify({ uid: uuidv7(), username: `imp${i}`, email_address: `imp${i}@example.com`, legacy_ids: [], display_name: null, attributes: {}, created_at: now, updated_at: now, version: 1 })).join('\n') + '\n',
      );
      const [imported] = await Promise.all([
        runCli(['import', file, '--batch-size', '50'], env),
        ...instances.map((instance, i) => writer(instance, `w${i}`, 500, 100 + i)),
      ]);
      assert.equal(imported.code, 0, imported.stderr);

      // Every committed event numbered, then the export: the truth the copies must reach.
      const store = await openTestStoreAt(kind, databaseUrl);
      const latest = await store.events.settle().finally(() => store.close());
      const exported = await runCli(['export'], env);
      assert.equal(exported.code, 0, exported.stderr);
      assert.match(exported.stderr, new RegExp(`at change-feed position ${latest}\\b`));
      const truth = new Map(exported.stdout.trim().split('\n').map((line) => JSON.parse(line) as { uid: string }).map((user) => [user.uid, user]));
      assert.ok(truth.size > 250, `${truth.size} users`);

      // Wait until each consumer has applied the last position (no time limit but the test's).
      while (consumers.some((consumer) => consumer.position() < latest)) await new Promise((resolve) => setTimeout(resolve, 50));
      for (const [i, consumer] of consumers.entries()) {
        const expected = Array.from({ length: latest - consumer.start }, (_, k) => consumer.start + k + 1);
        assert.deepEqual(consumer.positions, expected, `consumer ${i}: each position after its listing once, in order`);
        assert.deepEqual(new Map([...consumer.replica].sort(([a], [b]) => a.localeCompare(b))), new Map([...truth].sort(([a], [b]) => a.localeCompare(b))), `consumer ${i}'s copy equals the export`);
      }
    } finally {
      await Promise.all(consumers.map((consumer) => consumer.stop()));
      await Promise.all(instances.map((instance) => instance.dispose()));
      rmSync(dir, { recursive: true, force: true });
      await remove();
    }
  });
});
