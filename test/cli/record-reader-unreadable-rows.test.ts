/**
 * A CSV file's unreadable rows are reported as the file is read, in file order, held back by
 * the reader as its records are (src/cli/record-reader.ts csvRows): a file of a million rows
 * the parser refuses is never gathered in memory before its first row is reported.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRecords } from '../../src/cli/record-reader.js';

const ROWS = 200_000;

describe('CSV rows the parser cannot read', () => {
  it('are reported in file order while the file is still being read, among the readable ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'record-reader-unreadable-'));
    try {
      const path = join(dir, 'people.csv');
      // Every row but the last has one cell where the header has two: the parser refuses it.
      const rows = Array.from({ length: ROWS }, (_, i) => `only-one-cell-${i}`);
      writeFileSync(path, ['username,email_address', ...rows, 'last,last@example.com'].join('\n') + '\n');
      const source = await openRecords(path, 'csv');
      try {
        let readAtFirst: number | undefined;
        const lines: number[] = [];
        let readable: unknown;
        for await (const item of source.records) {
          readAtFirst ??= source.bytesRead();
          if ('error' in item) {
            assert.match(item.error, /the CSV row cannot be read/);
            lines.push(item.line);
          } else readable = item;
        }
        assert.ok(readAtFirst !== undefined && readAtFirst < source.size / 4, `the first refused row came after ${readAtFirst} of ${source.size} bytes were read`);
        assert.deepEqual(lines, Array.from({ length: ROWS }, (_, i) => i + 2), 'each refused row once, in file order');
        assert.deepEqual(readable, { line: ROWS + 2, record: { username: 'last', email_address: 'last@example.com' } });
      } finally {
        source.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
