/**
 * On PostgreSQL the database's own tools back up (docs/deployment.md, "Backups on
 * PostgreSQL"): `pg_dump -Fc` of a database that a service keeps writing, `pg_restore`
 * into a new database, `user-service mark-restored`, and a service on it. The restored
 * database holds every write acknowledged before the dump started and none begun after
 * it ended; each user is a state the live feed recorded; users unchanged since are served
 * byte for byte (ETag included); the feed continues from the restored position and
 * answers 410 past it. `user-service backup` on PostgreSQL names these tools and fails.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startChildServer, type StartedChildServer } from '../helpers/child-server.js';
import { send } from '../helpers/http-client.js';
import { until } from '../helpers/until.js';
import { createTestDatabase, postgresSkipReason, type TestDatabase } from '../helpers/postgres.js';
import { runCli } from '../cli/run-cli.js';
import { exportedUsers, readWholeFeed, seedStore, startWriters, usersAt, type FeedEvent } from '../backup/backup-fixtures.js';
import { RESTORE_POSITION_GAP } from '../../src/store/restore-gap.js';

const skip = await postgresSkipReason();

/** pg_dump and pg_restore of the server's version: on PATH, or where Debian installs version 15. */
function pgTool(name: string): string {
  const versioned = `/usr/lib/postgresql/15/bin/${name}`;
  return existsSync(versioned) ? versioned : name;
}

function run(tool: string, args: string[]): void {
  const result = spawnSync(pgTool(tool), args, { encoding: 'utf8' });
  assert.equal(result.status, 0, `${tool} ${args.join(' ')}: ${result.stderr}`);
}

describe('pg_dump -Fc and pg_restore of a database under writes', skip ? { skip } : {}, () => {
  let dir: string;
  let liveDb: TestDatabase;
  let restoredDb: TestDatabase;
  let live: StartedChildServer;
  let restored: StartedChildServer | undefined;
  let ackedBefore: Map<string, number>;
  /** Users created by writes that began after the dump ended. */
  let begunAfter: Set<string>;
  let feed: FeedEvent[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pg-dump-'));
    liveDb = await createTestDatabase();
    restoredDb = await createTestDatabase();
    await seedStore(dir, liveDb.url, 2000);
    live = await startChildServer({ env: { DATABASE_URL: liveDb.url } });
    const writers = startWriters(live.baseUrl);
    await writers.more(30);
    ackedBefore = new Map(writers.acked);
    const dump = join(dir, 'users.dump');
    run('pg_dump', ['-Fc', '-f', dump, liveDb.url]);
    const afterDump = writers.mark();
    await writers.more(30);
    await writers.stop();
    begunAfter = new Set(writers.createdSince(afterDump));
    assert.ok(begunAfter.size > 0);
    feed = await readWholeFeed(live.baseUrl);
    run('pg_restore', ['--no-owner', '-d', restoredDb.url, dump]);
  });

  after(async () => {
    await live?.dispose();
    await restored?.dispose();
    await liveDb?.drop();
    await restoredDb?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('user-service backup names the tools to use and fails', async () => {
    const result = await runCli(['backup', '--to', join(dir, 'x.db'), '--database-url', liveDb.url]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /pg_dump -Fc .*pgBackRest/);
  });

  it('restores every write acknowledged before the dump and none begun after, each a state the live feed recorded', async () => {
    const users = await exportedUsers(restoredDb.url);
    for (const [uid, version] of ackedBefore) {
      const user = users.get(uid);
      assert.ok(user === undefined ? feed.some((e) => e.subject === uid && e.type === 'user.deleted') : (user.version as number) >= version, `${uid} acknowledged before the dump is in it`);
    }
    for (const uid of begunAfter) assert.equal(users.has(uid), false, `${uid} was created after the dump`);
    const recorded = new Set(feed.filter((e) => e.type !== 'user.deleted').map((e) => JSON.stringify([e.subject, e.data.version])));
    const states = usersAt(feed, Infinity);
    for (const [uid, user] of users) {
      assert.ok(recorded.has(JSON.stringify([uid, user.version])), `${uid} version ${user.version} is a state the live feed recorded`);
      if (states.get(uid)?.version === user.version) assert.deepEqual(user, states.get(uid));
    }
  });

  it('serves unchanged users byte for byte after mark-restored, and continues the feed from the restored position', async () => {
    const marked = await runCli(['mark-restored', '--database-url', restoredDb.url]);
    assert.equal(marked.code, 0, marked.stderr);
    const position = Number(/continues after position (\d+)/.exec(marked.stdout)?.[1]);
    assert.ok(position > 0 && Number(feed[feed.length - 1]!.id) > position, marked.stdout);
    const server: StartedChildServer = await startChildServer({ env: { DATABASE_URL: restoredDb.url } });
    restored = server;
    const current = usersAt(feed, Infinity);
    let compared = 0;
    for (const [uid, user] of await exportedUsers(restoredDb.url)) {
      if (current.get(uid)?.version !== user.version) continue; // changed or deleted on the live database since
      const [a, b] = await Promise.all([send(live.baseUrl, 'GET', `/users/${uid}`), send(server.baseUrl, 'GET', `/users/${uid}`)]);
      assert.equal(b.text, a.text, uid);
      assert.equal(b.headers.etag, a.headers.etag, uid);
      compared++;
    }
    assert.ok(compared >= 2000, `${compared} users compared`);

    const further = await send(server.baseUrl, 'GET', `/events?after=${position + 1}`);
    assert.equal(further.status, 410);
    assert.match(further.body.detail, /restored from a snapshot/);
    const created = await send(server.baseUrl, 'POST', '/users', { json: { username: 'after-restore', email_address: 'after-restore@example.com' } });
    assert.equal(created.status, 201);
    // Events the dump held committed but not yet numbered, then the new one: all after the gap.
    // Numbered by the sequencer a moment after the write's commit (events.md).
    const next = await until(
      async () => (await send(server.baseUrl, 'GET', `/events?after=${position}&limit=1000`)).body as FeedEvent[],
      (events) => events.some((e) => e.subject === created.body.uid),
    );
    assert.ok(next.length >= 1 && next.every((e) => Number(e.id) > position + RESTORE_POSITION_GAP), JSON.stringify(next.map((e) => e.id)));
    assert.equal(next[next.length - 1]!.subject, created.body.uid, JSON.stringify(next.map((e) => [e.id, e.type, e.subject])));
    assert.equal((await send(server.baseUrl, 'GET', `/events?after=${feed[feed.length - 1]!.id}`)).status, 410);
  });
});
