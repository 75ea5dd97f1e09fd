/**
 * `user-service import` and `export` as an operator runs them: real processes,
 * real files, on both stores.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { createTestDatabaseUrl, describeEachStore, openTestStoreAt, type StoreKind, type TestDatabaseUrl } from '../helpers/stores.js';
import { runCli } from './run-cli.js';

const GOOD = [
  { username: 'imp.alice', email_address: 'Alice@Example.com', legacy_ids: ['A-1', 'crm:1'], display_name: 'Alice' },
  { username: 'imp.bob', email_address: 'bob@example.com', legacy_id: 'dept/42', attributes: { team: 'x' } },
  { username: 'imp.carol', email_address: 'carol@example.com' },
];

/** Good lines, a duplicate of a good line's username (case variant), and malformed lines, with their line numbers. */
function mixedFile(dir: string): string {
  const lines = [
    JSON.stringify(GOOD[0]),
    '{ not json',
    JSON.stringify(GOOD[1]),
    JSON.stringify({ username: 'IMP.ALICE', email_address: 'other@example.com' }),
    '',
    JSON.stringify({ username: 'imp.dave', email_address: 'not-an-address', extra: 1 }),
    JSON.stringify(GOOD[2]),
    JSON.stringify({ username: 'imp.erin', email_address: 'erin@example.com', legacy_id: 'x', legacy_ids: ['y'] }),
  ];
  const path = join(dir, 'users.jsonl');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const readReport = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

async function allUsers(kind: StoreKind, url: string) {
  const store = await openTestStoreAt(kind, url);
  try {
    return await store.search({ filter: {}, limit: 10_000 });
  } finally {
    await store.close();
  }
}

describeEachStore('user-service import and export', (kind) => {
  let dir: string;
  let db: TestDatabaseUrl;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'user-service-cli-'));
    db = await createTestDatabaseUrl(kind);
  });
  after(async () => {
    await db.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports good lines, and reports duplicates and malformed lines with line number and reason', async () => {
    const file = mixedFile(dir);
    const result = await runCli(['import', file, '--database-url', db.databaseUrl]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /^created 3, updated 0, skipped 1, rejected 3 \(7 records in /);
    const report = readReport(`${file}.report.jsonl`);
    assert.deepEqual(
      report.map((r) => [r.line, r.outcome]),
      [[2, 'rejected'], [4, 'skipped'], [6, 'rejected'], [8, 'rejected']],
    );
    assert.equal(report[1]!.key, 'username');
    assert.match(String(report[2]!.reason), /\/email_address/);
    assert.match(String(report[2]!.reason), /\/extra is not a known field/);
    assert.match(String(report[3]!.reason), /legacy_id/);
    const users = await allUsers(kind, db.databaseUrl);
    assert.deepEqual(users.map((u) => u.username).sort(), ['imp.alice', 'imp.bob', 'imp.carol']);
    assert.deepEqual(users.find((u) => u.username === 'imp.bob')?.legacy_ids, ['dept/42']);
  });

  it('re-running the same file changes nothing, with skip and with update', async () => {
    const before = await allUsers(kind, db.databaseUrl);
    const skip = await runCli(['import', join(dir, 'users.jsonl'), '--database-url', db.databaseUrl]);
    assert.match(skip.stdout, /^created 0, updated 0, skipped 4, rejected 3 /);
    const good = join(dir, 'good.jsonl');
    writeFileSync(good, GOOD.map((u) => JSON.stringify(u)).join('\n'));
    const update = await runCli(['import', good, '--database-url', db.databaseUrl, '--on-conflict', 'update']);
    assert.equal(update.code, 0, update.stderr);
    assert.match(update.stdout, /^created 0, updated 0, skipped 3, rejected 0 /, 'users equal to their record are left alone');
    assert.deepEqual(await allUsers(kind, db.databaseUrl), before);
  });

  it('--on-conflict update replaces the user holding the keys', async () => {
    const file = join(dir, 'changed.jsonl');
    writeFileSync(file, JSON.stringify({ ...GOOD[2], display_name: 'Carol C.' }));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--on-conflict', 'update']);
    assert.match(result.stdout, /^created 0, updated 1, skipped 0, rejected 0 /);
    const carol = (await allUsers(kind, db.databaseUrl)).find((u) => u.username === 'imp.carol');
    assert.equal(carol?.display_name, 'Carol C.');
    assert.equal(carol?.version, 2);
  });

  it('--on-conflict fail stops at the first existing key', async () => {
    const file = join(dir, 'fail.jsonl');
    writeFileSync(file, [JSON.stringify({ username: 'imp.frank', email_address: 'frank@example.com' }), JSON.stringify(GOOD[2]), JSON.stringify({ username: 'imp.gina', email_address: 'gina@example.com' })].join('\n'));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--on-conflict', 'fail', '--batch-size', '1']);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^created 1, updated 0, skipped 0, rejected 1 .*stopped at line 2/);
    const names = (await allUsers(kind, db.databaseUrl)).map((u) => u.username);
    assert.ok(names.includes('imp.frank') && !names.includes('imp.gina'));
  });

  for (const format of ['jsonl', 'csv'] as const) {
    it(`export (${format}) then import into an empty store gives the same users`, async () => {
      const exported = await runCli(['export', '--format', format, '--database-url', db.databaseUrl]);
      assert.equal(exported.code, 0, exported.stderr);
      const file = join(dir, `export.${format}`);
      writeFileSync(file, exported.stdout);
      const empty = await createTestDatabaseUrl(kind);
      try {
        const imported = await runCli(['import', file, '--database-url', empty.databaseUrl]);
        assert.equal(imported.code, 0, `${imported.stdout}${imported.stderr}`);
        assert.deepEqual(await allUsers(kind, empty.databaseUrl), await allUsers(kind, db.databaseUrl));
      } finally {
        await empty.remove();
      }
    });
  }
});
