/**
 * What an import does to users that already exist, as an operator meets it: a
 * file with fewer columns than the users have fields. `merge` (and `update`,
 * the same) changes only what the file carries; `replace` resets the rest and
 * says how many users lost fields. Real processes, real files, both stores.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { createTestDatabaseUrl, describeEachStore, type StoreKind, type TestDatabaseUrl } from '../helpers/stores.js';
import { storedUsers } from './stored-users.js';
import { parseSummary } from './import-summary.js';
import { runCli } from './run-cli.js';

const FULL = [
  { username: 'm.ann', email_address: 'ann@example.com', legacy_ids: ['crm:1', 'A-1'], display_name: 'Ann', department: 'Sales', attributes: { team: 'north', badge: 7 } },
  { username: 'm.bo', email_address: 'bo@example.com', legacy_ids: ['crm:2'], display_name: 'Bo', department: 'Ops', attributes: { team: 'south' } },
];

/** The partial CSV: only username, email_address and display_name. */
const PARTIAL_CSV = 'username,email_address,display_name\nm.ann,ann@example.com,Ann Renamed\nm.bo,bo@example.com,Bo Renamed\n';

async function usersByName(kind: StoreKind, url: string) {
  return new Map((await storedUsers(kind, url)).map((u) => [u.username, u]));
}

