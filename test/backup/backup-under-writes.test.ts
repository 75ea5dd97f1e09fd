/**
 * `user-service backup` of a SQLite store that a running service keeps writing, then
 * `restore` and a service on the restored file (and `verify` of the live store meanwhile): the snapshot holds every write
 * acknowledged before the backup started and nothing after its feed position; its
 * export equals the live feed's state at that position; every user it holds is served
 * byte for byte as the live service served it (ETag included); the feed continues from
 * the snapshot's position, and a consumer that read past it is answered 410.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startChildServer, type StartedChildServer } from '../helpers/child-server.js';
import { send } from '../helpers/http-client.js';
import { runCli } from '../cli/run-cli.js';
import { exportedUsers, readManifestOf, readWholeFeed, seedStore, startWriters, usersAt, type FeedEvent } from './backup-fixtures.js';
import { RESTORE_POSITION_GAP } from '../../src/store/restore-gap.js';

describe('a backup taken while a service writes', () => {
  let dir: string;
  let live: StartedChildServer;
  let restored: StartedChildServer | undefined;
  const snapshot = () => join(dir, 'snap.db');
  const restoredPath = () => join(dir, 'restored.db');
  /** Each user's version as acknowledged when the backup started. */
  let ackedBefore: Map<string, number>;
  let feed: FeedEvent[];
  let position: number;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'backup-writes-'));
    const livePath = join(dir, 'live.db');
    await seedStore(dir, livePath, 3000);
    live = await startChildServer({ env: { DATABASE_URL: `sqlite:${livePath}` } });

    const writers = startWriters(live.baseUrl);
    await writers.more(30);
    ackedBefore = new Map(writers.acked);
    // Each step of the copy pauses, so the writers go on during it.
    const backup = await runCli(['backup', '--to', snapshot(), '--database-url', `sqlite:${livePath}`], { TEST_BACKUP_STEP_DELAY_MS: '100' });
    assert.equal(backup.code, 0, backup.stderr);
    // A live store is verified while the writers go on: one read transaction, one moment.
    const verified = await runCli(['verify', '--database-url', `sqlite:${livePath}`]);
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stdout, /: ok: \d+ users/);
    // Writes after the backup too: the live feed goes past the snapshot's position.
    await writers.more(30);
    await writers.stop();
    position = readManifestOf(snapshot()).feed_position;
    feed = await readWholeFeed(live.baseUrl);
    assert.ok(Number(feed[feed.length - 1]!.id) > position, 'the live feed went on past the snapshot');
  });

  after(async () => {
    await live?.dispose();
    await restored?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('verifies, and restores what the live feed held at its position: every write acknowledged before it, none after', async () => {
    const verified = await runCli(['verify', snapshot()]);
    assert.equal(verified.code, 0, verified.stderr);
    const restore = await runCli(['restore', snapshot(), '--to', restoredPath()]);
    assert.equal(restore.code, 0, restore.stderr);
    assert.match(restore.stdout, new RegExp(`restored \\d+ users to .* at change-feed position ${position} `));
    const users = await exportedUsers(restoredPath());
    const expected = usersAt(feed, position);
    assert.deepEqual([...users.keys()].sort(), [...expected.keys()].sort(), 'the same users as the live store at the snapshot position');
    for (const [uid, user] of expected) {
      // A user deleted on the live store since has only erased events there (erasure.ts): its version is what is left to compare.
      if (user.erased === true) assert.equal(users.get(uid)?.version, user.version, uid);
      else assert.deepEqual(users.get(uid), user, 'the export equals the live store as of the snapshot position');
    }
    for (const [uid, version] of ackedBefore) {
      assert.ok(((users.get(uid)?.version as number | undefined) ?? 0) >= version || feed.some((e) => e.subject === uid && e.type === 'user.deleted' && Number(e.id) <= position), `${uid} acknowledged before the backup is in it`);
    }
  });

  it('serves every unchanged user byte for byte, ETag included, and continues the feed from the snapshot position', async () => {
    const server: StartedChildServer = await startChildServer({ env: { DATABASE_URL: `sqlite:${restoredPath()}` } });
    restored = server;
    const lastPosition = new Map(feed.map((event) => [event.subject, Number(event.id)]));
    const users = usersAt(feed, position);
    let compared = 0;
    for (const uid of users.keys()) {
      if ((lastPosition.get(uid) ?? 0) > position) continue; // changed or deleted on the live store since
      const [a, b] = await Promise.all([send(live.baseUrl, 'GET', `/users/${uid}`), send(server.baseUrl, 'GET', `/users/${uid}`)]);
      assert.equal(b.status, 200);
      assert.equal(b.text, a.text, uid);
      assert.equal(b.headers.etag, a.headers.etag, uid);
      compared++;
    }
    assert.ok(compared >= 3000, `${compared} users compared`);

    // A consumer at the snapshot's position continues; one that read further on the lost store resyncs.
    const atSnapshot = await send(server.baseUrl, 'GET', `/events?after=${position}`);
    assert.equal(atSnapshot.status, 200);
    assert.deepEqual(atSnapshot.body, []);
    const further = await send(server.baseUrl, 'GET', `/events?after=${position + 1}`);
    assert.equal(further.status, 410);
    assert.match(further.body.detail, /restored from a snapshot/);
    const created = await send(server.baseUrl, 'POST', '/users', { json: { username: 'after-restore', email_address: 'after-restore@example.com' } });
    assert.equal(created.status, 201);
    const next = await send(server.baseUrl, 'GET', `/events?after=${position}`);
    assert.deepEqual(next.body.map((e: FeedEvent) => [Number(e.id), e.subject]), [[position + RESTORE_POSITION_GAP + 1, created.body.uid]]);
    // Never a position the lost store gave: the one it gave after the snapshot is still refused.
    const lastLive = Number(feed[feed.length - 1]!.id);
    assert.equal((await send(server.baseUrl, 'GET', `/events?after=${lastLive}`)).status, 410);
    const stream = await send(server.baseUrl, 'GET', '/events', { headers: { accept: 'text/event-stream', 'last-event-id': String(position + 1) } });
    assert.equal(stream.status, 410, 'a stream resuming past the snapshot is refused too');
  });
});
