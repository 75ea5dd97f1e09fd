/**
 * Files as spreadsheets and HR systems save them: Excel's "CSV (Comma
 * delimited)" is windows-1252 (CRLF, no byte-order mark, é as the byte 0xE9),
 * "Unicode Text" is UTF-16 with a byte-order mark. A byte that is not text in the
 * encoding read never becomes U+FFFD in a stored user: the file is refused at its
 * line, with the `--encoding` to give, and nothing is written. Real CLI
 * processes, both stores.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { createTestDatabaseUrl, describeEachStore, type TestDatabaseUrl } from '../helpers/stores.js';
import { parseSummary } from './import-summary.js';
import { runCli, startCli } from './run-cli.js';
import { storedUsers } from './stored-users.js';

/** `text` in windows-1252, byte by byte, as Excel writes it (every character of these rows has a byte). */
function windows1252(text: string): Buffer {
  const extra: Record<string, number> = { '€': 0x80, '’': 0x92, 'Œ': 0x8c };
  return Buffer.from([...text].map((c) => extra[c] ?? c.charCodeAt(0)));
}

const HEADER = 'username,email_address,given_name,family_name,title';
const ROWS = [
  ['jose', 'jose@example.com', 'José', 'García', 'Jefe de ventas €'],
  ['nuno', 'nuno@example.com', 'Nuño', 'Peña', 'Ingénieur d’études'],
  ['zoe', 'zoe@example.com', 'Zoë', 'Œuvrard', 'Directrice'],
];
const csvText = (tag: string, rows = ROWS) => [HEADER, ...rows.map(([u, e, ...rest]) => [`${tag}.${u}`, `${tag}.${e}`, ...rest].join(','))].join('\r\n') + '\r\n';

