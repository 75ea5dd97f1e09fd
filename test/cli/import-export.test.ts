/**
 * `user-service import` and `export` as an operator runs them: real processes,
 * real files, on both stores.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { createTestDatabaseUrl, describeEachStore, openTestStoreAt, type StoreKind, type TestDatabaseUrl } from '../helpers/stores.js';
import { storedUsers } from './stored-users.js';
import { parseSummary } from './import-summary.js';
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

const allUsers = storedUsers;

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
    assert.deepEqual(parseSummary(result.stdout), { created: 3, updated: 0, unchanged: 0, skipped: 1, rejected: 3, records: 7, report: `${file}.report.jsonl` });
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

  it('re-running the same file changes nothing, with skip and with update (unchanged users counted as unchanged)', async () => {
    const before = await allUsers(kind, db.databaseUrl);
    const skip = await runCli(['import', join(dir, 'users.jsonl'), '--database-url', db.databaseUrl]);
    assert.deepEqual(parseSummary(skip.stdout), { created: 0, updated: 0, unchanged: 0, skipped: 4, rejected: 3, records: 7, report: `${join(dir, 'users.jsonl')}.report.jsonl` });
    const good = join(dir, 'good.jsonl');
    writeFileSync(good, GOOD.map((u) => JSON.stringify(u)).join('\n'));
    const update = await runCli(['import', good, '--database-url', db.databaseUrl, '--on-conflict', 'update']);
    assert.equal(update.code, 0, update.stderr);
    assert.deepEqual(parseSummary(update.stdout), { created: 0, updated: 0, unchanged: 3, skipped: 0, rejected: 0, records: 3 }, 'users equal to their record are left alone');
    assert.match(update.stdout, /; nothing to report$/m);
    assert.deepEqual(await allUsers(kind, db.databaseUrl), before);
  });

  it('a stale report never survives: a run with nothing to report removes it, a run with less to report replaces it', async () => {
    const file = join(dir, 'stale.jsonl');
    const report = `${file}.report.jsonl`;
    writeFileSync(file, [JSON.stringify({ username: 'stale.a', email_address: 'stale.a@example.com' }), '{ broken', '[]'].join('\n'));
    assert.equal(parseSummary((await runCli(['import', file, '--database-url', db.databaseUrl])).stdout).report, report);
    assert.equal(readReport(report).length, 2);
    writeFileSync(file, [JSON.stringify({ username: 'stale.a', email_address: 'stale.a@example.com' }), '{ broken'].join('\n'));
    await runCli(['import', file, '--database-url', db.databaseUrl, '--on-conflict', 'update']);
    assert.deepEqual(readReport(report).map((r) => r.line), [2], 'the report holds only the latest run');
    writeFileSync(file, JSON.stringify({ username: 'stale.a', email_address: 'stale.a@example.com' }));
    const clean = await runCli(['import', file, '--database-url', db.databaseUrl, '--on-conflict', 'update']);
    assert.equal(clean.code, 0, clean.stderr);
    assert.equal(parseSummary(clean.stdout).report, undefined);
    assert.equal(existsSync(report), false, 'the previous report is removed');
  });

  it('--on-conflict update (merge) changes the user holding the keys', async () => {
    const file = join(dir, 'changed.jsonl');
    writeFileSync(file, JSON.stringify({ ...GOOD[2], display_name: 'Carol C.' }));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--on-conflict', 'update']);
    assert.deepEqual(parseSummary(result.stdout), { created: 0, updated: 1, unchanged: 0, skipped: 0, rejected: 0, records: 1 });
    const carol = (await allUsers(kind, db.databaseUrl)).find((u) => u.username === 'imp.carol');
    assert.equal(carol?.display_name, 'Carol C.');
    assert.equal(carol?.version, 2);
  });

  it('--on-conflict fail stops at the first existing key', async () => {
    const file = join(dir, 'fail.jsonl');
    writeFileSync(file, [JSON.stringify({ username: 'imp.frank', email_address: 'frank@example.com' }), JSON.stringify(GOOD[2]), JSON.stringify({ username: 'imp.gina', email_address: 'gina@example.com' })].join('\n'));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--on-conflict', 'fail', '--batch-size', '1']);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /; stopped at line 2 \(--on-conflict fail\);/);
    assert.deepEqual({ ...parseSummary(result.stdout), report: undefined }, { created: 1, updated: 0, unchanged: 0, skipped: 0, rejected: 1, records: 2, report: undefined });
    const names = (await allUsers(kind, db.databaseUrl)).map((u) => u.username);
    assert.ok(names.includes('imp.frank') && !names.includes('imp.gina'));
  });

  it('--on-conflict fail in the middle of a batch: the records after the stop are neither written nor counted', async () => {
    const file = join(dir, 'fail-batch.jsonl');
    writeFileSync(file, [JSON.stringify({ username: 'imp.hank', email_address: 'hank@example.com' }), '{ broken', JSON.stringify(GOOD[2]), JSON.stringify({ username: 'imp.ida', email_address: 'ida@example.com' })].join('\n'));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--on-conflict', 'fail']);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /; stopped at line 3 \(--on-conflict fail\);/);
    assert.deepEqual({ ...parseSummary(result.stdout), report: undefined }, { created: 1, updated: 0, unchanged: 0, skipped: 0, rejected: 2, records: 3, report: undefined });
    assert.deepEqual(readReport(`${file}.report.jsonl`).map((r) => [r.line, r.outcome]), [[2, 'rejected'], [3, 'rejected']]);
    const names = (await allUsers(kind, db.databaseUrl)).map((u) => u.username);
    assert.ok(names.includes('imp.hank') && !names.includes('imp.ida'));
  });

  it('imports a record with the lifecycle and profile fields; the exports below carry them back', async () => {
    const profiled = {
      username: 'imp.kim',
      email_address: 'kim@example.com',
      external_id: 'okta-00u1kim',
      active: false,
      name: { given_name: 'Kim', family_name: 'Lee' },
      title: 'Engineer',
      emails: [{ value: 'kim.home@example.com', type: 'home' }],
      phone_numbers: [{ value: '+15555550100', type: 'mobile', primary: true }],
      addresses: [{ locality: 'Lyon', country: 'FR', type: 'work' }],
      department: 'R&D',
      manager: { value: 'okta-00u1boss', display_name: 'Boss' },
    };
    const file = join(dir, 'profiled.jsonl');
    writeFileSync(file, `${JSON.stringify(profiled)}\n`);
    const imported = await runCli(['import', file, '--database-url', db.databaseUrl]);
    assert.equal(imported.code, 0, `${imported.stdout}${imported.stderr}`);
    const kim = (await allUsers(kind, db.databaseUrl)).find((u) => u.username === 'imp.kim');
    assert.ok(kim);
    const { emails, ...rest } = profiled;
    assert.deepEqual({ ...kim, emails: kim.emails }, { ...kim, ...rest, phone_numbers: [{ value: '+15555550100', type: 'mobile', primary: true }], addresses: [{ locality: 'Lyon', country: 'FR', type: 'work', primary: false }] });
    assert.deepEqual(kim.emails, [{ value: 'kim@example.com', primary: true }, { value: emails[0]!.value, type: 'home', primary: false }], 'email_address is the primary entry of emails');
  });

  for (const format of ['jsonl', 'csv'] as const) {
    it(`export (${format}) then import into an empty store gives the same users`, async () => {
      const exported = await runCli(['export', '--format', format, '--database-url', db.databaseUrl]);
      assert.equal(exported.code, 0, exported.stderr);
      // The snapshot's change-feed position, for a copy that starts from an export (docs/events.md).
      const store = await openTestStoreAt(kind, db.databaseUrl);
      const latest = await store.events.settle().finally(() => store.close());
      const count = (await allUsers(kind, db.databaseUrl)).length;
      assert.match(exported.stderr, new RegExp(`^exported ${count} users at change-feed position ${latest}$`, 'm'));
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
