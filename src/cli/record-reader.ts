/**
 * Reads an import file as a stream of records with their line numbers: JSON
 * Lines (one object per line; blank lines skipped) or CSV (a header row; the
 * `legacy_ids` column is `;`-separated, `attributes` holds JSON, empty cells are
 * omitted). Memory stays flat whatever the file's size.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';

export type ImportFormat = 'jsonl' | 'csv';

export type FileRecord = { line: number; record: unknown } | { line: number; error: string };

export interface RecordSource {
  records: AsyncGenerator<FileRecord>;
  /** Bytes of the file read so far, for progress. */
  bytesRead(): number;
}

export function formatOf(path: string, asked?: string): ImportFormat {
  if (asked === 'jsonl' || asked === 'csv') return asked;
  if (asked !== undefined) throw new Error(`--format must be jsonl or csv, got ${asked}`);
  return path.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl';
}

async function* jsonLines(input: NodeJS.ReadableStream): AsyncGenerator<FileRecord> {
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    line += 1;
    if (text.trim() === '') continue;
    try {
      yield { line, record: JSON.parse(text) as unknown };
    } catch {
      yield { line, error: 'the line is not valid JSON' };
    }
  }
}

/** A CSV row as a record: typed cells converted, empty cells left out. */
function csvRecord(row: Record<string, string>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [column, cell] of Object.entries(row)) {
    if (cell === '') continue;
    if (column === 'legacy_ids') record[column] = cell.split(';');
    else if (column === 'attributes') record[column] = JSON.parse(cell) as unknown;
    else if (column === 'version' && /^[0-9]+$/.test(cell)) record[column] = Number(cell);
    else record[column] = cell;
  }
  return record;
}

async function* csvRows(input: NodeJS.ReadableStream): AsyncGenerator<FileRecord> {
  const parser = input.pipe(parse({ columns: true, info: true, relax_column_count: false, skip_empty_lines: true, bom: true }));
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      try {
        yield { line: info.lines, record: csvRecord(record) };
      } catch {
        yield { line: info.lines, error: 'the attributes cell is not valid JSON' };
      }
    }
  } catch (error) {
    const lines = (error as { lines?: number }).lines ?? 0;
    yield { line: lines, error: `the CSV cannot be read further: ${(error as Error).message}` };
  }
}

export function readRecords(path: string, format: ImportFormat): RecordSource {
  const input = createReadStream(path);
  return {
    records: format === 'csv' ? csvRows(input) : jsonLines(input),
    bytesRead: () => input.bytesRead,
  };
}
