/**
 * Reads an import file as a stream of records with their line numbers: JSON
 * Lines (one object per line; blank lines skipped) or CSV (a header row; the
 * `legacy_ids` column is `;`-separated, `attributes` holds JSON, `profile` a JSON
 * object whose members become the record's, `active` is `true` or `false`; empty
 * cells are omitted). Memory stays flat whatever the file's size.
 *
 * Contract: every record of the file comes out exactly once, in file order,
 * either parsed or as an error naming its line. A malformed line or row never
 * ends the stream: csv-parse skips a broken record (`skip_records_with_error`)
 * and reports it through `on_skip`, and the skipped record is merged back into
 * the stream at its line. Only a failure to read the file itself ends it (an
 * InputFileError).
 */
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { InputFileError, describeFileError } from './input-file-error.js';

export type ImportFormat = 'jsonl' | 'csv';

export type FileRecord = { line: number; record: unknown } | { line: number; error: string };

export interface RecordSource {
  records: AsyncIterable<FileRecord>;
  /** Size of the file in bytes, for progress. */
  size: number;
  /** Bytes of the file read so far, for progress. */
  bytesRead(): number;
  /** Closes the file (also when the records were not read to the end). */
  close(): void;
}

export function formatOf(path: string, asked?: string): ImportFormat {
  if (asked === 'jsonl' || asked === 'csv') return asked;
  if (asked !== undefined) throw new Error(`--format must be jsonl or csv, got ${asked}`);
  return path.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl';
}

async function* jsonLines(input: NodeJS.ReadableStream): AsyncGenerator<FileRecord> {
  let line = 0;
  for await (const raw of createInterface({ input, crlfDelay: Infinity })) {
    line += 1;
    // A byte-order mark is not part of the first record.
    const text = line === 1 && raw.startsWith('\uFEFF') ? raw.slice(1) : raw;
    if (text.trim() === '') continue;
    try {
      yield { line, record: JSON.parse(text) as unknown };
    } catch {
      yield { line, error: 'the line is not valid JSON' };
    }
  }
}

/** A CSV row as a record: typed cells converted, empty cells left out. Throws when the attributes or profile cell is not JSON. */
function csvRecord(row: Record<string, string>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [column, cell] of Object.entries(row)) {
    if (cell === '') continue;
    if (column === 'legacy_ids') record[column] = cell.split(';');
    else if (column === 'attributes') record[column] = JSON.parse(cell) as unknown;
    else if (column === 'profile') Object.assign(record, profileCell(cell));
    else if (column === 'active' && (cell === 'true' || cell === 'false')) record[column] = cell === 'true';
    else if (column === 'version' && /^[0-9]+$/.test(cell)) record[column] = Number(cell);
    else record[column] = cell;
  }
  return record;
}

/** The members of a `profile` cell; a cell that is not a JSON object is an error of its row. */
function profileCell(cell: string): Record<string, unknown> {
  const value = JSON.parse(cell) as unknown;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new SyntaxError('the profile cell is not a JSON object');
  return value as Record<string, unknown>;
}

interface CsvSkip {
  line: number;
  error: string;
}

async function* csvRows(input: NodeJS.ReadableStream): AsyncGenerator<FileRecord> {
  // Skipped records, in file order; each is emitted before the first parsed record after it.
  const skipped: CsvSkip[] = [];
  const parser = parse({
    columns: true,
    info: true,
    skip_empty_lines: true,
    bom: true,
    skip_records_with_error: true,
    on_skip: (error) => {
      skipped.push({ line: Number(error?.lines ?? 0), error: `the CSV row cannot be read: ${error?.message ?? 'unknown error'}` });
      return undefined;
    },
  });
  // pipeline() hands a read error of the file to the parser, which ends the iteration with it.
  const piping = pipeline(input, parser);
  piping.catch(() => {}); // surfaced by the iteration below
  for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
    while (skipped.length > 0 && skipped[0]!.line < info.lines) yield skipped.shift()!;
    try {
      yield { line: info.lines, record: csvRecord(record) };
    } catch {
      yield { line: info.lines, error: 'the attributes or profile cell is not a valid JSON object' };
    }
  }
  await piping;
  yield* skipped;
}

/** Opens the file first, so a missing or unreadable file is one InputFileError before anything is read. */
export async function openRecords(path: string, format: ImportFormat): Promise<RecordSource> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new InputFileError(path, describeFileError(error));
  }
  const stat = await handle.stat();
  if (stat.isDirectory()) {
    await handle.close();
    throw new InputFileError(path, 'is a directory');
  }
  const input = handle.createReadStream();
  const records = format === 'csv' ? csvRows(input) : jsonLines(input);
  return {
    records: readErrorsAsInputErrors(path, records),
    size: stat.size,
    bytesRead: () => input.bytesRead,
    close: () => input.destroy(),
  };
}

/** An error that ends the file early (a read error, a CSV header csv-parse refuses) becomes an InputFileError naming the file. */
async function* readErrorsAsInputErrors(path: string, records: AsyncGenerator<FileRecord>): AsyncGenerator<FileRecord> {
  try {
    yield* records;
  } catch (error) {
    throw new InputFileError(path, describeFileError(error));
  }
}
