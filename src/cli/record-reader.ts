/**
 * Reads an import file as a stream of records with their line numbers: JSON
 * Lines (one object per line; blank lines skipped) or CSV (a header row checked
 * before any record, and cells read as csv-columns.ts says). Memory stays flat
 * whatever the file's size.
 *
 * Contract: every record of the file comes out exactly once, in file order,
 * either parsed or as an error naming its line. A malformed line or row never
 * ends the stream: csv-parse skips a broken record (`skip_records_with_error`)
 * and reports it through `on_skip`, and the skipped record is merged back into
 * the stream at its line. Only a failure to read the file itself ends it (an
 * InputFileError).
 *
 * The bytes are gunzipped when the file is gzip-compressed (compressed-input.ts) and
 * decoded as `--encoding` says (text-decoding.ts). A regular file whose encoding can
 * fail (UTF-8, UTF-16) is read through once before its first record, so a byte that
 * is not text in it refuses the file before anything is written; a pipe cannot be
 * read twice, and stops at that line instead.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { CompressedInputError, uncompressedBytes } from './compressed-input.js';
import { CellError, HeaderError, planColumns, type ColumnOptions, type ColumnPlan } from './csv-columns.js';
import { csvHeaderHint } from './format-hint.js';
import { InputFileError, describeFileError } from './input-file-error.js';
import { decodedText, EncodingError, type Encoding } from './text-decoding.js';

export type ImportFormat = 'jsonl' | 'csv';

/** How a CSV file is read: its delimiter (one character) and what its columns mean. */
export interface CsvOptions extends ColumnOptions {
  delimiter: string;
}

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

/** The format `--format` asks, else the name's: `.csv` (also `.csv.gz`) is CSV, anything else JSON Lines. */
export function formatOf(path: string, asked?: string): ImportFormat {
  if (asked === 'jsonl' || asked === 'csv') return asked;
  if (asked !== undefined) throw new Error(`--format must be jsonl or csv, got ${asked}`);
  return path.toLowerCase().replace(/\.gz$/, '').endsWith('.csv') ? 'csv' : 'jsonl';
}

async function* jsonLines(input: NodeJS.ReadableStream): AsyncGenerator<FileRecord> {
  let line = 0;
  let first = true;
  for await (const raw of createInterface({ input, crlfDelay: Infinity })) {
    line += 1;
    // A byte-order mark is not part of the first record.
    const text = line === 1 && raw.startsWith('\uFEFF') ? raw.slice(1) : raw;
    if (text.trim() === '') continue;
    try {
      yield { line, record: JSON.parse(text) as unknown };
    } catch {
      // A CSV file read as JSON Lines (its name does not end in .csv) is one refusal, not a report of every row.
      const hint = first ? csvHeaderHint(text) : undefined;
      if (hint !== undefined) throw new HeaderError(`line ${line} is not JSON but reads as a CSV header (${hint.columns}): the file is read as JSON Lines because its name does not end in .csv; give ${hint.options}. Nothing was imported.`);
      yield { line, error: 'the line is not valid JSON' };
    }
    first = false;
  }
}

interface CsvSkip {
  line: number;
  error: string;
}

/** A row as csv-parse gives it with `info`: its cells, and the line it ends on. */
interface ParsedRow {
  record: string[];
  info: { lines: number };
}

