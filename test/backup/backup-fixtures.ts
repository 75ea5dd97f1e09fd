/** What the backup tests share: a seeded SQLite store, the feed read whole, and the state it describes at a position. */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { send } from '../helpers/http-client.js';
import { runCli } from '../cli/run-cli.js';
import type { SnapshotManifest } from '../../src/store/store-backup.js';

/** Imports `count` users into a new store file at `path` (large enough for a copy of several steps). */
export async function seedStore(dir: string, path: string, count: number): Promise<void> {
  const file = join(dir, 'seed.jsonl');
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({ username: `seed${i}`, email_address: `seed${i}@example.com`, legacy_ids: [`L-${i}`], display_name: `Seed ${i}`, attributes: { note: 'x'.repeat(600) } }),
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
  const result = await runCli(['import', file, '--database-url', `sqlite:${path}`]);
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

/** The users of a store file, as `user-service export` writes them, by uid. */
export async function exportedUsers(path: string): Promise<Map<string, Record<string, unknown>>> {
  const result = await runCli(['export', '--database-url', `sqlite:${path}`]);
  assert.equal(result.code, 0, result.stderr);
  const users = result.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  return new Map(users.map((user) => [user.uid as string, user]));
}