describeEachStore('import modes: merge keeps what the file lacks, replace says what it cleared', (kind) => {
  let dir: string;
  let db: TestDatabaseUrl;
  const reset = async () => {
    // Every test starts from the two full users, as first imported.
    const file = join(dir, 'full.jsonl');
    writeFileSync(file, FULL.map((u) => JSON.stringify(u)).join('\n'));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--on-conflict', 'replace']);
    assert.ok(result.code === 0, result.stderr);
  };
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'user-service-modes-'));
    db = await createTestDatabaseUrl(kind);
  });
  after(async () => {
    await db.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const mode of ['update', 'merge'] as const) {
    it(`a partial CSV with --on-conflict ${mode} changes the display names and keeps legacy ids, attributes and the department`, async () => {
      await reset();
      const file = join(dir, `partial-${mode}.csv`);
      writeFileSync(file, PARTIAL_CSV);
      const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--on-conflict', mode]);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(parseSummary(result.stdout), { created: 0, updated: 2, unchanged: 0, skipped: 0, rejected: 0, records: 2 });
      assert.doesNotMatch(result.stderr, /cleared/);
      const users = await usersByName(kind, db.databaseUrl);
      assert.equal(users.get('m.ann')?.display_name, 'Ann Renamed');
      assert.deepEqual(users.get('m.ann')?.legacy_ids, ['crm:1', 'A-1']);
      assert.deepEqual(users.get('m.ann')?.attributes, { team: 'north', badge: 7 });
      assert.equal(users.get('m.ann')?.department, 'Sales');
      assert.deepEqual(users.get('m.bo')?.legacy_ids, ['crm:2']);

      const again = await runCli(['import', file, '--database-url', db.databaseUrl, '--on-conflict', mode]);
      assert.deepEqual(parseSummary(again.stdout), { created: 0, updated: 0, unchanged: 2, skipped: 0, rejected: 0, records: 2 }, 'a second run changes nothing');
    });
  }

  it('a partial CSV with --on-conflict replace clears what the file lacks and warns with the count of users and of each field', async () => {
    await reset();
    const file = join(dir, 'partial-replace.csv');
    writeFileSync(file, PARTIAL_CSV);
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--on-conflict', 'replace']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(parseSummary(result.stdout), { created: 0, updated: 2, unchanged: 0, skipped: 0, rejected: 0, records: 2 });
    assert.match(result.stderr, /warning: --on-conflict replace cleared fields of 2 users \(legacy_ids 2, department 2, attributes 2\)/);
    const users = await usersByName(kind, db.databaseUrl);
    assert.deepEqual(users.get('m.ann')?.legacy_ids, []);
    assert.deepEqual(users.get('m.ann')?.attributes, {});
    assert.equal(users.get('m.ann')?.department, null);
  });

  it('merge from JSON Lines is a merge patch: null removes a field, attributes merge member by member, arrays are replaced whole', async () => {
    await reset();
    const file = join(dir, 'patch.jsonl');
    writeFileSync(file, JSON.stringify({ username: 'm.ann', email_address: 'ann@example.com', department: null, legacy_ids: ['crm:9'], attributes: { badge: null, floor: 3 } }));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--on-conflict', 'merge']);
    assert.equal(result.code, 0, result.stderr);
    const ann = (await usersByName(kind, db.databaseUrl)).get('m.ann');
    assert.equal(ann?.department, null);
    assert.deepEqual(ann?.legacy_ids, ['crm:9']);
    assert.deepEqual(ann?.attributes, { team: 'north', floor: 3 });
    assert.equal(ann?.display_name, 'Ann', 'a member the record lacks is kept');
  });

  it('merge from JSON Lines takes null wherever PATCH does: lists and attributes emptied, a name part removed; null for a required member is refused', async () => {
    await reset();
    const file = join(dir, 'nulls.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ username: 'm.ann', email_address: 'ann@example.com', legacy_ids: null, attributes: null, name: { given_name: 'Ann', family_name: 'Lee' } }),
        JSON.stringify({ username: 'm.ann', email_address: 'ann@example.com', name: { family_name: null } }),
        JSON.stringify({ username: 'm.bo', email_address: 'bo@example.com', active: null }),
      ].join('\n'),
    );
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--on-conflict', 'merge']);
    assert.equal(result.code, 1);
    assert.deepEqual({ ...parseSummary(result.stdout), report: undefined }, { created: 0, updated: 2, unchanged: 0, skipped: 0, rejected: 1, records: 3, report: undefined });
    const users = await usersByName(kind, db.databaseUrl);
    assert.deepEqual(users.get('m.ann')?.legacy_ids, []);
    assert.deepEqual(users.get('m.ann')?.attributes, {});
    assert.deepEqual(users.get('m.ann')?.name, { given_name: 'Ann' });
    assert.equal(users.get('m.bo')?.active, true);
    const [entry] = readFileSync(`${file}.report.jsonl`, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { line: number; reason: string });
    assert.equal(entry?.line, 3);
    assert.match(entry?.reason ?? '', /\/active/);
  });

  it('replace counts a deactivated user that it makes active again among the cleared', async () => {
    await reset();
    const off = join(dir, 'off.jsonl');
    writeFileSync(off, JSON.stringify({ username: 'm.bo', email_address: 'bo@example.com', active: false }));
    assert.equal((await runCli(['import', off, '--database-url', db.databaseUrl, '--on-conflict', 'merge'])).code, 0);
    const file = join(dir, 'back-on.jsonl');
    writeFileSync(file, JSON.stringify({ ...FULL[1] }));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--on-conflict', 'replace']);
    assert.match(result.stderr, /cleared fields of 1 user \(active 1\)/);
    assert.equal((await usersByName(kind, db.databaseUrl)).get('m.bo')?.active, true);
  });

  it('a record whose keys belong to two users is skipped with a reason that says so, whatever the mode', async () => {
    await reset();
    const file = join(dir, 'two-users.jsonl');
    writeFileSync(file, JSON.stringify({ username: 'm.ann', email_address: 'bo@example.com' }));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--on-conflict', 'merge']);
    assert.equal(parseSummary(result.stdout).skipped, 1);
    assert.match(readFileSync(`${file}.report.jsonl`, 'utf8'), /"reason":"email_address is held by another user than the record's other keys \(an import never merges two users\)"/);
  });

  it('a merge whose result is not a valid user is rejected with the reason, and the user is left as it was', async () => {
    await reset();
    // Each half fits the attributes limit (16 KiB); merged, they do not.
    const half = 'x'.repeat(9000);
    const first = join(dir, 'big-1.jsonl');
    writeFileSync(first, JSON.stringify({ ...FULL[1], attributes: { a: half } }));
    assert.equal((await runCli(['import', first, '--database-url', db.databaseUrl, '--on-conflict', 'merge'])).code, 0);
    const second = join(dir, 'big-2.jsonl');
    writeFileSync(second, JSON.stringify({ username: 'm.bo', email_address: 'bo@example.com', attributes: { b: half } }));
    const result = await runCli(['import', second, '--database-url', db.databaseUrl, '--on-conflict', 'merge']);
    assert.equal(result.code, 1);
    assert.deepEqual({ ...parseSummary(result.stdout), report: undefined }, { created: 0, updated: 0, unchanged: 0, skipped: 0, rejected: 1, records: 1, report: undefined });
    const [entry] = readFileSync(`${second}.report.jsonl`, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { line: number; reason: string; errors: { pointer: string }[] });
    assert.equal(entry?.line, 1);
    assert.match(entry?.reason ?? '', /^merged into user [0-9a-f-]{36}: .*attributes/);
    assert.deepEqual(entry?.errors.map((e) => e.pointer), ['/attributes']);
    assert.deepEqual((await usersByName(kind, db.databaseUrl)).get('m.bo')?.attributes, { team: 'south', a: half });
  });

  it('a merge record whose keys are free creates the user, every member it lacks at its default', async () => {
    const file = join(dir, 'new.csv');
    writeFileSync(file, 'username,email_address,department\nm.cy,cy@example.com,Legal\n');
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--on-conflict', 'merge']);
    assert.equal(parseSummary(result.stdout).created, 1);
    const cy = (await usersByName(kind, db.databaseUrl)).get('m.cy');
    assert.equal(cy?.department, 'Legal');
    assert.deepEqual(cy?.legacy_ids, []);
  });
});
