/**
 * `import --idempotency-key`: a run killed part-way and run again with the same
 * key replays the batches it committed (no record written twice, and the summary
 * says what was created, as the first run recorded it) and writes the rest; a
 * changed file under the same key is refused; without a key every run writes.
 * Both stores, the CLI as a real process.
 */
import { queryWords } from '../../src/users/search-words.js';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, it } from 'node:test';
import { REPO_ROOT } from '../helpers/child-server.js';
import { createTestDatabaseUrl, describeEachStore, openTestStoreAt, type TestDatabaseUrl } from '../helpers/stores.js';
import { parseSummary } from './import-summary.js';
import { runCli } from './run-cli.js';

const RECORDS = 20_000;
const BATCH = 500;

function jsonLines(path: string, prefix: string, count: number): void {
  writeFileSync(path, Array.from({ length: count }, (_, i) => JSON.stringify({ username: `${prefix}${i}`, email_address: `${prefix}${i}@example.com` })).join('\n') + '\n');
}

describeEachStore('user-service import --idempotency-key', (kind) => {
  let dir: string;
  let database: TestDatabaseUrl;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'user-service-import-key-'));
    database = await createTestDatabaseUrl(kind);
  });
  after(async () => {
    await database.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  const count = async (prefix: string) => {
    const store = await openTestStoreAt(kind, database.databaseUrl);
    try {
      return (await store.search({ filter: { words: queryWords(prefix) }, limit: RECORDS + 1 })).value.length;
    } finally {
      await store.close();
    }
  };
  const env = () => ({ DATABASE_URL: database.databaseUrl });

  it('a run killed after some batches, run again with its key: those batches are replayed, the rest written, nothing twice', async () => {
    const file = join(dir, 'killed.jsonl');
    jsonLines(file, 'killed', RECORDS);
    const args = [join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js'), 'import', file, '--batch-size', String(BATCH), '--idempotency-key', 'run-killed'];
    const first = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env() }, stdio: 'ignore' });
    const exited = new Promise((resolve) => first.on('close', resolve));
    // Killed once at least one batch is committed (or once it ends on its own).
    let committed = 0;
    for (let i = 0; i < 2000 && committed < BATCH && first.exitCode === null; i++) {
      committed = await count('killed');
      if (committed < BATCH) await sleep(10);
    }
    first.kill('SIGKILL');
    await exited;
    const before = await count('killed');
    assert.ok(before >= BATCH, `${before} committed before the kill`);

    const again = await runCli(['import', file, '--batch-size', String(BATCH), '--idempotency-key', 'run-killed'], env());
    assert.equal(again.code, 0, again.stderr);
    const summary = parseSummary(again.stdout);
    assert.equal(summary.records, RECORDS);
    assert.equal(summary.created, RECORDS, 'every record is created, by one run or the other');
    assert.equal(summary.skipped, 0, 'no record of the first run is counted as taken');
    const replayed = summary.replayed ?? 0;
    assert.ok(replayed >= before, `${replayed} replayed, ${before} committed by the first run`);
    assert.equal(replayed % BATCH, 0, 'whole batches are replayed');
    assert.equal(await count('killed'), RECORDS, 'no user twice');
  });

  it('the same key on a changed file is refused, naming the batch; nothing of it is written', async () => {
    const file = join(dir, 'changed.jsonl');
    jsonLines(file, 'changed', 1000);
    assert.equal((await runCli(['import', file, '--batch-size', String(BATCH), '--idempotency-key', 'run-changed'], env())).code, 0);
    jsonLines(file, 'other', 1000);
    const refused = await runCli(['import', file, '--batch-size', String(BATCH), '--idempotency-key', 'run-changed'], env());
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /batch 1 .*run-changed.*new key/);
    assert.equal(await count('other'), 0);
  });

  it('without a key every run writes: re-importing a file restores the users deleted since', async () => {
    const file = join(dir, 'restore.jsonl');
    jsonLines(file, 'restore', 10);
    assert.equal((await runCli(['import', file], env())).code, 0);
    const store = await openTestStoreAt(kind, database.databaseUrl);
    try {
      const [victim] = (await store.search({ filter: { words: ['restore'] }, limit: 1 })).value;
      assert.ok(victim);
      assert.equal((await store.delete(victim.uid)).status, 'ok');
    } finally {
      await store.close();
    }
    const again = parseSummary((await runCli(['import', file], env())).stdout);
    assert.equal(again.created, 1);
    assert.equal(again.skipped, 9);
    assert.equal(await count('restore'), 10);
  });
});
