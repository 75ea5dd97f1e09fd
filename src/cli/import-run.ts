/**
 * `user-service import` as a command: its options checked before anything is
 * opened, the report's location checked writable before the first row, and an
 * honest end whatever happens. Every run has an idempotency key (the one given
 * with `--idempotency-key`, or one made here and printed first), so every run can
 * be resumed: on SIGTERM, SIGINT or a fatal error after something was written,
 * the run says how many users it committed, up to which line, and the exact
 * command that resumes it (the same arguments with the key), which replays the
 * committed batches and writes the rest (import-command.ts). A second signal
 * ends the process at once, after the same lines.
 */
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import type { loadConfig } from '../config.js';
import type { OnConflict } from '../store/import-plan.js';
import { openStore, refuseMissingSqliteFolder } from '../store/open-store.js';
import type { UserStore } from '../store/user-store.js';
import { UsageError, type ParsedArguments } from './arguments.js';
import { HeaderError, parseColumnMap } from './csv-columns.js';
import { clearedWarning, emptySummary, ImportKeyMismatch, importUsers, summaryLine, type ImportSummary } from './import-command.js';
import { boundImportHeap } from './import-heap.js';
import { fallbackReportPath, openImportReport, ReportFileError, type ImportReport } from './import-report.js';
import { InputFileError } from './input-file-error.js';
import { formatOf, type CsvOptions } from './record-reader.js';
import { shellWord } from './shell-word.js';
import { encodingOf, ENCODING_NAMES } from './text-decoding.js';

/**
 * The planner's statistics of what the import wrote (docs/deployment.md: with autovacuum
 * off, nothing else gathers them). A failure is said, not fatal: the users are written.
 */
async function refreshStatistics(store: UserStore): Promise<void> {
  try {
    await store.refreshStatistics();
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    process.stderr.write(`user-service: the users are written, but the planner's statistics were not refreshed (${why}); run ANALYZE users, user_keys, user_emails, user_terms\n`);
  }
}

/**
 * Builds the indexes the store set aside for a load into an empty directory (load then index:
 * store/deferred-indexes.ts), saying so first: for millions of users it takes a while. A
 * failure is said, not fatal: the users are written, and the store builds what is missing
 * whenever it opens (the service's start, `user-service migrate`, the next import).
 */
