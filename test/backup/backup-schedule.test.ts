/**
 * Scheduled snapshots in a running service (BACKUP_DIR, BACKUP_INTERVAL_S, BACKUP_KEEP):
 * with a one-second interval the folder holds BACKUP_KEEP complete snapshots, each one
 * verifiable; a folder that cannot be written is logged and counted while every request
 * is answered as usual; bad settings stop the start with one line.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { spawnChildServer, startChildServer } from '../helpers/child-server.js';
import { send } from '../helpers/http-client.js';
import { runCli } from '../cli/run-cli.js';

const SETTINGS = { BACKUP_INTERVAL_S: '1', BACKUP_KEEP: '2' };

/** Makes a folder that refuses new files, also to root (which ignores permission bits): immutable then. */
function makeReadOnly(folder: string): () => void {
  if (process.getuid?.() === 0) {
    assert.equal(spawnSync('chattr', ['+i', folder]).status, 0, 'chattr +i');
    return () => spawnSync('chattr', ['-i', folder]);
  }
  chmodSync(folder, 0o555);
  return () => chmodSync(folder, 0o755);
}

describe('scheduled snapshots', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'backup-schedule-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps BACKUP_KEEP complete snapshots, removing older ones only after a new one is complete', async () => {
    const folder = join(dir, 'kept');
    mkdirSync(folder);
    const server = await startChildServer({ env: { DATABASE_URL: `sqlite:${join(dir, 'kept.db')}`, BACKUP_DIR: folder, ...SETTINGS } });
    try {
      for (let i = 0; i < 5; i++) {
        assert.equal((await send(server.baseUrl, 'POST', '/users', { json: { username: `k${i}`, email_address: `k${i}@example.com` } })).status, 201);
        const done = server.logs().filter((r) => r.msg === 'backup: snapshot complete').length;
        await server.waitForLog(() => server.logs().filter((r) => r.msg === 'backup: snapshot complete').length > done, 20_000);
      }
      const metrics = await send(server.baseUrl, 'GET', '/metrics');
      assert.match(metrics.text, /^user_service_backup_successes_total [5-9]/m);
      assert.match(metrics.text, /^user_service_backup_last_size_bytes [1-9]/m);
      assert.match(metrics.text, /^user_service_backup_failures_total 0$/m);
      server.kill('SIGTERM');
      assert.equal((await server.waitForExit()).code, 0);
    } finally {
      await server.dispose();
    }
    const names = readdirSync(folder);
    assert.deepEqual(names.filter((name) => name.startsWith('.')), [], 'the stop removed a snapshot under way');
    const snapshots = names.filter((name) => name.endsWith('.db'));
    assert.equal(snapshots.length, 2, names.join(', '));
    for (const name of snapshots) assert.ok(names.includes(`${name}.manifest.json`));
    const newest = await runCli(['verify', join(folder, snapshots.sort()[1]!)]);
    assert.equal(newest.code, 0, newest.stderr);
    assert.match(newest.stdout, /ok: 5 users/);
  });

  it('reports a folder it cannot write in, without harming any request', async () => {
    const folder = join(dir, 'read-only');
    mkdirSync(folder);
    const restore = makeReadOnly(folder);
    const server = await startChildServer({ env: { DATABASE_URL: `sqlite:${join(dir, 'ro.db')}`, BACKUP_DIR: folder, ...SETTINGS } });
    try {
      assert.throws(() => writeFileSync(join(folder, 'probe'), ''), 'the folder refuses files');
      // Requests go on while failures are logged, until two runs have failed and the warning that no snapshot succeeded
      // for twice the interval is out (which of the two comes first depends on how long a failing run takes).
      const failed = () => server.logs().filter((r) => r.msg === 'backup: snapshot failed; serving goes on, the next run tries again');
      const warned = () => server.logs().some((r) => r.msg === 'backup: no snapshot succeeded for more than twice BACKUP_INTERVAL_S');
      for (let i = 0; failed().length < 2 || !warned(); i++) {
        const created = await send(server.baseUrl, 'POST', '/users', { json: { username: `r${i}`, email_address: `r${i}@example.com` } });
        assert.equal(created.status, 201, created.text);
        assert.equal((await send(server.baseUrl, 'GET', `/users/${created.body.uid}`)).status, 200);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(failed()[0]!.level, 50, 'logged as an error');
      const metrics = await send(server.baseUrl, 'GET', '/metrics');
      assert.ok(Number(/^user_service_backup_failures_total (\d+)$/m.exec(metrics.text)?.[1]) >= 2, 'each failure counted');
      assert.match(metrics.text, /^user_service_backup_last_success_timestamp_seconds 0$/m);
      assert.equal((await send(server.baseUrl, 'GET', '/readyz')).status, 200);
    } finally {
      await server.dispose();
      restore();
    }
    assert.deepEqual(readdirSync(folder), []);
  });

  it('refuses bad settings at start with one line naming the setting', async () => {
    for (const [env, setting] of [
      [{ BACKUP_DIR: join(dir, 'missing') }, /BACKUP_DIR: .* is not an existing folder/],
      [{ BACKUP_DIR: dir, BACKUP_INTERVAL_S: '0' }, /BACKUP_INTERVAL_S: must be an integer from 1/],
      [{ BACKUP_DIR: dir, BACKUP_KEEP: 'x' }, /BACKUP_KEEP: must be an integer/],
      [{ BACKUP_DIR: dir, DATABASE_URL: 'postgres://127.0.0.1/none' }, /BACKUP_DIR: scheduled snapshots are for the SQLite store; on PostgreSQL use pg_dump/],
    ] as const) {
      const child = spawnChildServer({ env: { DATABASE_URL: `sqlite:${join(dir, 'bad.db')}`, ...env } });
      const exit = await child.waitForExit();
      assert.equal(exit.code, 2, child.describe());
      assert.match(child.stderr(), setting);
      assert.equal(child.stderr().trim().split('\n').length, 1);
    }
  });
});
