/** What the backup tests share: a seeded SQLite store, the feed read whole, and the state it describes at a position. */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { send } from '../helpers/http-client.js';
import { runCli } from '../cli/run-cli.js';
import type { SnapshotManifest } from '../../src/store/store-backup.js';

/** Imports `count` users into a new store (a SQLite file's path, or a DATABASE_URL): large enough for a copy of several steps. */
export async function seedStore(dir: string, store: string, count: number): Promise<void> {
  const file = join(dir, 'seed.jsonl');
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({ username: `seed${i}`, email_address: `seed${i}@example.com`, legacy_ids: [`L-${i}`], display_name: `Seed ${i}`, attributes: { note: 'x'.repeat(600) } }),
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
  const result = await runCli(['import', file, '--database-url', store.includes('://') ? store : `sqlite:${store}`]);
  assert.equal(result.code, 0, result.stderr);
}

export const readManifestOf = (snapshot: string) => JSON.parse(readFileSync(`${snapshot}.manifest.json`, 'utf8')) as SnapshotManifest;

export interface FeedEvent {
  id: string;
  type: string;
  subject: string;
  data: Record<string, unknown>;
}

/** Every event of a service's feed, in order, by JSON pages. */
export async function readWholeFeed(baseUrl: string): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  for (let after = 0; ; ) {
    const page = await send(baseUrl, 'GET', `/events?after=${after}&limit=1000`);
    assert.equal(page.status, 200, page.text);
    const batch = page.body as FeedEvent[];
    events.push(...batch);
    if (batch.length < 1000) return events;
    after = Number(batch[batch.length - 1]!.id);
  }
}

/** The users the feed describes once every event at or below `position` is applied. */
export function usersAt(events: readonly FeedEvent[], position: number): Map<string, Record<string, unknown>> {
  const users = new Map<string, Record<string, unknown>>();
  for (const event of events) {
    if (Number(event.id) > position) break;
    if (event.type === 'user.deleted') users.delete(event.subject);
    else users.set(event.subject, event.data);
  }
  return users;
}

/** The users of a store (a SQLite file's path, or a DATABASE_URL), as `user-service export` writes them, by uid. */
export async function exportedUsers(store: string): Promise<Map<string, Record<string, unknown>>> {
  const result = await runCli(['export', '--database-url', store.includes('://') ? store : `sqlite:${store}`]);
  assert.equal(result.code, 0, result.stderr);
  const users = result.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  return new Map(users.map((user) => [user.uid as string, user]));
}

export interface Writers {
  /** Each user's version as last acknowledged (deleted users removed). */
  acked: Map<string, number>;
  /** Starts a new period: createdSince(period) are the users whose create began after this call. */
  mark(): number;
  createdSince(period: number): string[];
  /** Resolves once `count` more writes than now are acknowledged. */
  more(count: number): Promise<void>;
  /** Stops the writers and waits for their last writes. */
  stop(): Promise<void>;
}

/** Three clients writing in a loop: creates, a replace of every third user, a delete of every fifth. */
export function startWriters(baseUrl: string): Writers {
  const acked = new Map<string, number>();
  let writes = 0;
  let stopped = false;
  let period = 0;
  const begunIn = new Map<string, number>();
  const writer = async (w: number) => {
    for (let i = 0; !stopped; i++) {
      const fields = { username: `w${w}-${i}`, email_address: `w${w}-${i}@example.com` };
      const begun = period;
      const created = await send(baseUrl, 'POST', '/users', { json: fields });
      assert.equal(created.status, 201, created.text);
      const uid = created.body.uid as string;
      begunIn.set(uid, begun);
      acked.set(uid, 1);
      writes++;
      if (i % 3 === 1) {
        const replaced = await send(baseUrl, 'PUT', `/users/${uid}`, { json: { ...fields, display_name: `v2 ${i}` } });
        assert.equal(replaced.status, 200, replaced.text);
        acked.set(uid, 2);
        writes++;
      }
      if (i % 5 === 4) {
        assert.equal((await send(baseUrl, 'DELETE', `/users/${uid}`)).status, 204);
        acked.delete(uid);
        writes++;
      }
    }
  };
  const running = [0, 1, 2].map(writer);
  return {
    acked,
    mark: () => ++period,
    createdSince: (since) => [...begunIn].filter(([, begun]) => begun >= since).map(([uid]) => uid),
    async more(count) {
      const target = writes + count;
      while (writes < target) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}
