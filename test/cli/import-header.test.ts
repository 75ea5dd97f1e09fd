/**
 * An HR export's header as it comes: other names, other case, another
 * delimiter, columns the import does not know. The header is checked once,
 * before any row: a header that does not fit is one line and nothing written;
 * `--map`, `--extra-columns attributes` and `--delimiter` make it fit; the
 * profile fields have columns of their own. Real processes, both stores.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { createTestDatabaseUrl, describeEachStore, type TestDatabaseUrl } from '../helpers/stores.js';
import { storedUsers } from './stored-users.js';
import { parseSummary } from './import-summary.js';
import { runCli } from './run-cli.js';

const allUsers = storedUsers;

/** 5,000 rows under `header`: a file that, read row by row, would fill a report. */
function hrFile(dir: string, name: string, header: string, delimiter = ','): string {
  const rows = Array.from({ length: 5000 }, (_, i) => [`hr.${i}`, `hr.${i}@example.com`, 'Sales'].join(delimiter));
  const path = join(dir, name);
  writeFileSync(path, `${header}\n${rows.join('\n')}\n`);
  return path;
}

describeEachStore('import: the CSV header checked once, before any row', (kind) => {
  let dir: string;
  let db: TestDatabaseUrl;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'user-service-header-'));
    db = await createTestDatabaseUrl(kind);
  });
  after(async () => {
    await db.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  const refusals = [
    { name: 'email-for-email_address.csv', header: 'username,email,department', says: /unknown column "email" \(did you mean email_address\?\); missing email_address\..*--map email=email_address/ },
    { name: 'capitalised.csv', header: 'Username,Email_Address,department', says: /"Username" \(did you mean username\?\), "Email_Address" \(did you mean email_address\?\).*--map Username=username,Email_Address=email_address/ },
    { name: 'semicolons.csv', header: 'username;email_address;department', delimiter: ';', says: /unknown column "username;email_address;department".*give its delimiter with --delimiter ';'/ },
    { name: 'extra-column.csv', header: 'username,email_address,cost_centre_code', says: /unknown column "cost_centre_code".*--extra-columns attributes/ },
    { name: 'twice.csv', header: 'username,email_address,username', says: /"username" appears more than once/ },
  ];
  for (const { name, header, delimiter, says } of refusals) {
    it(`${name}: one line naming the columns and the fix, exit 1, no row written, no report`, async () => {
      const file = hrFile(dir, name, header, delimiter);
      const result = await runCli(['import', file, '--database-url', db.databaseUrl]);
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '', 'no summary: nothing was read');
      const lines = result.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0]!, says);
      assert.match(lines[0]!, /Columns: username and email_address \(required\), uid, legacy_ids/);
      assert.match(lines[0]!, /Nothing was imported\.$/);
      assert.equal((await allUsers(kind, db.databaseUrl)).filter((u) => u.username.startsWith('hr.')).length, 0);
      assert.equal(existsSync(`${file}.report.jsonl`), false);
    });
  }

  it('--map, --delimiter and --extra-columns make an HR export fit: renamed columns, profile columns, the rest in attributes', async () => {
    const file = join(dir, 'hr-export.csv');
    writeFileSync(
      file,
      '\uFEFFLogin;Mail;First Name;Surname;Job Title;dept;Manager;Badge;Floor\r\n' +
        'hr.ann;Ann@Example.com;Ann;Lee;Engineer;R&D;0190a7e4-0000-7000-8000-000000000001;B-7;3\r\n' +
        'hr.bo;bo@example.com;Bo;"Ng; Jr.";;Ops;;;\r\n',
    );
    const result = await runCli([
      'import', file, '--database-url', db.databaseUrl, '--delimiter', ';', '--extra-columns', 'attributes',
      '--map', 'Login=username,Mail=email_address,First Name=given_name,Surname=family_name,Job Title=title,dept=department,Manager=manager',
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(parseSummary(result.stdout), { created: 2, updated: 0, unchanged: 0, skipped: 0, rejected: 0, records: 2 });
    const users = new Map((await allUsers(kind, db.databaseUrl)).map((u) => [u.username, u]));
    const ann = users.get('hr.ann');
    assert.deepEqual(ann?.name, { family_name: 'Lee', given_name: 'Ann' });
    assert.equal(ann?.title, 'Engineer');
    assert.equal(ann?.department, 'R&D');
    assert.deepEqual(ann?.manager, { value: '0190a7e4-0000-7000-8000-000000000001' });
    assert.deepEqual(ann?.attributes, { Badge: 'B-7', Floor: '3' });
    const bo = users.get('hr.bo');
    assert.deepEqual(bo?.name, { family_name: 'Ng; Jr.', given_name: 'Bo' });
    assert.equal(bo?.title, null, 'an empty cell is left out');
    assert.deepEqual(bo?.attributes, {});
  });

  it('--map feeds one column to several fields: an HR export without a username column gives its work email to both', async () => {
    const file = join(dir, 'work-email.csv');
    writeFileSync(file, 'Work Email,First Name\nhr.wm1@example.com,Ann\nhr.wm2@example.com,Bo\n');
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--map', 'Work Email=email_address,Work Email=username,First Name=given_name']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(parseSummary(result.stdout), { created: 2, updated: 0, unchanged: 0, skipped: 0, rejected: 0, records: 2 });
    const ann = (await allUsers(kind, db.databaseUrl)).find((u) => u.email_address === 'hr.wm1@example.com');
    assert.equal(ann?.username, 'hr.wm1@example.com');
    assert.deepEqual(ann?.name, { given_name: 'Ann' });
    const twice = await runCli(['import', file, '--database-url', db.databaseUrl, '--map', 'Work Email=email_address,Work Email=email_address']);
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /--map names Work Email=email_address twice/);
    const clash = join(dir, 'work-email-and-username.csv');
    writeFileSync(clash, 'username,Work Email\nhr.wm3,hr.wm3@example.com\n');
    const refused = await runCli(['import', clash, '--database-url', db.databaseUrl, '--map', 'Work Email=email_address,Work Email=username']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /"username" appears more than once/);
  });

  it('a member given twice in one row (its column and the profile cell) rejects that row only', async () => {
    const file = join(dir, 'twice-in-row.csv');
    writeFileSync(file, 'username,email_address,department,profile\nhr.cy,cy@example.com,Ops,"{""department"":""Legal""}"\nhr.di,di@example.com,Ops,"{""title"":""Lead""}"\n');
    const result = await runCli(['import', file, '--database-url', db.databaseUrl]);
    assert.equal(result.code, 1);
    assert.deepEqual({ ...parseSummary(result.stdout), report: undefined }, { created: 1, updated: 0, unchanged: 0, skipped: 0, rejected: 1, records: 2, report: undefined });
    const [entry] = readFileSync(`${file}.report.jsonl`, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { line: number; reason: string });
    assert.deepEqual(entry, { line: 2, outcome: 'rejected', reason: 'the profile column sets department, which another cell of the row already set' });
  });

  it('columns and attributes named like Object.prototype members are members like any other', async () => {
    const file = join(dir, 'proto.csv');
    writeFileSync(file, 'username,email_address,constructor,__proto__,toString,attributes\nhr.proto,proto@example.com,CEO,P,T,"{""hasOwnProperty"":1,""valueOf"":2}"\n');
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--extra-columns', 'attributes']);
    assert.equal(result.code, 0, result.stderr);
    const user = (await allUsers(kind, db.databaseUrl)).find((u) => u.username === 'hr.proto');
    assert.equal(JSON.stringify(user?.attributes), '{"constructor":"CEO","__proto__":"P","toString":"T","hasOwnProperty":1,"valueOf":2}');
    const refused = await runCli(['import', file, '--database-url', db.databaseUrl]);
    assert.match(refused.stderr, /unknown columns "constructor", "__proto__", "toString"/);
    assert.doesNotMatch(refused.stderr, /native code|function/);
  });

  it('a quote inside a cell is text, and every row ends in one outcome: the counts add up to the rows', async () => {
    const file = join(dir, 'quotes.csv');
    writeFileSync(file, 'username,email_address,display_name\nhr.q1,q1@example.com,"x"y\nhr.q2,q2@example.com,Bob "The" Builder\nhr.q3,q3@example.com,ok\n');
    const result = await runCli(['import', file, '--database-url', db.databaseUrl]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(parseSummary(result.stdout), { created: 3, updated: 0, unchanged: 0, skipped: 0, rejected: 0, records: 3 });
    const names = new Map((await allUsers(kind, db.databaseUrl)).map((u) => [u.username, u.display_name]));
    assert.equal(names.get('hr.q1'), '"x"y');
    assert.equal(names.get('hr.q2'), 'Bob "The" Builder');
  });

  it('a run refused at its header leaves the database as it was: one that did not exist is not created', async () => {
    const file = hrFile(dir, 'no-db.csv', 'username,email');
    const missing = kind === 'sqlite' ? join(dir, 'never.db') : undefined;
    const result = await runCli(['import', file, '--database-url', missing === undefined ? db.databaseUrl : `sqlite:${missing}`]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /the header does not fit/);
    if (missing !== undefined) assert.equal(existsSync(missing), false);
  });

  it('an empty CSV, one holding only a byte-order mark or blank lines, and a header the parser cannot read are header errors', async () => {
    for (const [name, text, says] of [
      ['empty.csv', '', /the file has no header row \(it is empty\)/],
      ['bom.csv', '\uFEFF', /the file has no header row/],
      ['blank.csv', '\n\n\n', /the file has no header row/],
      ['open-quote.csv', 'username,"email_address\nhr.z,z@example.com\n', /the header row cannot be read \(the CSV row cannot be read: Quote Not Closed/],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const result = await runCli(['import', file, '--database-url', db.databaseUrl]);
      assert.equal(result.code, 1, `${name}: ${result.stderr}`);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, says, name);
      assert.equal(existsSync(`${file}.report.jsonl`), false);
    }
  });

  it('a trailing delimiter in the header is a column without a name: empty cells in it are fine, a value is an error of its row', async () => {
    const file = join(dir, 'trailing.csv');
    writeFileSync(file, 'username,email_address,\nhr.t1,t1@example.com,\nhr.t2,t2@example.com,stray\n');
    const result = await runCli(['import', file, '--database-url', db.databaseUrl]);
    assert.equal(result.code, 1);
    assert.deepEqual({ ...parseSummary(result.stdout), report: undefined }, { created: 1, updated: 0, unchanged: 0, skipped: 0, rejected: 1, records: 2, report: undefined });
    assert.match(readFileSync(`${file}.report.jsonl`, 'utf8'), /"line":3,"outcome":"rejected","reason":"column 3 has a cell but no name in the header"/);
  });

  it('usage errors before anything is opened: --map to a column that does not exist, CSV options on JSON Lines, a delimiter of two characters', async () => {
    const file = hrFile(dir, 'usage.csv', 'username,email_address,department');
    const cases: [string[], RegExp][] = [
      [['--map', 'mail=e_mail'], /--map mail=e_mail: e_mail is not an import column \(did you mean email_address\?\)/],
      [['--map', 'mail'], /--map takes FROM=TO pairs/],
      [['--delimiter', ';;'], /--delimiter must be one character/],
      [['--extra-columns', 'profile'], /--extra-columns takes one value: attributes/],
      [['--format', 'jsonl', '--delimiter', ';'], /--delimiter is for CSV files/],
      [['--format', 'xml'], /--format must be jsonl or csv/],
      [['--on-conflict', 'constructor'], /--on-conflict must be skip, fail, merge/],
      [['--on-conflict', '__proto__'], /--on-conflict must be skip, fail, merge/],
      [['--batch-size', '1e3'], /--batch-size must be an integer/],
    ];
    for (const [args, says] of cases) {
      const result = await runCli(['import', file, '--database-url', db.databaseUrl, ...args]);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, says);
    }
    assert.equal((await allUsers(kind, db.databaseUrl)).filter((u) => u.username.startsWith('hr.') && u.department === 'Sales').length, 0);
  });

  it('an export in CSV imports again into an empty store as the same users, profile included', async () => {
    const source = (await allUsers(kind, db.databaseUrl)).filter((u) => u.username.startsWith('hr.'));
    const exported = await runCli(['export', '--format', 'csv', '--database-url', db.databaseUrl]);
    assert.equal(exported.code, 0, exported.stderr);
    const file = join(dir, 'export.csv');
    writeFileSync(file, exported.stdout);
    const fresh = await createTestDatabaseUrl(kind);
    try {
      const result = await runCli(['import', file, '--database-url', fresh.databaseUrl]);
      assert.equal(result.code, 0, result.stderr);
      const copy = (await allUsers(kind, fresh.databaseUrl)).filter((u) => u.username.startsWith('hr.'));
      assert.deepEqual(copy, source);
    } finally {
      await fresh.remove();
    }
  });
});
