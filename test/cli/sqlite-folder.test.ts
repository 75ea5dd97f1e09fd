/**
 * A mistyped SQLite path is refused, not made: `serve` (and `npm start`'s bundle),
 * `import` and `migrate` stop with one configuration-error line (exit 2) when the
 * folder of a `sqlite:` path does not exist, and create nothing. `--create` or
 * SQLITE_CREATE_DIRECTORY=true makes the folder; the default ./data/users.db
 * (DATABASE_URL not set) always gets its folder. Real processes throughout.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT, spawnChildServer, startChildServer } from '../helpers/child-server.js';
import { parseSummary } from './import-summary.js';
import { runCli } from './run-cli.js';

const CLI = join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js');

/** The one line a refused path gets: the setting, the path as typed, and how to ask for the folder. */
const REFUSED = /^user-service: configuration error: DATABASE_URL: the folder of the SQLite database .*\/dta\/users\.db does not exist \(.*\/dta\); nothing was created\. .*SQLITE_CREATE_DIRECTORY=true .*--create/;

function assertRefused(code: number | null, stderr: string, what: string): void {
  assert.equal(code, 2, `${what}: ${stderr}`);
  const lines = stderr.split('\n').filter((line) => line !== '');
  assert.equal(lines.length, 1, `${what}: one line: ${stderr}`);
  assert.match(lines[0]!, REFUSED, what);
}