describeEachStore('import: encodings of spreadsheet exports', (kind) => {
  let dir: string;
  let db: TestDatabaseUrl;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'user-service-encodings-'));
    db = await createTestDatabaseUrl(kind);
  });
  after(async () => {
    await db.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  const names = async (tag: string) =>
    (await storedUsers(kind, db.databaseUrl, tag))
      .map((u) => [u.username, u.name?.given_name, u.name?.family_name, u.title])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  const expected = (tag: string) => ROWS.map(([u, , given, family, title]) => [`${tag}.${u}`, given, family, title]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));

  it('a windows-1252 CSV read with --encoding windows-1252 stores the names as written', async () => {
    const file = join(dir, 'excel.csv');
    writeFileSync(file, windows1252(csvText('w1252')));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--encoding', 'windows-1252']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(parseSummary(result.stdout).created, 3);
    assert.deepEqual(await names('w1252'), expected('w1252'));
  });

  it('iso-8859-1 (latin1) is accepted and read the same way', async () => {
    const file = join(dir, 'latin1.csv');
    writeFileSync(file, windows1252(csvText('latin')));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--encoding', 'latin1']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(await names('latin'), expected('latin'));
  });

  it('without --encoding, a windows-1252 file is refused at its first bad line with the --encoding to give; nothing is stored, even past a committed batch', async () => {
    const file = join(dir, 'excel-plain.csv');
    // 40 ASCII rows, then the accented ones: with --batch-size 10 four batches would be written before line 42.
    const ascii = Array.from({ length: 40 }, (_, i) => [`plain${i}`, `plain${i}@example.com`, 'Ann', 'Lee', 'Clerk']);
    writeFileSync(file, windows1252(csvText('refused', [...ascii, ...ROWS])));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--batch-size', '10']);
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '', 'no summary: nothing was read');
    assert.match(result.stderr, /excel-plain\.csv: line 42 is not valid UTF-8; read as windows-1252 it says "refused\.jose,refused\.jose@example\.com,José,García/);
    assert.match(result.stderr, /give --encoding windows-1252/);
    assert.match(result.stderr, /Nothing was imported\.\n$/);
    assert.doesNotMatch(result.stderr, /\uFFFD/);
    assert.deepEqual(await storedUsers(kind, db.databaseUrl, 'refused'), []);
    assert.equal(existsSync(`${file}.report.jsonl`), false);
  });

  it('a pipe, which cannot be read twice, stops at the bad line: the batches before it are committed, and the resume command with --encoding finishes it', async () => {
    const file = join(dir, 'excel.fifo');
    spawnSync('mkfifo', [file]);
    const ascii = Array.from({ length: 25 }, (_, i) => [`piped${i}`, `piped${i}@example.com`, 'Ann', 'Lee', 'Clerk']);
    const bytes = windows1252(csvText('piped', [...ascii, ...ROWS]));
    const { output, exited } = startCli(['import', file, '--format', 'csv', '--database-url', db.databaseUrl, '--batch-size', '10']);
    await new Promise<void>((resolve) => createWriteStream(file).end(bytes, resolve));
    const { code } = await exited;
    const { stdout, stderr } = output();
    assert.equal(code, 1, stderr);
    assert.equal(parseSummary(stdout).created, 20);
    assert.match(stderr, /stopped by an error: \S+excel\.fifo: line 27 is not valid UTF-8; read as windows-1252 it says "piped\.jose,piped\.jose@example\.com,José,García,Jefe de ventas…".*: 20 users committed \(created 20, updated 0\); the records up to line 21 are committed or refused, nothing after it/);
    assert.doesNotMatch(stderr, /\uFFFD/);
    const resume = /user-service: resume with: user-service import (.+)/.exec(stderr)?.[1];
    assert.ok(resume, stderr);
    const resumed = startCli(['import', ...resume.split(' '), '--encoding', 'windows-1252']);
    await new Promise<void>((resolve) => createWriteStream(file).end(bytes, resolve));
    const finished = await resumed.exited;
    assert.equal(finished.code, 0, resumed.output().stderr);
    assert.deepEqual(parseSummary(resumed.output().stdout), { created: 28, updated: 0, unchanged: 0, skipped: 0, rejected: 0, records: 28, replayed: 20 });
    const piped = await names('piped.');
    assert.equal(piped.length, 28);
    assert.deepEqual(piped.filter(([username]) => !String(username).startsWith('piped.piped')), expected('piped'));
  });

  it('a UTF-16 file with a byte-order mark (LE) is read as such without --encoding, and says what it assumed', async () => {
    const file = join(dir, 'unicode-text.csv');
    writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csvText('u16le'), 'utf16le')]));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /unicode-text\.csv: the file begins with a UTF-16LE byte-order mark: it is read as utf-16le/);
    assert.deepEqual(await names('u16le'), expected('u16le'));
  });

  it('--encoding utf-16 reads a big-endian file by its byte-order mark; utf-16be names it', async () => {
    const bigEndian = (text: string) => Buffer.from(text, 'utf16le').swap16();
    const file = join(dir, 'big-endian.csv');
    writeFileSync(file, Buffer.concat([Buffer.from([0xfe, 0xff]), bigEndian(csvText('u16be'))]));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--encoding', 'utf-16']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(await names('u16be'), expected('u16be'));
    const plain = join(dir, 'big-endian-no-bom.csv');
    writeFileSync(plain, bigEndian(csvText('u16nobom')));
    const named = await runCli(['import', plain, '--database-url', db.databaseUrl, '--encoding', 'utf-16be']);
    assert.equal(named.code, 0, named.stderr);
    assert.deepEqual(await names('u16nobom'), expected('u16nobom'));
  });

  it('a UTF-8 file with a byte-order mark keeps working; a byte-order mark that contradicts --encoding is refused', async () => {
    const file = join(dir, 'utf8-bom.csv');
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csvText('u8bom'))]));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(await names('u8bom'), expected('u8bom'));
    const contradicted = await runCli(['import', file, '--database-url', db.databaseUrl, '--encoding', 'windows-1252']);
    assert.equal(contradicted.code, 1);
    assert.match(contradicted.stderr, /begins with a UTF-8 byte-order mark, but --encoding windows-1252 was given: give --encoding utf-8/);
  });

  it('UTF-16 without a byte-order mark, read as UTF-8, is refused with --encoding utf-16le', async () => {
    const file = join(dir, 'utf16-no-bom.jsonl');
    writeFileSync(file, Buffer.from(`${JSON.stringify({ username: 'nobom.a', email_address: 'nobom.a@example.com', name: { given_name: 'Zoë' } })}\n`, 'utf16le'));
    const result = await runCli(['import', file, '--database-url', db.databaseUrl]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /line 1 is not valid UTF-8 \(it holds zero bytes, as UTF-16 text does\): give --encoding utf-16le/);
  });

  it('an unknown --encoding is a usage error', async () => {
    const result = await runCli(['import', join(dir, 'excel.csv'), '--database-url', db.databaseUrl, '--encoding', 'ebcdic']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--encoding must be utf-8 \(the default\), windows-1252, iso-8859-1 \(latin1\), utf-16/);
  });
});
