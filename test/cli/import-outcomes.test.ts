/**
 * Every record read ends in exactly one outcome, and a malformed line never ends
 * the import: bad JSON lines and broken CSV rows at the start, in the middle, on
 * both sides of a batch boundary and at the end are rejected with their line
 * numbers, every valid record around them is written, and the counts add up to
 * the records in the file. Real CLI processes, real files, both stores.
 */
import assert from 'node:assert/strict';
import { queryWords } from '../../src/users/search-words.js';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { createTestDatabaseUrl, describeEachStore, openTestStoreAt, type StoreKind, type TestDatabaseUrl } from '../helpers/stores.js';
import { parseSummary } from './import-summary.js';
import { runCli } from './run-cli.js';

type Format = 'jsonl' | 'csv';

const BAD: Record<Format, string[]> = {
  jsonl: ['{ not json', '[1, 2]', '{"username": "unterminated'],
  csv: ['only-one-column', 'too,many,columns,here', 'q1,ab"c@example.com,Q-1'],
};

function goodRow(format: Format, tag: string, i: number): string {
  const [username, email, legacy] = [`${tag}.${i}`, `${tag}.${i}@example.com`, `${tag}:${i}`];
  return format === 'jsonl' ? JSON.stringify({ username, email_address: email, legacy_ids: [legacy] }) : `${username},${email},${legacy}`;
}

/** Writes `count` records, the ones at the 1-based positions in `bad` malformed; returns the file and the bad records' line numbers. */
async function writeFile(dir: string, format: Format, tag: string, count: number, bad: number[], last = '\n'): Promise<{ file: string; badLines: number[] }> {
  const file = join(dir, `${tag}.${format}`);
  const out = createWriteStream(file);
  const header = format === 'csv' ? 1 : 0;
  if (header) out.write('username,email_address,legacy_ids\n');
  for (let i = 1; i <= count; i++) {
    const row = bad.includes(i) ? BAD[format][i % BAD[format].length]! : goodRow(format, tag, i);
    out.write(i === count ? `${row}${last}` : `${row}\n`);
  }
  await new Promise((resolve) => out.end(resolve));
  return { file, badLines: bad.map((i) => i + header) };
}

async function countUsers(kind: StoreKind, url: string, prefix: string): Promise<number> {
  const store = await openTestStoreAt(kind, url);
  try {
    return (await store.search({ filter: { words: queryWords(prefix) }, limit: 1000 })).value.length;
  } finally {
    await store.close();
  }
}

describeEachStore('import: every record ends in one outcome', (kind) => {
  let dir: string;
  let db: TestDatabaseUrl;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'user-service-outcomes-'));
    db = await createTestDatabaseUrl(kind);
  });
  after(async () => {
    await db.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const format of ['jsonl', 'csv'] as const) {
    it(`${format}: bad records at the start, in the middle, on both sides of a batch boundary and at the end are rejected; the rest are written`, async () => {
      const tag = `edge${format}`;
      // Batches of 10: records 10 and 11 are the last of the first batch and the first of the second.
      const bad = [1, 6, 10, 11, 20, 25];
      const { file, badLines } = await writeFile(dir, format, tag, 25, bad, '');
      const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--batch-size', '10']);
      assert.equal(result.code, 1, result.stderr);
      const summary = parseSummary(result.stdout);
      assert.deepEqual({ ...summary, report: undefined }, { created: 19, updated: 0, unchanged: 0, skipped: 0, rejected: 6, records: 25, report: undefined });
      assert.equal(summary.report, `${file}.report.jsonl`);
      const report = readFileSync(`${file}.report.jsonl`, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { line: number; outcome: string; reason: string });
      assert.deepEqual(report.map((r) => [r.line, r.outcome]), badLines.map((line) => [line, 'rejected']));
      assert.equal(await countUsers(kind, db.databaseUrl, `${tag}.`), 19);
    });

    it(`${format}: the issue's reproduction: 20,000 valid rows, one single-column row, 100 valid rows`, async () => {
      const tag = `repro${format}`;
      const { file, badLines } = await writeFile(dir, format, tag, 20_101, [20_001]);
      const result = await runCli(['import', file, '--database-url', db.databaseUrl], {}, 600_000);
      assert.equal(result.code, 1, result.stderr);
      const summary = parseSummary(result.stdout);
      assert.deepEqual([summary.created, summary.rejected, summary.records], [20_100, 1, 20_101]);
      const report = readFileSync(`${file}.report.jsonl`, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { line: number });
      assert.deepEqual(report.map((r) => r.line), badLines);
    });
  }
});