/** A CSV row as a record: each cell read by its column's reader, empty cells left out. */
function csvRecord(plan: ColumnPlan, row: readonly string[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  row.forEach((cell, i) => {
    if (cell !== '') plan.readers[i]!(record, cell);
  });
  return record;
}

async function* csvRows(input: NodeJS.ReadableStream, options: CsvOptions): AsyncGenerator<FileRecord> {
  let plan: ColumnPlan | undefined;
  let lastSkipped = 0;
  // A row the parser cannot read travels through the parser's own output, in file order, as a
  // `skipped` item beside the records: the stream's backpressure holds it as it holds records,
  // so a file of unreadable rows is never gathered in memory before its first row is reported.
  const parser = parse({
    columns: false,
    delimiter: options.delimiter,
    info: true,
    skip_empty_lines: true,
    bom: true,
    // A quote inside a cell that does not start with one is text (`Bob "The" Builder`), as HR exports write it.
    relax_quotes: true,
    skip_records_with_error: true,
    on_skip: (error) => {
      const line = Number(error?.lines ?? 0);
      // One outcome per record: a record the parser fails twice is reported once.
      if (line !== lastSkipped) parser.push({ skipped: { line, error: `the CSV row cannot be read: ${error?.message ?? 'unknown error'}` } });
      lastSkipped = line;
      return undefined;
    },
  });
  // pipeline() hands a read error of the file to the parser, which ends the iteration with it.
  const piping = pipeline(input, parser);
  piping.catch(() => {}); // surfaced by the iteration below
  for await (const item of parser as AsyncIterable<ParsedRow | { skipped: CsvSkip }>) {
    if ('skipped' in item) {
      // The header: a row the parser refused before any was read is the header (nothing is imported).
      if (plan === undefined) throw new HeaderError(`the header row cannot be read (${item.skipped.error}). Nothing was imported.`);
      yield item.skipped;
      continue;
    }
    const { record, info } = item;
    if (plan === undefined) {
      // The header: checked once, before any row is read (a HeaderError ends the import here).
      plan = planColumns(record, options);
      continue;
    }
    try {
      yield { line: info.lines, record: csvRecord(plan, record) };
    } catch (error) {
      if (!(error instanceof CellError)) throw error;
      yield { line: info.lines, error: error.message };
    }
  }
  await piping;
  // No record came out: the file is empty.
  if (plan === undefined) throw new HeaderError('the file has no header row (it is empty). Nothing was imported.');
}

/** How the file's bytes become text. */
export interface TextOptions {
  /** `--encoding`; undefined: UTF-8, or what a byte-order mark says. */
  encoding?: Encoding;
  /** Hears what was assumed of the file (a UTF-16 byte-order mark read without --encoding). */
  note?: (line: string) => void;
}

const DEFAULT_CSV: CsvOptions = { delimiter: ',', map: new Map(), extraToAttributes: false };

/**
 * The text of a byte stream: gunzipped when compressed, decoded. A line that is not text in
 * the encoding ends the stream cleanly after the lines before it, so its reader (readline, the
 * CSV parser) gives every record before that line; `failure()` then says why it ended.
 */
function textOf(bytes: AsyncIterable<Buffer>, text: TextOptions): { stream: Readable; failure(): EncodingError | undefined } {
  let failure: EncodingError | undefined;
  async function* untilBadLine(): AsyncGenerator<string> {
    try {
      yield* decodedText(uncompressedBytes(bytes), text.encoding, text.note);
    } catch (error) {
      if (!(error instanceof EncodingError)) throw error;
      failure = error;
    }
  }
  const stream = Readable.from(untilBadLine());
  // Its reader (readline, the CSV parser) surfaces its errors; one after the reader stopped (the file closed under it) is no news.
  stream.on('error', () => {});
  return { stream, failure: () => failure };
}

/** The records of `records`, then the encoding error that ended the text early, if one did (also in place of the error it caused, such as a missing header). */
async function* thenFailure(records: AsyncGenerator<FileRecord>, failure: () => EncodingError | undefined): AsyncGenerator<FileRecord> {
  try {
    yield* records;
  } catch (error) {
    throw failure() ?? error;
  }
  const ended = failure();
  if (ended !== undefined) throw ended;
}

/** Reads the whole file once as text and drops it: an EncodingError here refuses the file before anything is written. */
async function checkText(path: string, text: TextOptions): Promise<void> {
  const { stream, failure } = textOf(createReadStream(path), text);
  for await (const _ of stream);
  const ended = failure();
  if (ended !== undefined) throw ended;
}

/** Opens the file first, so a missing or unreadable file is one InputFileError before anything is read. */
export async function openRecords(path: string, format: ImportFormat, csv: CsvOptions = DEFAULT_CSV, text: TextOptions = {}): Promise<RecordSource> {
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
  // windows-1252 gives a character for every byte: only the other encodings can refuse a file.
  const checked = stat.isFile() && text.encoding !== 'windows-1252';
  if (checked) {
    try {
      await checkText(path, text);
    } catch (error) {
      await handle.close();
      throw new InputFileError(path, error instanceof EncodingError ? `${error.message}. Nothing was imported.` : inputError(error));
    }
  }
  const input = handle.createReadStream();
  // What the check said of the file is not said twice.
  const decoded = textOf(input, checked ? { encoding: text.encoding } : text);
  const records = thenFailure(format === 'csv' ? csvRows(decoded.stream, csv) : jsonLines(decoded.stream), decoded.failure);
  return {
    records: readErrorsAsInputErrors(path, records),
    size: stat.size,
    bytesRead: () => input.bytesRead,
    close: () => {
      // The text first: its reader must not hear the file closing under it as an error.
      decoded.stream.destroy();
      input.destroy();
    },
  };
}

/** An error that ends the file early (a read error, a header that does not fit) becomes an InputFileError naming the file. */
async function* readErrorsAsInputErrors(path: string, records: AsyncGenerator<FileRecord>): AsyncGenerator<FileRecord> {
  try {
    yield* records;
  } catch (error) {
    throw new InputFileError(path, inputError(error));
  }
}

/** Why the file cannot be read on, in words: the reader's own errors say it; a file-system error is put in words. */
function inputError(error: unknown): string {
  return error instanceof HeaderError || error instanceof EncodingError || error instanceof CompressedInputError ? error.message : describeFileError(error);
}
