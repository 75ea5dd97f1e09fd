/**
 * `user-service import FILE`: loads users from JSON Lines or CSV, validated by
 * the API's own rules, in batched transactions (each user all or nothing), and
 * safe to re-run: `--on-conflict` decides what an existing key does (skip, the
 * default; fail: stop there; merge, also called update: apply the members the
 * record carries to the one user holding its keys; replace: make that user the
 * record; an equal user is left alone). Refused and skipped lines go to a report
 * file. Streams, so memory stays flat.
 *
 * Contract: every record read ends in exactly one outcome (created, updated,
 * unchanged, skipped or rejected), so the summary's counts add up to the records
 * read. With `--on-conflict fail` the import ends at the conflicting line: the
 * counts cover the records up to it, and nothing after it is written. When the
 * run is stopped (`stop` aborts: SIGTERM, SIGINT) it reads no further (at the
 * next record: a stalled pipe is read until it gives one or ends), writes no
 * batch after the one being written, waits for that, and returns with
 * `interrupted` set; the counts are then those of the batches committed. An error leaves the counts so far in the
 * summary the caller passed, so it can say what was committed.
 *
 * One batch is written while the next is read and validated, so the store's work
 * (a database server's, on PostgreSQL) overlaps with parsing; batches are still
 * written and accounted strictly in file order.
 *
 * With `--idempotency-key KEY` a run is safe to repeat, as a POST with an
 * Idempotency-Key is: each batch's outcomes are stored under KEY and the batch's
 * number, in the batch's own transaction. A later run with the same KEY (after a
 * crash, a kill, a lost terminal) does not write those batches again: it counts
 * their outcomes as first recorded (reported as replayed) and goes on with the
 * rest. A batch whose records differ from the recorded one (the file changed)
 * stops the run: use a new key for a new import. Keys expire like the API's
 * (IDEMPOTENCY_TTL_S). Without the option every run writes, so re-importing a
 * file to restore users always restores them.
 */
import { createHash } from 'node:crypto';
import type { ImportOutcome, ImportUser, OnConflict } from '../store/import-plan.js';
import { IdempotencyKeyTaken } from '../store/store-errors.js';
import type { BatchIdempotency, UserStore } from '../store/user-store.js';
import { ReportFileError, type ImportReport } from './import-report.js';
import { createRecordChecker } from './import-records.js';
import { createProgress, type Progress } from './progress.js';
import { openRecords, type CsvOptions, type ImportFormat } from './record-reader.js';
import type { Encoding } from './text-decoding.js';

export interface ImportOptions {
  file: string;
  format: ImportFormat;
  /** How a CSV file's header and cells are read. */
  csv?: CsvOptions;
  /** `--encoding`: undefined for UTF-8 (or what a byte-order mark says). */
  encoding?: Encoding;
  onConflict: OnConflict;
  /** Opens the report: called once the input is open and before its first row is read, so a missing input leaves no report and an unwritable report stops the run before anything is written. */
  openReport: () => ImportReport;
  batchSize: number;
  /** Aborted to stop the run after the batch being written (SIGTERM, SIGINT); the reason names why. */
  stop?: AbortSignal;
  /** A line shown just before the first batch is written (after the header was accepted): how to resume. */
  firstWriteNote?: string;
  /** Where progress goes (a bar on a terminal, plain lines otherwise). */
  progress: NodeJS.WriteStream;
  /** `--idempotency-key`: the run's key, and how long its batches are remembered (ms). */
  idempotency?: { key: string; ttlMs: number };
}

/** The scope of import keys: apart from every credential's (an id cannot hold parentheses and be an import). */
export const IMPORT_KEY_SCOPE = '(import)';

/** A batch recorded under the run's key holds other records: the file is not the one the key was used for. */
export class ImportKeyMismatch extends Error {}

export interface ImportSummary {
  created: number;
  updated: number;
  /** With merge or replace: users already equal to what their record makes of them, left alone. */
  unchanged: number;
  skipped: number;
  rejected: number;
  /** Records that ended in one of the outcomes above: always their sum. */
  records: number;
  /** Of those, records whose outcome an earlier run with the same --idempotency-key recorded. */
  replayed: number;
  /** The line of the last record accounted: every record up to it is committed, unchanged or refused. */
  lastLine: number;
  /** The line of the last entry the report file holds. */
  reportedThrough?: number;
  /** With replace: how many updated users had fields cleared, and how many users each field was cleared in. */
  cleared: { users: number; fields: Record<string, number> };
  /** With --on-conflict fail: the line the import stopped at. */
  stoppedAt?: number;
  /** Set when the run was stopped before the end of the file: why (e.g. SIGTERM). */
  interrupted?: string;
  /** The report file, when anything was reported. */
  report?: string;
}

export function emptySummary(): ImportSummary {
  return { created: 0, updated: 0, unchanged: 0, skipped: 0, rejected: 0, records: 0, replayed: 0, lastLine: 0, cleared: { users: 0, fields: {} } };
}

type Entry = { line: number; user: ImportUser } | { line: number; refused: { reason: string; errors?: unknown } };

