/**
 * Exports as they are passed around: gzip-compressed (found by the gzip magic
 * number, whatever the name), and CSV saved as `.txt`, which the import reads as
 * JSON Lines by its name: its first line is recognised as a CSV header and the
 * refusal says `--format csv`. Real CLI processes, both stores.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, it } from 'node:test';
import { createTestDatabaseUrl, describeEachStore, type TestDatabaseUrl } from '../helpers/stores.js';
import { parseSummary } from './import-summary.js';
import { runCli } from './run-cli.js';
import { storedUsers } from './stored-users.js';

const csv = (tag: string, delimiter = ',') =>
  [['username', 'email_address', 'given_name'], ...[1, 2, 3].map((i) => [`${tag}.${i}`, `${tag}.${i}@example.com`, `Zoë ${i}`])].map((row) => row.join(delimiter)).join('\r\n') + '\r\n';

describeEachStore('import: compressed files and CSV under another name', (kind) => {
  let dir: string;
  let db: TestDatabaseUrl;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'user-service-compressed-'));
    db = await createTestDatabaseUrl(kind);
  });
  after(async () => {
    await db.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  const usernames = async (tag: string) => (await storedUsers(kind, db.databaseUrl, tag)).map((u) => `${u.username} ${u.name?.given_name}`).sort();

  it('a gzip-compressed CSV (users.csv.gz) is read as the CSV it holds', async () => {
    const file = join(dir, 'users.csv.gz');
    writeFileSync(file, gzipSync(csv('gzcsv')));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(parseSummary(result.stdout).created, 3);
    assert.deepEqual(await usernames('gzcsv'), ['gzcsv.1 Zoë 1', 'gzcsv.2 Zoë 2', 'gzcsv.3 Zoë 3']);
  });

  it('gzip is found by its magic bytes, not the name: JSON Lines compressed and saved as .txt, in two gzip members', async () => {
    const file = join(dir, 'export.txt');
    const line = (i: number) => `${JSON.stringify({ username: `gzjsonl.${i}`, email_address: `gzjsonl.${i}@example.com`, name: { given_name: `Zoë ${i}` } })}\n`;
    writeFileSync(file, Buffer.concat([gzipSync(line(1) + line(2)), gzipSync(line(3))]));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(await usernames('gzjsonl'), ['gzjsonl.1 Zoë 1', 'gzjsonl.2 Zoë 2', 'gzjsonl.3 Zoë 3']);
  });

  it('a gzip file cut short is one line saying it is compressed and damaged; nothing is written', async () => {
    const file = join(dir, 'cut.csv.gz');
    const whole = gzipSync(csv('gzcut'));
    writeFileSync(file, whole.subarray(0, whole.length - 12));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /cut\.csv\.gz: is gzip-compressed, and its compressed data cannot be read \(unexpected end of file\): the file is damaged or cut short/);
    assert.deepEqual(await usernames('gzcut'), []);
  });

  it('a CSV saved as .txt is refused at its header with the --format csv (and --delimiter) that reads it, not reported row by row', async () => {
    for (const [name, delimiter, options] of [['hr-export.txt', ',', '--format csv'], ['hr-semicolons.txt', ';', "--format csv --delimiter ';'"]] as const) {
      const file = join(dir, name);
      writeFileSync(file, csv('txt', delimiter));
      const result = await runCli(['import', file, '--database-url', db.databaseUrl]);
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      const lines = result.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.equal(lines[0], `user-service: ${file}: line 1 is not JSON but reads as a CSV header (username, email_address, given_name): the file is read as JSON Lines because its name does not end in .csv; give ${options}. Nothing was imported.`);
      assert.equal(existsSync(`${file}.report.jsonl`), false);
      const again = await runCli(['import', file, '--database-url', db.databaseUrl, ...options.replace(/'/g, '').split(' ')]);
      assert.equal(again.code, 0, again.stderr);
    }
    assert.equal((await usernames('txt')).length, 3);
  });

  it('a JSON Lines file whose first line is broken JSON is still reported line by line', async () => {
    const file = join(dir, 'broken.jsonl');
    writeFileSync(file, `{"username":"brk.1","email_address":\n${JSON.stringify({ username: 'brk.2', email_address: 'brk.2@example.com' })}\n`);
    const result = await runCli(['import', file, '--database-url', db.databaseUrl]);
    assert.equal(result.code, 1);
    assert.equal(parseSummary(result.stdout).rejected, 1);
    assert.deepEqual(await usernames('brk'), ['brk.2 undefined']);
  });
});
