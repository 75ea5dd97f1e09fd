/**
 * A batch of `user-service import` ends at --batch-size records or once its records' text
 * reaches BATCH_TEXT_MAX (4 MiB), whichever comes first, so what the import holds (two
 * batches at once) is bounded by bytes whatever the file's records weigh. Observed through
 * the run's --idempotency-key: each batch's outcomes are stored under the key and the
 * batch's number, in the batch's own transaction, so the stored batches are the batches
 * written.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { BATCH_TEXT_MAX, IMPORT_KEY_SCOPE } from '../../src/cli/import-command.js';
import { createTestDatabaseUrl, describeEachStore, openTestStoreAt, type StoreKind, type TestDatabaseUrl } from '../helpers/stores.js';
import { parseSummary } from './import-summary.js';
import { runCli } from './run-cli.js';

/** Records of about 15 KB each (an `attributes` member near its 16 KiB limit): far fewer than any --batch-size fill 4 MiB. */
const RECORDS = 600;
const record = (i: number) => ({ username: `heavy${i}`, email_address: `heavy${i}@example.com`, attributes: { notes: `${i} `.padEnd(15_000, 'x') } });

/** The records' sizes as the import measures them: the JSON text of each line number and record (import-command.ts). */
const textOf = (i: number) => JSON.stringify([i + 1, record(i)]).length;

/** The number of records in each batch stored under `key`, in batch order. */
async function storedBatches(kind: StoreKind, databaseUrl: string, key: string): Promise<number[]> {
  const store = await openTestStoreAt(kind, databaseUrl);
  try {
    const sizes: number[] = [];
    for (let n = 1; ; n++) {
      const found = await store.findIdempotency(IMPORT_KEY_SCOPE, `${key}#${n}`, Date.now());
      if (found === undefined) return sizes;
      sizes.push((JSON.parse(found.response.body) as unknown[]).length);
    }
  } finally {
    await store.close();
  }
}

describeEachStore('user-service import: batches bounded by bytes', (kind) => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'user-service-import-bytes-'));
    file = join(dir, 'heavy.jsonl');
    writeFileSync(file, Array.from({ length: RECORDS }, (_, i) => JSON.stringify(record(i))).join('\n') + '\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const batchArgs of [[], ['--batch-size', '100000']]) {
    it(`a batch ends once its records' text reaches ${BATCH_TEXT_MAX} UTF-16 units, with ${batchArgs.length === 0 ? 'the default --batch-size' : batchArgs.join(' ')}`, async () => {
      let database: TestDatabaseUrl | undefined;
      try {
        database = await createTestDatabaseUrl(kind);
        const key = `bytes-${batchArgs.length}`;
        const run = await runCli(['import', file, ...batchArgs, '--idempotency-key', key], { DATABASE_URL: database.databaseUrl });
        assert.equal(run.code, 0, run.stderr);
        assert.equal(parseSummary(run.stdout).created, RECORDS);

        const sizes = await storedBatches(kind, database.databaseUrl, key);
        assert.equal(sizes.reduce((a, b) => a + b, 0), RECORDS, `batches of ${sizes.join(', ')}`);
        assert.ok(sizes.length > 1, `the ${RECORDS} records, fewer than the batch size, are written in more than one batch: ${sizes.join(', ')}`);
        let first = 0;
        for (const [n, size] of sizes.entries()) {
          const texts = Array.from({ length: size }, (_, j) => textOf(first + j));
          const total = texts.reduce((a, b) => a + b, 0);
          // Every batch but the last is full by bytes: it reached the bound with its last record, not before.
          if (n < sizes.length - 1) {
            assert.ok(total >= BATCH_TEXT_MAX, `batch ${n + 1} (${size} records, ${total} units) ended before reaching the bound`);
            assert.ok(total - texts.at(-1)! < BATCH_TEXT_MAX, `batch ${n + 1} (${size} records, ${total} units) went on past the bound`);
          } else assert.ok(total < BATCH_TEXT_MAX + texts.at(-1)!, `the last batch (${size} records) holds no more than the bound`);
          first += size;
        }
      } finally {
        await database?.remove();
      }
    });
  }
});
