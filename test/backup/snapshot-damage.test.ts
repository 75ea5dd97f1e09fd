/**
 * Snapshots that are not whole: one cut short by kill -9 during the copy, one truncated,
 * one with bytes flipped in a page (with the manifest's checksum left as it was, and made
 * to match, so SQLite's own check has to find it). restore and verify refuse each in
 * words, and write nothing; the next backup succeeds.
 */
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, startCli } from '../cli/run-cli.js';
import { until } from '../helpers/until.js';
import { readManifestOf, seedStore } from './backup-fixtures.js';
import { makingPartial, removeAbandonedPartials } from '../../src/store/snapshot-files.js';

describe('damaged and interrupted snapshots', () => {
  let dir: string;
  let live: string;
  let snapshot: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'backup-damage-'));
    live = join(dir, 'live.db');
    await seedStore(dir, live, 3000);
    snapshot = join(dir, 'good.db');
    const made = await runCli(['backup', '--to', snapshot, '--database-url', `sqlite:${live}`]);
    assert.equal(made.code, 0, made.stderr);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A copy of the good snapshot and its manifest under `name`, the manifest naming it. */
  function copyOfSnapshot(name: string): string {
    const path = join(dir, name);
    copyFileSync(snapshot, path);
    writeFileSync(`${path}.manifest.json`, JSON.stringify({ ...readManifestOf(snapshot), file: name }));
    return path;
  }

  async function assertRefused(path: string, reason: RegExp): Promise<void> {
    const target = join(dir, `restored-from-${path.split('/').pop()}`);
    const restore = await runCli(['restore', path, '--to', target]);
    assert.equal(restore.code, 1, restore.stdout);
    assert.match(restore.stderr, reason);
    assert.equal(restore.stderr.trim().split('\n').length, 1, 'one line');
    assert.equal(existsSync(target), false, 'nothing written');
    assert.deepEqual(readdirSync(dir).filter((name) => name.includes('.partial-')), [], 'no partial file left');
    const verify = await runCli(['verify', path]);
    assert.equal(verify.code, 1, verify.stdout);
    assert.match(verify.stderr, reason);
  }

  it('refuses a truncated snapshot', async () => {
    const path = copyOfSnapshot('truncated.db');
    truncateSync(path, Math.floor(readManifestOf(snapshot).bytes / 2));
    await assertRefused(path, /does not match its manifest .* damaged or was changed/);
  });

  it('refuses a snapshot with bytes flipped in a page, by its checksum and, with a matching checksum, by SQLite\'s integrity check', async () => {
    const path = copyOfSnapshot('flipped.db');
    const bytes = readFileSync(path);
    const pageSize = bytes.readUInt16BE(16);
    // Page 2's B-tree header: its page type and cell count.
    for (let i = 0; i < 8; i++) bytes[pageSize + i] = bytes[pageSize + i]! ^ 0xff;
    writeFileSync(path, bytes);
    await assertRefused(path, /does not match its manifest/);
    const manifest = JSON.parse(readFileSync(`${path}.manifest.json`, 'utf8'));
    writeFileSync(`${path}.manifest.json`, JSON.stringify({ ...manifest, sha256: createHash('sha256').update(bytes).digest('hex') }));
    await assertRefused(path, /integrity check|not a readable SQLite database/);
  });

  it('names the damage SQLite finds in one line: a page whose header is flipped, deep in the file', async () => {
    const path = copyOfSnapshot('deep-page.db');
    const bytes = readFileSync(path);
    const pageSize = bytes.readUInt16BE(16);
    const page = 50;
    assert.ok(bytes.length > page * pageSize);
    for (let i = 0; i < 8; i++) bytes[(page - 1) * pageSize + i] = bytes[(page - 1) * pageSize + i]! ^ 0xff;
    writeFileSync(path, bytes);
    const manifest = JSON.parse(readFileSync(`${path}.manifest.json`, 'utf8'));
    writeFileSync(`${path}.manifest.json`, JSON.stringify({ ...manifest, sha256: createHash('sha256').update(bytes).digest('hex') }));
    // SQLite's first finding is "*** in database main ***" and the damage follows on its next line: both are said.
    await assertRefused(path, new RegExp(`fails SQLite's integrity check: \\*\\*\\* in database main \\*\\*\\* .*page ${page}`));
  });

  it('refuses a file without a manifest', async () => {
    const path = join(dir, 'bare.db');
    copyFileSync(snapshot, path);
    const restore = await runCli(['restore', path, '--to', join(dir, 'bare-restored.db')]);
    assert.equal(restore.code, 1);
    assert.match(restore.stderr, /has no manifest .*not a complete snapshot/);
  });

  it('kill -9 during a backup leaves no file that looks complete; the next run succeeds and removes what it left', async () => {
    const folder = join(dir, 'scheduled');
    mkdirSync(folder);
    // The copy pauses after its first step: the process is killed while it copies.
    const run = startCli(['backup', '--to', folder, '--database-url', `sqlite:${live}`], { TEST_BACKUP_STEP_DELAY_MS: '600000' });
    await until(async () => readdirSync(folder), (names) => names.some((name) => name.includes('.partial-')));
    run.child.kill('SIGKILL');
    assert.equal((await run.exited).signal, 'SIGKILL');
    const left = readdirSync(folder);
    assert.ok(left.length > 0);
    for (const name of left) assert.match(name, /^\..*\.partial-\d+/, `${name} is a partial file, which no reader takes for a snapshot`);

    // verify takes a file without a manifest for a store: a partial copy is refused in words, not as SQLite's "no such table".
    const partialVerify = await runCli(['verify', join(folder, left.find((name) => /\.partial-\d+$/.test(name))!)]);
    assert.equal(partialVerify.code, 1, partialVerify.stdout);
    assert.match(partialVerify.stderr, /is no user-service store or snapshot: it has no users table|fails SQLite's integrity check|not a readable SQLite database/);
    assert.doesNotMatch(partialVerify.stderr, /no such table/);

    const again = await runCli(['backup', '--to', folder, '--database-url', `sqlite:${live}`]);
    assert.equal(again.code, 0, again.stderr);
    const names = readdirSync(folder);
    assert.equal(names.filter((name) => name.includes('.partial-')).length, 0, 'the killed run\'s files are removed');
    const [made] = names.filter((name) => name.endsWith('.db'));
    assert.ok(made && names.includes(`${made}.manifest.json`));
    const verify = await runCli(['verify', join(folder, made)]);
    assert.equal(verify.code, 0, verify.stderr);
    assert.match(verify.stdout, /ok: 3000 users/);
  });

  it('a folder that refuses to remove the partial copy does not hide why the backup failed', async () => {
    const folder = join(dir, 'turns-read-only');
    mkdirSync(folder);
    const run = startCli(['backup', '--to', folder, '--database-url', `sqlite:${live}`], { TEST_BACKUP_STEP_DELAY_MS: '300' });
    await until(async () => readdirSync(folder), (names) => names.some((name) => name.includes('.partial-')));
    // Immutable for root (which ignores permission bits), read-only otherwise: no file can be made or removed in it.
    const root = process.getuid?.() === 0;
    if (root) assert.equal(spawnSync('chattr', ['+i', folder]).status, 0, 'chattr +i');
    else chmodSync(folder, 0o555);
    try {
      const exit = await run.exited;
      assert.equal(exit.code, 1, run.output().stdout);
      const { stderr } = run.output();
      assert.match(stderr, /^user-service: the snapshot failed: /, stderr);
      assert.doesNotMatch(stderr, /ENOTDIR|scandir|EPERM|EACCES/, 'the removal that failed after it is not what is reported');
    } finally {
      if (root) spawnSync('chattr', ['-i', folder]);
      else chmodSync(folder, 0o755);
    }
  });

  it('the next run of the same process removes what one of its runs could not, never what it is making', () => {
    const folder = join(dir, 'own-partials');
    mkdirSync(folder);
    const left = `.users-1.db.partial-${process.pid}`;
    const makingNow = `.users-2.db.partial-${process.pid}`;
    for (const name of [left, `${left}-journal`, makingNow, `${makingNow}-journal`, 'notes.txt']) writeFileSync(join(folder, name), '');
    const done = makingPartial(join(folder, makingNow));
    try {
      assert.deepEqual(removeAbandonedPartials(folder).sort(), [left, `${left}-journal`]);
      assert.deepEqual(readdirSync(folder).sort(), [makingNow, `${makingNow}-journal`, 'notes.txt']);
    } finally {
      done();
    }
    assert.deepEqual(removeAbandonedPartials(folder).sort(), [makingNow, `${makingNow}-journal`]);
  });
});
