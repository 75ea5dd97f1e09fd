/**
 * restore of a snapshot made by the previous schema version (migrated forward), restore
 * with --erase-from (users erased since the snapshot stay erased), refusing a target that
 * holds users unless --force, and verify finding tables that disagree.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { v7 as uuidv7 } from 'uuid';
import Database from '../../src/store/sqlite/sqlite-driver.js';
import { openSqliteDatabase } from '../../src/store/sqlite/sqlite-connection.js';
import { applySqliteMigrations, SQLITE_MIGRATIONS } from '../../src/store/sqlite/sqlite-migrations.js';
import { openSqliteUserStore } from '../../src/store/sqlite/sqlite-user-store.js';
import { canon } from '../../src/users/canonical.js';
import { RESTORE_POSITION_GAP } from '../../src/store/restore-gap.js';
import { eraseReminder } from '../../src/cli/backup-commands.js';
import { runCli } from '../cli/run-cli.js';
import { startChildServer } from '../helpers/child-server.js';
import { exportedUsers, readManifestOf, seedStore } from './backup-fixtures.js';

describe('restore', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'backup-restore-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('restores a snapshot made by an earlier schema version and migrates it', async () => {
    // Version 10: the rows below are what a release before search wrote, so the migrations
    // run here (search's 11 and every later one) must make them searchable.
    const previous = 10;
    const old = join(dir, 'old.db');
    const db = openSqliteDatabase(old);
    db.transaction(() => applySqliteMigrations(db, 0, previous))();
    const uid = uuidv7();
    db.prepare(
      `INSERT INTO users (uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version)
       VALUES (?, 'Older', 'Older@Example.com', '["o:1"]', 'Older One', '{}', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 1)`,
    ).run(uid);
    for (const [key, value] of [['username', canon('Older')], ['email_address', canon('Older@Example.com')], ['legacy_id', 'o:1']]) {
      db.prepare('INSERT INTO user_keys (key, value, uid) VALUES (?, ?, ?)').run(key, value, uid);
    }
    db.prepare('INSERT INTO user_emails (value, uid) VALUES (?, ?)').run(canon('Older@Example.com'), uid);
    db.prepare("INSERT INTO events (type, subject, time, data) VALUES ('user.created', ?, '2025-01-01T00:00:00.000Z', '{}')").run(uid);
    db.close();

    const snapshot = join(dir, 'old-snapshot.db');
    const made = await runCli(['backup', '--to', snapshot, '--database-url', `sqlite:${old}`]);
    assert.equal(made.code, 0, made.stderr);
    assert.equal(readManifestOf(snapshot).schema_version, previous, 'the snapshot keeps the schema it was made at');
    const target = join(dir, 'from-old.db');
    const restore = await runCli(['restore', snapshot, '--to', target]);
    assert.equal(restore.code, 0, restore.stderr);
    assert.match(restore.stdout, new RegExp(`restored 1 user .*schema ${previous} migrated to ${SQLITE_MIGRATIONS.length}`));
    assert.equal(restore.stderr, `${eraseReminder(readManifestOf(snapshot).feed_position)}\n`, 'without --erase-from it says that users erased since are back');
    const verify = await runCli(['verify', target]);
    assert.equal(verify.code, 0, verify.stderr);
    const store = openSqliteUserStore({ path: target, mustExist: true });
    try {
      assert.equal((await store.findByKey('username', canon('OLDER')))?.uid, uid, 'its keys reach it after the migration');
      assert.equal((await store.search({ filter: { words: ['older'] }, limit: 10 })).value.length, 1, 'and search finds it');
    } finally {
      await store.close();
    }
  });

  it('re-applies the deletions named by --erase-from, and refuses a target holding users unless --force', async () => {
    const live = join(dir, 'live.db');
    await seedStore(dir, live, 20);
    const snapshot = join(dir, 'snap.db');
    assert.equal((await runCli(['backup', '--to', snapshot, '--database-url', `sqlite:${live}`])).code, 0);
    const users = [...(await exportedUsers(live)).keys()];
    const erase = join(dir, 'erased.txt');
    writeFileSync(erase, `# erased after the snapshot\n${users[0]}\n\n${users[1]!.toUpperCase()}\n`);
    const target = join(dir, 'erased.db');
    const restore = await runCli(['restore', snapshot, '--to', target, '--erase-from', erase]);
    assert.equal(restore.code, 0, restore.stderr);
    assert.match(restore.stdout, /restored 18 users .*2 users erased of 2 named/);
    assert.doesNotMatch(restore.stderr, /no --erase-from/);
    const restored = await exportedUsers(target);
    assert.equal(restored.has(users[0]!), false);
    assert.equal(restored.has(users[1]!), false);
    // Their earlier events carry nothing personal any more (erasure.ts).
    const db = new Database(target, { readonly: true });
    const data = db.prepare('SELECT data FROM events WHERE subject = ? ORDER BY position').pluck().all(users[0]) as string[];
    db.close();
    assert.ok(data.length >= 2 && data.every((text) => !text.includes('seed')), data.join('\n'));

    const refused = await runCli(['restore', snapshot, '--to', target]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /holds 18 users; nothing was changed.*--force/);
    assert.equal((await exportedUsers(target)).size, 18, 'unchanged');
    // Not even --force replaces a file a running service has open.
    const server = await startChildServer({ env: { DATABASE_URL: `sqlite:${target}` } });
    try {
      const busy = await runCli(['restore', snapshot, '--to', target, '--force']);
      assert.equal(busy.code, 1);
      assert.match(busy.stderr, /is open in another process \(a running service\?\); nothing was changed/);
    } finally {
      await server.dispose();
    }
    const forced = await runCli(['restore', snapshot, '--to', target, '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal((await exportedUsers(target)).size, 20);

    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, 'not-a-uid\n');
    const usage = await runCli(['restore', snapshot, '--to', join(dir, 'x.db'), '--erase-from', bad]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /not a uid/);
  });

  it('--erase-missing-from erases the users a newer export lacks; an export older than the snapshot is refused, changing nothing', async () => {
    const live = join(dir, 'live-export.db');
    await seedStore(dir, live, 12);
    const older = join(dir, 'older.jsonl');
    const before = await runCli(['export', '--database-url', `sqlite:${live}`]);
    assert.equal(before.code, 0, before.stderr);
    writeFileSync(older, before.stdout);
    // A user created after that export, then the snapshot.
    const late = join(dir, 'late.jsonl');
    writeFileSync(late, `${JSON.stringify({ username: 'late', email_address: 'late@example.com' })}\n`);
    assert.equal((await runCli(['import', late, '--database-url', `sqlite:${live}`])).code, 0);
    const snapshot = join(dir, 'snap-export.db');
    assert.equal((await runCli(['backup', '--to', snapshot, '--database-url', `sqlite:${live}`])).code, 0);
    // After the snapshot: two users deleted, one changed; then the newer export.
    const users = [...(await exportedUsers(live)).keys()];
    const store = openSqliteUserStore({ path: live, mustExist: true });
    try {
      for (const uid of users.slice(0, 2)) assert.equal((await store.delete(uid)).status, 'ok');
      assert.equal((await store.replace(users[2]!, (user) => ({ ...user, display_name: 'Changed' }), new Date().toISOString())).status, 'ok');
    } finally {
      await store.close();
    }
    const newer = join(dir, 'newer.jsonl');
    const after = await runCli(['export', '--database-url', `sqlite:${live}`]);
    writeFileSync(newer, after.stdout);

    const target = join(dir, 'from-export.db');
    const restore = await runCli(['restore', snapshot, '--to', target, '--erase-missing-from', newer]);
    assert.equal(restore.code, 0, restore.stderr);
    assert.match(restore.stdout, new RegExp(`restored 11 users .*2 users missing from ${newer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} erased`));
    assert.doesNotMatch(restore.stderr, /no --erase-from/);
    const restored = await exportedUsers(target);
    assert.deepEqual([...restored.keys()].sort(), users.slice(2).sort(), 'every user but the two deleted since, the changed one as the snapshot held it');
    assert.equal((await runCli(['verify', target])).code, 0);

    // The export made before the snapshot lacks the user created in between: refused, no file written.
    const refusedTarget = join(dir, 'from-older.db');
    const refused = await runCli(['restore', snapshot, '--to', refusedTarget, '--erase-missing-from', older]);
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(refused.stderr, /may be older than the snapshot: .*nothing was changed/);
    assert.equal(existsSync(refusedTarget), false);

    const notExport = join(dir, 'uids.txt');
    writeFileSync(notExport, `${users[0]}\n`);
    const usage = await runCli(['restore', snapshot, '--to', join(dir, 'y.db'), '--erase-missing-from', notExport]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /line 1 of .* is not JSON: give the JSON Lines of user-service export/);
    const folder = await runCli(['restore', snapshot, '--to', join(dir, 'y.db'), '--erase-missing-from', dir]);
    assert.equal(folder.code, 2);
    assert.match(folder.stderr, /--erase-missing-from: cannot read .* \(EISDIR\)/);
    // The same newer export as an editor may save it: a byte-order mark first, CRLF line ends.
    const edited = join(dir, 'newer-edited.jsonl');
    writeFileSync(edited, `\uFEFF${after.stdout.replace(/\n/g, '\r\n')}`);
    const fromEdited = await runCli(['restore', snapshot, '--to', join(dir, 'from-edited.db'), '--erase-missing-from', edited]);
    assert.equal(fromEdited.code, 0, fromEdited.stderr);
    assert.match(fromEdited.stdout, /restored 11 users .*2 users missing from .* erased/);
  });

  it('mark-restored marks a store file copied back by hand: its feed continues, and answers 410 above the restored position', async () => {
    const path = join(dir, 'copied-back.db');
    await seedStore(dir, path, 5);
    const marked = await runCli(['mark-restored', '--database-url', `sqlite:${path}`]);
    assert.equal(marked.code, 0, marked.stderr);
    assert.match(marked.stdout, new RegExp(`continues after position 5; new events follow position ${5 + RESTORE_POSITION_GAP}`));
    const store = openSqliteUserStore({ path, mustExist: true });
    try {
      const page = await store.events.read(5, 10);
      assert.deepEqual(page.restoreGaps, [{ after: 5, through: 5 + RESTORE_POSITION_GAP }]);
      assert.equal(page.latest, 5 + RESTORE_POSITION_GAP);
    } finally {
      await store.close();
    }
    const verify = await runCli(['verify', path]);
    assert.equal(verify.code, 0, verify.stderr);
  });

  it('verify finds a key that no longer reaches its user and counts that disagree', async () => {
    const live = join(dir, 'broken.db');
    await seedStore(dir, live, 10);
    const db = new Database(live);
    db.prepare("DELETE FROM user_keys WHERE key = 'legacy_id' AND value = 'L-3'").run();
    db.close();
    const verify = await runCli(['verify', live]);
    assert.equal(verify.code, 1);
    assert.match(verify.stderr, /a key does not reach its user: user [0-9a-f-]+'s legacy_id is missing from user_keys/);
    assert.match(verify.stderr, /counts disagree: user_keys has 29 rows, the users hold 30 keys/);
  });

  it('verify finds a hole in the change feed, a stored user that differs from the user rendered again, and a wrong user count', async () => {
    const damages: [string, string, RegExp][] = [
      ['feed-hole.db', 'DELETE FROM events WHERE position = 4', /the change feed has a gap: position 4 is missing \(the next event is at 5\)/],
      ['representation.db', "UPDATE users SET representation = replace(representation, 'Seed 2\"', 'Seed X\"') WHERE username = 'seed2'", /a stored representation differs from the user rendered again: user [0-9a-f-]+/],
      ['user-count.db', 'UPDATE user_count SET n = n + 1', /counts disagree: user_count says 11, users holds 10/],
    ];
    for (const [name, damage, found] of damages) {
      const path = join(dir, name);
      await seedStore(dir, path, 10);
      assert.equal((await runCli(['verify', path])).code, 0, `${name} is sound before the damage`);
      const db = new Database(path);
      assert.equal(db.prepare(damage).run().changes, 1, damage);
      db.close();
      const verify = await runCli(['verify', path]);
      assert.equal(verify.code, 1, `${name}: ${verify.stdout}`);
      assert.match(verify.stderr, found);
    }
  });
});