/**
 * A batch being read: its entries, and the text its digest (for --idempotency-key) is taken
 * of, hashed once when the batch is written: SHA-256 of the parts in turn is SHA-256 of their
 * concatenation, so the digest is the one a hash updated record by record gives.
 */
interface Batch {
  entries: Entry[];
  digested: string[];
  /** Length of the records' text so far (UTF-16 units of their JSON). */
  size: number;
}

const newBatch = (): Batch => ({ entries: [], digested: [], size: 0 });

/**
 * A batch also ends once its records' JSON text reaches this many UTF-16 units (about as
 * many bytes for the text an HR file holds), whatever --batch-size says: a file of large
 * users (16 KiB of attributes each) then writes batches of a few hundred, so the two batches
 * held at once (one read, one written) stay within the import's memory whatever the file.
 * It depends on the records alone, so a resumed run numbers its batches as the first did.
 */
export const BATCH_TEXT_MAX = 4 * 1024 * 1024;

/** Counts each entry of a written batch and reports what needs reporting, in file order. */
function accountBatch(batch: Entry[], outcomes: Awaited<ReturnType<UserStore['importUsers']>>, onConflict: OnConflict, summary: ImportSummary, report: ImportReport): void {
  let next = 0;
  for (const entry of batch) {
    if (summary.stoppedAt !== undefined) break; // --on-conflict fail: nothing after the stop counts
    summary.records += 1;
    const { line } = entry;
    summary.lastLine = line;
    if ('refused' in entry) {
      summary.rejected += 1;
      report.add({ line, outcome: 'rejected', ...entry.refused });
      continue;
    }
    const outcome = outcomes[next++];
    if (outcome === undefined) throw new Error(`the store returned no outcome for line ${line}`);
    if (outcome.status === 'invalid') {
      summary.rejected += 1;
      report.add({ line, outcome: 'rejected', reason: `merged into user ${outcome.uid}: ${outcome.reason}`, uid: outcome.uid, ...(outcome.errors ? { errors: outcome.errors } : {}) });
    } else if (outcome.status !== 'conflict') {
      summary[outcome.status] += 1;
      if (outcome.status === 'updated' && outcome.cleared) countCleared(summary, outcome.cleared);
    } else if (onConflict === 'fail') {
      summary.rejected += 1;
      summary.stoppedAt = line;
      report.add({ line, outcome: 'rejected', reason: `${outcome.key} is already taken; stopped (--on-conflict fail)`, key: outcome.key });
    } else {
      summary.skipped += 1;
      // With merge or replace a held key is a conflict only when another user holds the record's other keys.
      const reason = onConflict === 'skip' ? `${outcome.key} is already taken` : `${outcome.key} is held by another user than the record's other keys (an import never merges two users)`;
      report.add({ line, outcome: 'skipped', reason, key: outcome.key });
    }
  }
  report.flush(summary.lastLine);
}

function countCleared(summary: ImportSummary, fields: readonly string[]): void {
  summary.cleared.users += 1;
  for (const field of fields) summary.cleared.fields[field] = (summary.cleared.fields[field] ?? 0) + 1;
}

/**
 * Imports the file into the store `storeNow` opens, counting into `summary` (also when it
 * throws). The store is opened at the first write, so a run refused at its input, its report
 * or its header never touches the database.
 */