async function buildSetAsideIndexes(store: UserStore): Promise<void> {
  process.stderr.write('user-service: building the indexes set aside for the load into an empty directory\n');
  const started = Date.now();
  try {
    const { indexes, words } = await store.finishBulkLoad();
    const what = [...(words ? ['the word and facet index'] : []), `${indexes} ${indexes === 1 ? 'index' : 'indexes'}`].join(' and ');
    process.stderr.write(`user-service: ${what} built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    process.stderr.write(`user-service: the users are written, but the indexes set aside for the load were not built (${why}); the service builds them when it next opens the store, as does user-service migrate\n`);
  }
}

/** `--on-conflict` values; `update` is `merge` (a file with fewer columns never clears the others). */
const ON_CONFLICT = new Map<string, OnConflict>([['skip', 'skip'], ['fail', 'fail'], ['merge', 'merge'], ['update', 'merge'], ['replace', 'replace']]);

/**
 * Records per transaction unless --batch-size says otherwise. On SQLite a commit
 * writes every B-tree page the batch touched to the WAL, and keys in file order
 * are scattered over the index, so larger batches write each page for more
 * records: 5,000 imported twice as fast as 1,000. PostgreSQL gains nothing above
 * 1,000, and its larger batches only cost memory (docs/performance.md, "Import").
 */
export const DEFAULT_BATCH_SIZE = { sqlite: 5000, postgres: 1000 } as const;

export const IMPORT_OPTIONS = {
  format: 'value',
  'on-conflict': 'value',
  report: 'value',
  'batch-size': 'value',
  'idempotency-key': 'value',
  map: 'value',
  'extra-columns': 'value',
  delimiter: 'value',
  encoding: 'value',
} as const;

const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/** A key for a run started without one: when it started, and enough randomness that two runs never share it. */
export function generatedRunKey(now = new Date()): string {
  return `import-${now.toISOString().replace(/[-:]|\.\d+/g, '')}-${randomBytes(4).toString('hex')}`;
}

/** A database URL's password, masked: a printed command is read by more eyes than the one who typed it. */
const masked = (arg: string) => arg.replace(/(postgres(?:ql)?:\/\/[^:@/\s]*):[^/\s]*@/i, '$1:***@');

/**
 * The command that resumes this run: its own arguments with its key, and a word on what it
 * leaves out (a password, a DATABASE_URL the environment gave) so it is run against the same store.
 */
export function resumeCommand(argv: readonly string[], runKey: string, given: boolean, databaseFromEnvironment: boolean): { command: string; note?: string } {
  const program = process.env.npm_command === 'exec' ? 'npx user-service' : 'user-service';
  const args = argv.map(masked);
  const command = [program, ...args.map(shellWord), ...(given ? [] : ['--idempotency-key', shellWord(runKey)])].join(' ');
  const hidden = args.some((arg, i) => arg !== argv[i]);
  const fromEnvironment = databaseFromEnvironment && !argv.some((arg) => arg === '--database-url' || arg.startsWith('--database-url='));
  const notes = [...(hidden ? ['with the password where *** stands'] : []), ...(fromEnvironment ? ['with the same DATABASE_URL in the environment'] : [])];
  return notes.length === 0 ? { command } : { command, note: `run it ${notes.join(', and ')}` };
}

function csvOptions(options: ParsedArguments['options'], format: 'csv' | 'jsonl'): CsvOptions | undefined {
  const csvOnly = ['map', 'extra-columns', 'delimiter'].filter((name) => options[name] !== undefined);
  if (format !== 'csv') {
    if (csvOnly.length > 0) throw new UsageError(`--${csvOnly[0]} is for CSV files (this one is read as JSON Lines)`);
    return undefined;
  }
  const extra = options['extra-columns'];
  if (extra !== undefined && extra !== 'attributes') throw new UsageError('--extra-columns takes one value: attributes');
  const delimiter = options.delimiter === undefined ? ',' : String(options.delimiter);
  const char = delimiter === 'tab' || delimiter === '\\t' ? '\t' : delimiter;
  if ([...char].length !== 1 || /[\r\n"]/.test(char)) throw new UsageError('--delimiter must be one character (or tab), not a quote or a line break');
  let map;
  try {
    map = parseColumnMap(options.map === undefined ? undefined : String(options.map));
  } catch (error) {
    if (error instanceof HeaderError) throw new UsageError(error.message);
    throw error;
  }
  return { delimiter: char, map, extraToAttributes: extra === 'attributes' };
}

/**
 * Opens the report where asked; when the default place beside the input cannot be written, the
 * fallback, said on stderr. The input and the SQLite database are never the report, whatever
 * path names them (import-report.ts).
 */
function openReport(file: string, asked: string | undefined, runKey: string, databasePath: string | undefined): ImportReport {
  // An input that is not a file (a pipe, /dev/stdin) has no folder of its own to write beside.
  const beside = asked === undefined && !isRegularFile(file) ? undefined : `${file}.report.jsonl`;
  const path = asked ?? beside ?? fallbackReportPath(file, runKey);
  const protect = [{ path: file, what: 'the input file' }, ...(databasePath === undefined ? [] : ['', '-wal', '-shm', '-journal'].map((end) => ({ path: `${databasePath}${end}`, what: 'the database' })))];
  try {
    return openImportReport(path, protect);
  } catch (error) {
    if (!(error instanceof ReportFileError) || !error.unwritable || asked !== undefined || beside === undefined) throw error;
    const fallback = openImportReport(fallbackReportPath(file, runKey), protect);
    process.stderr.write(`user-service: the report ${error.message}; it goes to ${fallback.path} instead\n`);
    return fallback;
  }
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return true; // a missing input is said by the import itself
  }
}

/** SIGTERM and SIGINT stop the run (the first after the batch being written, said at once; a second at once). */
function watchSignals(onSecond: (signal: string) => void): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const handler = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) return onSecond(signal);
    process.stderr.write(`user-service: ${signal}: stopping after the batch being written (a second signal stops at once)\n`);
    controller.abort(signal);
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGTERM', handler);
      process.off('SIGINT', handler);
    },
  };
}

/** How a resume command is printed: the command alone on its line, so it can be pasted. */
const resumeLines = (resume: { command: string; note?: string }) => `resume with: ${resume.command}${resume.note === undefined ? '' : `\nuser-service: ${resume.note}`}`;

/** What a run that did not reach the end of its file committed, and how to go on. */
function endNote(summary: ImportSummary, why: string, resume: { command: string; note?: string } | undefined): string {
  const committed = summary.created + summary.updated;
  const reported = summary.reportedThrough ?? summary.lastLine;
  const where =
    summary.lastLine === 0
      ? 'nothing was written'
      : `the records up to line ${summary.lastLine} are committed or refused, nothing after it` +
        (reported >= summary.lastLine ? '' : reported === 0 ? '; the report holds none of the refused and skipped lines' : `; the report holds the refused and skipped lines up to line ${reported} only`);
  const next = resume === undefined ? '' : `\nuser-service: ${resumeLines(resume)}`;
  return `user-service: ${why}: ${committed} ${committed === 1 ? 'user' : 'users'} committed (created ${summary.created}, updated ${summary.updated}); ${where}${next}\n`;
}

export async function runImport({ options, positionals }: ParsedArguments, config: () => ReturnType<typeof loadConfig>, argv: readonly string[]): Promise<number> {
  const file = positionals[0];
  if (positionals.length !== 1 || file === undefined) throw new UsageError('import takes exactly one FILE');
  const onConflict = ON_CONFLICT.get(String(options['on-conflict'] ?? 'skip'));
  if (onConflict === undefined) throw new UsageError('--on-conflict must be skip, fail, merge (or update, the same) or replace');
  const { store: storeConfig, idempotencyTtlMs } = config();
  const givenKey = options['idempotency-key'];
  if (givenKey !== undefined && (typeof givenKey !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(givenKey))) throw new UsageError('--idempotency-key must be 1–200 visible ASCII characters');
  const runKey = givenKey ?? generatedRunKey();
  const batchOption = options['batch-size'];
  if (batchOption !== undefined && !/^[0-9]+$/.test(String(batchOption))) throw new UsageError('--batch-size must be an integer from 1 to 100000');
  const batchSize = Number(batchOption ?? DEFAULT_BATCH_SIZE[storeConfig.kind]);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 100_000) throw new UsageError('--batch-size must be an integer from 1 to 100000');
  const asked = options.format === undefined ? undefined : String(options.format);
  if (asked !== undefined && asked !== 'jsonl' && asked !== 'csv') throw new UsageError('--format must be jsonl or csv');
  const format = formatOf(file, asked);
  const csv = csvOptions(options, format);
  const encoding = options.encoding === undefined ? undefined : encodingOf(String(options.encoding));
  if (options.encoding !== undefined && encoding === undefined) throw new UsageError(`--encoding must be ${ENCODING_NAMES}`);
  const askedReport = options.report === undefined ? undefined : String(options.report);
  const resume = resumeCommand(argv, runKey, givenKey !== undefined, process.env.DATABASE_URL !== undefined);
  boundImportHeap();
  const summary = emptySummary();
  const started = Date.now();
  const finish = () => {
    process.stdout.write(`${summaryLine(summary, (Date.now() - started) / 1000)}\n`);
    const warning = clearedWarning(summary);
    if (warning !== undefined) process.stderr.write(`user-service: ${warning}\n`);
  };
  // The store is opened at the first write; a mistyped SQLite folder is refused before anything is read.
  refuseMissingSqliteFolder(storeConfig);
  let store: UserStore | undefined;
  let storeFailed = false;
  /** Whether the store set indexes aside for this load (an empty directory: load then index). */
  let bulkLoad = false;
  const storeNow = async () => {
    if (store !== undefined) return store;
    try {
      store = await openStore(storeConfig, { bulkWrites: true });
    } catch (error) {
      storeFailed = true;
      throw error;
    }
    bulkLoad = await store.beginBulkLoad();
    return store;
  };
  const indexed = async () => {
    if (store !== undefined && bulkLoad) await buildSetAsideIndexes(store);
    bulkLoad = false;
  };
  let report: ImportReport | undefined;
  const openReportFile = () => (report = openReport(file, askedReport, runKey, storeConfig.kind === 'sqlite' && storeConfig.path !== ':memory:' ? storeConfig.path : undefined));
  const signals = watchSignals((signal) => {
    finish();
    process.stderr.write(endNote(summary, `stopped at once by a second ${signal}; the batch being written may or may not have committed`, resume));
    try {
      report?.close(); // removed when it holds nothing
    } catch {
      // what the report could not take is said by the lines above
    }
    // The default action of the signal ends the process at once, also with a read blocked on a stalled pipe.
    signals.dispose();
    process.kill(process.pid, signal);
  });
  try {
    const note = givenKey === undefined ? { firstWriteNote: `user-service: this run's key is ${runKey}; if it stops, ${resumeLines(resume)}` } : {};
    const csvPart = { ...(csv === undefined ? {} : { csv }), ...(encoding === undefined ? {} : { encoding }) };
    const idempotency = { key: runKey, ttlMs: idempotencyTtlMs };
    await importUsers(storeNow, { file, format, ...csvPart, onConflict, openReport: openReportFile, batchSize, progress: process.stderr, stop: signals.signal, idempotency, ...note }, summary);
    await indexed();
    if (store !== undefined) await refreshStatistics(store);
    finish();
    if (summary.interrupted !== undefined) {
      process.stderr.write(endNote(summary, `interrupted by ${summary.interrupted}`, resume));
      return SIGNAL_EXIT[summary.interrupted] ?? 1;
    }
    return summary.rejected > 0 ? 1 : 0;
  } catch (error) {
    // Nothing written yet (a missing file, a header that does not fit, a store that cannot be opened): the error alone says it all.
    if (summary.records === 0 && (error instanceof InputFileError || error instanceof ReportFileError || storeFailed)) throw error;
    await indexed();
    finish();
    const why = `stopped by an error: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`;
    // A key whose batches hold other records cannot resume this file.
    process.stderr.write(endNote(summary, why, error instanceof ImportKeyMismatch ? undefined : resume));
    return 1;
  } finally {
    signals.dispose();
    await store?.close();
  }
}
