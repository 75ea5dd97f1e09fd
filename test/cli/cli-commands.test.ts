/** The CLI's own behaviour: help on every command, usage errors, openapi, and a 100,000-line import. */
import assert from 'node:assert/strict';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from './run-cli.js';

describe('user-service CLI', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'user-service-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('--help works on every command and lists the settings as options', async () => {
    const top = await runCli(['--help']);
    assert.equal(top.code, 0);
    for (const command of ['serve', 'migrate', 'import', 'export', 'openapi']) {
      assert.match(top.stdout, new RegExp(`\\n  ${command} `));
      const help = await runCli([command, '--help']);
      assert.equal(help.code, 0, command);
      assert.match(help.stdout, new RegExp(`^Usage: user-service ${command}`));
      assert.match(help.stdout, /--database-url .*\[DATABASE_URL\]/);
      assert.match(help.stdout, /--auth-mode .*\[AUTH_MODE\]/);
    }
    assert.match((await runCli(['import', '--help'])).stdout, /--on-conflict skip\|fail\|update/);
  });

  it('refuses unknown commands, unknown options and bad settings with exit code 2 and one line', async () => {
    for (const args of [['frobnicate'], ['export', '--colour', 'red'], ['import'], ['export', '--port', 'abc'], ['import', 'x.jsonl', '--on-conflict', 'maybe']]) {
      const result = await runCli(args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /^user-service: /);
    }
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
    assert.match(result.stdout, /^created 100000, updated 0, skipped 0, rejected 0 /);
    t.diagnostic(`100,000-line import (SQLite, synchronous=FULL): ${seconds.toFixed(1)} s, ${Math.round(100_000 / seconds)} lines/s`);
  });
});
