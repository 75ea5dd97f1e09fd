/**
 * The CLI's own behaviour, as an operator meets it: help that shows each
 * command's own options and settings, usage errors, clean one-line failures for
 * a missing input file or database, export that never creates a database, and
 * openapi. Real processes throughout.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { EXISTING_STORE_SETTINGS, STORE_SETTINGS, SETTINGS, optionName } from '../../src/cli/settings.js';
import { ADMIN_URL, postgresSkipReason } from '../helpers/postgres.js';
import { parseSummary } from './import-summary.js';
import { runCli } from './run-cli.js';

/** A failure an operator reads: exactly one line on stderr, no stack. */
function assertOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.split('\n').filter((line) => line !== '');
  assert.equal(lines.length, 1, `expected one line: ${stderr}`);
  assert.match(lines[0]!, pattern);
  assert.doesNotMatch(stderr, /\n\s+at |Unhandled|Error:/);
}

describe('user-service CLI', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'user-service-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the built command runs by its own path, as `npx user-service` and an installed bin run it', () => {
    const bin = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
    const run = spawnSync(bin, ['--help'], { encoding: 'utf8' });
    assert.equal(run.error, undefined, `not executable: ${run.error?.message}`);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /\n  serve /);
  });

  it('--help shows each command its own options and only the settings it uses', async () => {
    const top = await runCli(['--help']);
    assert.equal(top.code, 0);
    const allOptions = SETTINGS.map(([env]) => optionName(env));
    const expected: Record<string, string[]> = { serve: allOptions, migrate: STORE_SETTINGS.map(optionName), import: [...STORE_SETTINGS, 'IDEMPOTENCY_TTL_S'].map(optionName), export: EXISTING_STORE_SETTINGS.map(optionName), openapi: [] };
    for (const [command, shown] of Object.entries(expected)) {
      assert.match(top.stdout, new RegExp(`\\n  ${command} `));
      const help = await runCli([command, '--help']);
      assert.equal(help.code, 0, command);
      assert.match(help.stdout, new RegExp(`^Usage: user-service ${command}`));
      const listed = allOptions.filter((option) => new RegExp(`^  ${option} `, 'm').test(help.stdout));
      assert.deepEqual(listed, shown, `${command} --help lists exactly the settings it uses`);
    }
    const importHelp = (await runCli(['import', '--help'])).stdout;
    assert.match(importHelp, /--on-conflict skip\|fail\|merge\|replace/);
    assert.doesNotMatch(importHelp, /--auth-mode|--port/);
    assert.match(importHelp, /\n  --create +the same as --sqlite-create-directory true\n/, 'a flag that stands for a setting is listed with it');
  });

  it('refuses unknown commands, unknown options, settings a command does not use, and bad settings with exit code 2 and one line', async () => {
    for (const args of [['frobnicate'], ['export', '--colour', 'red'], ['import'], ['export', '--port', '8081'], ['import', 'x.jsonl', '--auth-mode', 'jwt'], ['export', '--sqlite-synchronous', 'SOMETIMES'], ['import', 'x.jsonl', '--on-conflict', 'maybe']]) {
      const result = await runCli(args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /^user-service: /);
    }
  });

  it('refuses an option given twice, in any spelling of it, instead of taking the last one', async () => {
    const db = `sqlite:${join(dir, 'twice.db')}`;
    for (const [args, says] of [
      [['import', 'x.jsonl', '--on-conflict', 'skip', '--on-conflict=replace'], /--on-conflict is given twice/],
      [['import', 'x.jsonl', '--database-url', db, '--database-url', 'sqlite::memory:'], /--database-url is given twice/],
      [['migrate', '--database-url', db, '--create', '--sqlite-create-directory', 'false'], /--sqlite-create-directory is given twice/],
    ] as const) {
      const result = await runCli([...args]);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, says);
    }
  });

  it('a command is not refused for a setting it does not use, set in the environment', async () => {
    const file = join(dir, 'env.jsonl');
    writeFileSync(file, `${JSON.stringify({ username: 'env.user', email_address: 'env.user@example.com' })}\n`);
    const result = await runCli(['import', file, '--database-url', `sqlite:${join(dir, 'env.db')}`], { HOST: '0.0.0.0', AUTH_MODE: 'jwt' });
    assert.equal(result.code, 0, result.stderr);
  });

  it('a missing or unreadable input file is one line on stderr and exit code 1', async () => {
    const db = `sqlite:${join(dir, 'missing.db')}`;
    const missing = await runCli(['import', join(dir, 'nope.jsonl'), '--database-url', db]);
    assert.equal(missing.code, 1);
    assertOneLine(missing.stderr, /^user-service: .*nope\.jsonl: does not exist$/);
    const folder = await runCli(['import', dir, '--database-url', db]);
    assert.equal(folder.code, 1);
    assertOneLine(folder.stderr, /: is a directory$/);
  });

  it('export never creates a database: a mistyped SQLite path fails with one line and creates nothing', async () => {
    for (const path of [join(dir, 'typo.db'), join(dir, 'no-such-folder', 'typo.db')]) {
      const before = readdirSync(dir);
      const result = await runCli(['export', '--database-url', `sqlite:${path}`]);
      assert.equal(result.code, 1, result.stderr);
      assertOneLine(result.stderr, /^user-service: DATABASE_URL: the SQLite database .*typo\.db does not exist$/);
      assert.equal(result.stdout, '');
      assert.equal(existsSync(path), false);
      assert.deepEqual(readdirSync(dir), before, 'no file or folder was made');
    }
  });

  it('store errors are words: a missing PostgreSQL database, a refused connection', async (t) => {
    const skip = await postgresSkipReason();
    if (skip) return t.skip(skip);
    const url = new URL(ADMIN_URL);
    url.pathname = '/no_such_database_here';
    const missing = await runCli(['export', '--database-url', url.toString()]);
    assert.equal(missing.code, 1);
    assertOneLine(missing.stderr, /^user-service: DATABASE_URL: PostgreSQL at .+: database "no_such_database_here" does not exist$/);
    // Port 1 on the loopback address: nothing listens there.
    const refused = await runCli(['migrate', '--database-url', 'postgres://svc:hunter2@127.0.0.1:1/users']);
    assert.equal(refused.code, 1);
    assertOneLine(refused.stderr, /^user-service: DATABASE_URL: cannot connect to PostgreSQL at 127\.0\.0\.1:1 \(connection refused\)$/);
    assert.doesNotMatch(refused.stderr, /hunter2/);
  });

  it('openapi prints the OpenAPI 3.1 document', async () => {
    const result = await runCli(['openapi']);
    assert.equal(result.code, 0, result.stderr);
    const document = JSON.parse(result.stdout);
    assert.equal(document.openapi, '3.1.0');
    assert.ok(document.paths['/users/{ref}'].get);
  });

  it('imports 100,000 lines', async (t) => {
    const file = join(dir, 'many.jsonl');
    const out = createWriteStream(file);
    for (let i = 0; i < 100_000; i++) {
      out.write(`${JSON.stringify({ username: `bulk${i}`, email_address: `bulk${i}@example.com`, legacy_ids: [`B-${i}`] })}\n`);
    }
    await new Promise((resolve) => out.end(resolve));
    const started = Date.now();
    const result = await runCli(['import', file, '--database-url', `sqlite:${join(dir, 'bulk.db')}`], {}, 600_000);
    const seconds = (Date.now() - started) / 1000;
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(parseSummary(result.stdout), { created: 100_000, updated: 0, unchanged: 0, skipped: 0, rejected: 0, records: 100_000 });
    t.diagnostic(`100,000-line import (SQLite, synchronous=FULL): ${seconds.toFixed(1)} s, ${Math.round(100_000 / seconds)} lines/s`);
  });
});