export async function importUsers(storeNow: () => Promise<UserStore>, options: ImportOptions, summary: ImportSummary = emptySummary()): Promise<ImportSummary> {
  // What was assumed of the file's encoding is said before anything else.
  const note = (line: string) => void options.progress.write(`user-service: ${options.file}: ${line}\n`);
  const source = await openRecords(options.file, options.format, options.csv, { ...(options.encoding === undefined ? {} : { encoding: options.encoding }), note });
  let report: ImportReport;
  try {
    report = options.openReport();
  } catch (error) {
    source.close();
    throw error;
  }
  const check = createRecordChecker(() => new Date().toISOString());
  // Drawn from the first record on: a file refused at its header shows only the refusal.
  let bar: Progress | undefined;
  const progress = () => (bar ??= createProgress(options.progress, source.size, 'import'));
  let inFlight: Promise<void> | undefined;

  /** Waits for the batch being written, and its accounting. */
  const settle = async () => {
    const writing = inFlight;
    inFlight = undefined;
    await writing;
  };
  let batchNumber = 0;
  /** Writes a batch's users, or with --idempotency-key takes the outcomes an earlier run recorded for it. */
  const write = async (users: ImportUser[], digest: string): Promise<ImportOutcome[]> => {
    batchNumber += 1;
    if (batchNumber === 1 && options.firstWriteNote !== undefined) progress().note(options.firstWriteNote);
    const run = options.idempotency;
    const store = await storeNow();
    const now = new Date().toISOString();
    if (run === undefined) return store.importUsers(users, options.onConflict, now);
    const key: BatchIdempotency = { scope: IMPORT_KEY_SCOPE, key: `${run.key}#${batchNumber}`, fingerprint: digest, expiresAt: Date.now() + run.ttlMs };
    try {
      return await store.importUsers(users, options.onConflict, now, key);
    } catch (error) {
      if (!(error instanceof IdempotencyKeyTaken)) throw error;
      const record = await store.findIdempotency(key.scope, key.key, Date.now());
      if (record === undefined || record.fingerprint !== digest) {
        throw new ImportKeyMismatch(`batch ${batchNumber} of the run with --idempotency-key ${run.key} held other records: the file, its --batch-size or its --on-conflict (${options.onConflict} now) differ from that run's; use a new key for a new import`);
      }
      const outcomes = JSON.parse(record.response.body) as ImportOutcome[];
      summary.replayed += outcomes.length;
      return outcomes;
    }
  };

  const stopped = () => options.stop?.aborted === true;
  /** Starts writing `batch` once the one before it is written; false once the import has stopped (or was stopped). */
  const submit = async (batch: Batch): Promise<boolean> => {
    await settle();
    if (summary.stoppedAt !== undefined || stopped()) return false;
    const users = batch.entries.flatMap((entry) => ('user' in entry ? [entry.user] : []));
    batch.digested.push(options.onConflict);
    const written = users.length > 0 ? write(users, createHash('sha256').update(batch.digested.join('')).digest('base64url')) : Promise.resolve([]);
    inFlight = written.then((outcomes) => accountBatch(batch.entries, outcomes, options.onConflict, summary, report));
    inFlight.catch(() => {}); // the failure surfaces at the next settle()
    return true;
  };

  let batch = newBatch();
  let read = 0;
  /** Whether the file was left before its end (a stop, or --on-conflict fail). */
  let cut = false;
  try {
    for await (const entry of source.records) {
      if (stopped()) {
        cut = true;
        break;
      }
      read += 1;
      // The records as read, not as checked: an import assigns new uids on every run.
      const text = JSON.stringify([entry.line, 'error' in entry ? entry.error : entry.record]);
      batch.size += text.length;
      if (options.idempotency) batch.digested.push(text);
      if ('error' in entry) batch.entries.push({ line: entry.line, refused: { reason: entry.error } });
      else {
        const result = check(entry.record);
        if (result.ok) batch.entries.push({ line: entry.line, user: result.user });
        else batch.entries.push({ line: entry.line, refused: { reason: result.reason, ...(result.errors ? { errors: result.errors } : {}) } });
      }
      if (batch.entries.length >= options.batchSize || batch.size >= BATCH_TEXT_MAX) {
        if (!(await submit(batch))) {
          cut = true;
          break;
        }
        batch = newBatch();
      }
      if ((read & 63) === 0) {
        progress().update(read, source.bytesRead(), summary.replayed);
        // Lines already buffered are read without returning to the event loop: yield, so the
        // round trips of the batch being written are answered now, not after this chunk of the file.
        if (inFlight !== undefined) await new Promise((resolve) => setImmediate(resolve));
      }
    }
    if (batch.entries.length > 0) await submit(batch);
    await settle();
  } finally {
    await inFlight?.catch(() => {}); // never leave a write running behind an error
    // The bar ends on what was read, also when an error ended the run.
    if (read > 0) progress().update(read, source.bytesRead());
    source.close();
    bar?.finish();
    summary.reportedThrough = report.reportedThrough();
    try {
      const written = report.close();
      if (written !== undefined) summary.report = written;
    } catch (error) {
      // The report's last lines could not be written: it still holds the earlier ones.
      summary.report = report.path;
      if (!(error instanceof ReportFileError)) throw error;
    }
  }
  // A stop that came after the last record was accounted interrupted nothing.
  if (stopped() && (cut || summary.records < read)) summary.interrupted = String(options.stop?.reason ?? 'stopped');
  return summary;
}

/** The line an import ends with: every count, the rate, where the report is (or that there was nothing to report). */
export function summaryLine(summary: ImportSummary, seconds: number): string {
  const counts = `created ${summary.created}, updated ${summary.updated}, unchanged ${summary.unchanged}, skipped ${summary.skipped}, rejected ${summary.rejected}`;
  const rate = `(${summary.records} ${summary.records === 1 ? 'record' : 'records'} in ${seconds.toFixed(1)} s, ${Math.round(summary.records / Math.max(seconds, 0.001))}/s)`;
  const stopped = summary.stoppedAt !== undefined ? `; stopped at line ${summary.stoppedAt} (--on-conflict fail)` : '';
  const replayed = summary.replayed > 0 ? `; ${summary.replayed} of them as recorded by an earlier run with this --idempotency-key` : '';
  const report = summary.report !== undefined ? `; refused and skipped lines: ${summary.report}` : '; nothing to report';
  return `${counts} ${rate}${replayed}${stopped}${report}`;
}

/** With replace, the warning that fields were cleared: how many users, which fields in how many; undefined when none were. */
export function clearedWarning(summary: ImportSummary): string | undefined {
  const { users, fields } = summary.cleared;
  if (users === 0) return undefined;
  const which = Object.entries(fields).map(([field, n]) => `${field} ${n}`).join(', ');
  return `warning: --on-conflict replace cleared fields of ${users} ${users === 1 ? 'user' : 'users'} (${which}): what the file lacks was reset to its default; --on-conflict merge keeps it`;
}