/** `user-service serve ARGS` until it listens, then SIGTERM: its exit code and output. */
function serveUntilListening(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Server listening at/.test(output)) child.kill('SIGTERM');
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('a SQLite path whose folder does not exist', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'user-service-sqlite-folder-'));
    file = join(dir, 'users.jsonl');
    writeFileSync(file, `${JSON.stringify({ username: 'folder.user', email_address: 'folder.user@example.com' })}\n`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The folder a typo names (`dta` for `data`), missing. */
  const typo = () => `sqlite:${join(dir, 'dta', 'users.db')}`;

  it('import, migrate and serve refuse it with exit 2 and one line, and create nothing', async () => {
    const runs: [string, string[], Record<string, string>][] = [
      ['import (option)', ['import', file, '--database-url', typo()], {}],
      ['import (environment)', ['import', file], { DATABASE_URL: typo() }],
      ['migrate', ['migrate', '--database-url', typo()], {}],
      ['migrate, SQLITE_CREATE_DIRECTORY=false', ['migrate', '--database-url', typo()], { SQLITE_CREATE_DIRECTORY: 'false' }],
      ['serve', ['serve', '--port', '0', '--database-url', typo()], {}],
    ];
    for (const [what, args, env] of runs) {
      const before = readdirSync(dir).sort();
      const result = await runCli(args, env, 20_000);
      assertRefused(result.code, result.stderr, what);
      assert.deepEqual(readdirSync(dir).sort(), before, `${what}: no file or folder was made`);
    }
    // Several missing levels: none is made.
    const deep = await runCli(['migrate', '--database-url', `sqlite:${join(dir, 'a', 'b', 'users.db')}`]);
    assert.equal(deep.code, 2, deep.stderr);
    assert.equal(existsSync(join(dir, 'a')), false);
  });

  it('npm start (the bundle of serve) refuses it with exit 2 and one line, and creates nothing', async () => {
    const child = spawnChildServer({ cwd: dir, env: { DATABASE_URL: typo() } });
    try {
      const exit = await child.waitForExit(15_000);
      assertRefused(exit.code, child.stderr(), child.describe());
      assert.equal(existsSync(join(dir, 'dta')), false);
      assert.equal(child.logs().some((record) => record.msg === 'store opened'), false, 'nothing was opened');
    } finally {
      await child.dispose(); // a service that went on despite the typo must not outlive the test
    }
  });

  it('--create makes the folder for import, migrate and serve', async () => {
    const imported = await runCli(['import', file, '--create', '--database-url', `sqlite:${join(dir, 'i', 'users.db')}`]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(parseSummary(imported.stdout).created, 1);
    assert.ok(existsSync(join(dir, 'i', 'users.db')));

    const migrated = await runCli(['migrate', '--database-url', `sqlite:${join(dir, 'm', 'n', 'users.db')}`, '--create']);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.match(migrated.stdout, /schema at version \d+/);
    assert.ok(existsSync(join(dir, 'm', 'n', 'users.db')));

    const served = await serveUntilListening(['--create', '--database-url', `sqlite:${join(dir, 's', 'users.db')}`], {});
    assert.equal(served.code, 0, served.output);
    assert.match(served.output, /Server listening at/);
    assert.ok(existsSync(join(dir, 's', 'users.db')));
  });

  it('SQLITE_CREATE_DIRECTORY=true (or --sqlite-create-directory true) makes the folder, for the bundle too', async () => {
    const imported = await runCli(['import', file, '--database-url', `sqlite:${join(dir, 'ie', 'users.db')}`], { SQLITE_CREATE_DIRECTORY: 'true' });
    assert.equal(imported.code, 0, imported.stderr);
    assert.ok(existsSync(join(dir, 'ie', 'users.db')));

    const migrated = await runCli(['migrate', '--sqlite-create-directory', 'true', '--database-url', `sqlite:${join(dir, 'mo', 'users.db')}`]);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.ok(existsSync(join(dir, 'mo', 'users.db')));

    const server = await startChildServer({ cwd: dir, env: { DATABASE_URL: `sqlite:${join(dir, 'se', 'users.db')}`, SQLITE_CREATE_DIRECTORY: 'true' } });
    try {
      const created = await server.post('/users', { username: 'made.here', email_address: 'made.here@example.com' });
      assert.equal(created.status, 201);
    } finally {
      await server.dispose();
    }
    assert.ok(existsSync(join(dir, 'se', 'users.db')));
  });

  it('--create is a flag: it takes no value, and export (which creates nothing) does not take it', async () => {
    const valued = await runCli(['migrate', '--create=yes', '--database-url', typo()]);
    assert.equal(valued.code, 2, valued.stderr);
    assert.match(valued.stderr, /^user-service: --create takes no value\n/);
    const exported = await runCli(['export', '--create', '--database-url', typo()]);
    assert.equal(exported.code, 2, exported.stderr);
    assert.match(exported.stderr, /^user-service: unknown option --create\n/);
    assert.equal(existsSync(join(dir, 'dta')), false);
  });

  it('a missing file in an existing folder is still created (a first start), and sqlite::memory: is unaffected', async () => {
    const first = await runCli(['migrate', '--database-url', `sqlite:${join(dir, 'first.db')}`]);
    assert.equal(first.code, 0, first.stderr);
    assert.ok(existsSync(join(dir, 'first.db')));
    const memory = await runCli(['migrate', '--database-url', 'sqlite::memory:']);
    assert.equal(memory.code, 0, memory.stderr);
  });

  it('the default ./data/users.db (DATABASE_URL not set) still gets its folder, for the CLI and npm start', async () => {
    const cliHome = mkdtempSync(join(dir, 'cli-'));
    const migrated = spawnSync(process.execPath, [CLI, 'migrate'], { cwd: cliHome, env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8', timeout: 30_000 });
    assert.equal(migrated.status, 0, migrated.stderr);
    assert.ok(existsSync(join(cliHome, 'data', 'users.db')));

    const serveHome = mkdtempSync(join(dir, 'serve-'));
    const server = await startChildServer({ cwd: serveHome, env: { DATABASE_URL: undefined } });
    try {
      assert.equal((await server.get('/readyz')).status, 200);
    } finally {
      await server.dispose();
    }
    assert.ok(existsSync(join(serveHome, 'data', 'users.db')));
  });
});
