/**
 * `user-service import FILE`: loads users from JSON Lines or CSV, validated by
 * the API's own rules, in batched transactions (each user all or nothing), and
 * safe to re-run: `--on-conflict` decides what an existing key does (skip, the
 * default; fail: stop there; update: replace the one user holding the keys, and
 * leave an equal one alone). Refused and skipped lines go to a report file.
 * Streams, so memory stays flat.
 *
 * Contract: every record read ends in exactly one outcome (created, updated,
 * unchanged, skipped or rejected), so the summary's counts add up to the records
 * read. With `--on-conflict fail` the import ends at the conflicting line: the
 * counts cover the records up to it, and nothing after it is written.
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
import type { ImportOutcome, OnConflict } from '../store/import-plan.js';
import { IdempotencyKeyTaken } from '../store/store-errors.js';
import type { BatchIdempotency, UserStore } from '../store/user-store.js';
import type { User } from '../users/user.js';
import { openImportReport, type ImportReport } from './import-report.js';
import { createRecordChecker } from './import-records.js';
import { createProgress } from './progress.js';
import { openRecords, type ImportFormat } from './record-reader.js';

export interface ImportOptions {
  file: string;
  format: ImportFormat;
  onConflict: OnConflict;
  reportPath: string;
  batchSize: number;
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
  /** With --on-conflict update: users already equal to their record, left alone. */
  unchanged: number;
  skipped: number;
  rejected: number;
  /** Records that ended in one of the outcomes above: always their sum. */
  records: number;
  /** Of those, records whose outcome an earlier run with the same --idempotency-key recorded. */
  replayed: number;
  /** With --on-conflict fail: the line the import stopped at. */
  stoppedAt?: number;
  /** The report file, when anything was reported. */
  report?: string;
}

type Entry = { line: number; user: User } | { line: number; refused: { reason: string; errors?: unknown } };

/** A batch being read: its entries, and a digest of the records as read (for --idempotency-key). */
interface Batch {
  entries: Entry[];
  digest: ReturnType<typeof createHash>;
}

const newBatch = (): Batch => ({ entries: [], digest: createHash('sha256') });

/** Counts each entry of a written batch and reports what needs reporting, in file order. */
function accountBatch(batch: Entry[], outcomes: Awaited<ReturnType<UserStore['importUsers']>>, onConflict: OnConflict, summary: ImportSummary, report: ImportReport): void {
  let next = 0;
  for (const entry of batch) {
    if (summary.stoppedAt !== undefined) break; // --on-conflict fail: nothing after the stop counts
    summary.records += 1;
    const { line } = entry;
    if ('refused' in entry) {
      summary.rejected += 1;
      report.add({ line, outcome: 'rejected', ...entry.refused });
      continue;
    }
    const outcome = outcomes[next++];
    if (outcome === undefined) throw new Error(`the store returned no outcome for line ${line}`);
    if (outcome.status !== 'conflict') summary[outcome.status] += 1;
    else if (onConflict === 'fail') {
      summary.rejected += 1;
      summary.stoppedAt = line;
      report.add({ line, outcome: 'rejected', reason: `${outcome.key} is already taken; stopped (--on-conflict fail)`, key: outcome.key });
    } else {
      summary.skipped += 1;
      report.add({ line, outcome: 'skipped', reason: `${outcome.key} is already taken`, key: outcome.key });
    }
  }
  report.flush();
}

export async function importUsers(store: UserStore, options: ImportOptions): Promise<ImportSummary> {
  const source = await openRecords(options.file, options.format);
  const summary: ImportSummary = { created: 0, updated: 0, unchanged: 0, skipped: 0, rejected: 0, records: 0, replayed: 0 };
  const report = openImportReport(options.reportPath);
  const check = createRecordChecker(() => new Date().toISOString());
  const progress = createProgress(options.progress, source.size, 'import');
  let inFlight: Promise<void> | undefined;

  /** Waits for the batch being written, and its accounting. */
  const settle = async () => {
    const writing = inFlight;
    inFlight = undefined;
    await writing;
  };
  let batchNumber = 0;
  /** Writes a batch's users, or with --idempotency-key takes the outcomes an earlier run recorded for it. */
  const write = async (users: User[], digest: string): Promise<ImportOutcome[]> => {
    batchNumber += 1;
    const run = options.idempotency;
    const now = new Date().toISOString();
    if (run === undefined) return store.importUsers(users, options.onConflict, now);
    const key: BatchIdempotency = { scope: IMPORT_KEY_SCOPE, key: `${run.key}#${batchNumber}`, fingerprint: digest, expiresAt: Date.now() + run.ttlMs };
    try {
      return await store.importUsers(users, options.onConflict, now, key);
    } catch (error) {
      if (!(error instanceof IdempotencyKeyTaken)) throw error;
      const record = await store.findIdempotency(key.scope, key.key, Date.now());
      if (record === undefined || record.fingerprint !== digest) {
        throw new ImportKeyMismatch(`batch ${batchNumber} of the run with --idempotency-key ${run.key} held other records (or ${options.onConflict} was not its --on-conflict): use a new key for a new import`);
      }
      const outcomes = JSON.parse(record.response.body) as ImportOutcome[];
      summary.replayed += outcomes.length;
      return outcomes;
    }
  };

  /** Starts writing `batch` once the one before it is written; false once the import has stopped. */
  const submit = async (batch: Batch): Promise<boolean> => {
    await settle();
    if (summary.stoppedAt !== undefined) return false;
    const users = batch.entries.flatMap((entry) => ('user' in entry ? [entry.user] : []));
    batch.digest.update(options.onConflict);
    const written = users.length > 0 ? write(users, batch.digest.digest('base64url')) : Promise.resolve([]);
    inFlight = written.then((outcomes) => accountBatch(batch.entries, outcomes, options.onConflict, summary, report));
    inFlight.catch(() => {}); // the failure surfaces at the next settle()
    return true;
  };

  let batch = newBatch();
  let read = 0;
  try {
    for await (const entry of source.records) {
      read += 1;
      // The records as read, not as checked: an import assigns new uids on every run.
      if (options.idempotency) batch.digest.update(JSON.stringify([entry.line, 'error' in entry ? entry.error : entry.record]));
      if ('error' in entry) batch.entries.push({ line: entry.line, refused: { reason: entry.error } });
      else {
        const result = check(entry.record);
        if (result.ok) batch.entries.push({ line: entry.line, user: result.user });
        else batch.entries.push({ line: entry.line, refused: { reason: result.reason, ...(result.errors ? { errors: result.errors } : {}) } });
      }
      if (batch.entries.length >= options.batchSize) {
        if (!(await submit(batch))) break;
        batch = newBatch();
      }
      if ((read & 63) === 0) {
        progress.update(read, source.bytesRead());
        // Lines already buffered are read without returning to the event loop: yield, so the
        // round trips of the batch being written are answered now, not after this chunk of the file.
        if (inFlight !== undefined) await new Promise((resolve) => setImmediate(resolve));
      }
    }
    if (batch.entries.length > 0) await submit(batch);
    await settle();
    progress.update(read, source.bytesRead());
  } finally {
    await inFlight?.catch(() => {}); // never leave a write running behind an error
    source.close();
    progress.finish();
    const written = report.close();
    if (written !== undefined) summary.report = written;
  }
  return summary;
}

/** The line an import ends with: every count, the rate, where the report is (or that there was nothing to report). */
export function summaryLine(summary: ImportSummary, seconds: number): string {
  const counts = `created ${summary.created}, updated ${summary.updated}, unchanged ${summary.unchanged}, skipped ${summary.skipped}, rejected ${summary.rejected}`;
  const rate = `(${summary.records} records in ${seconds.toFixed(1)} s, ${Math.round(summary.records / Math.max(seconds, 0.001))}/s)`;
  const stopped = summary.stoppedAt !== undefined ? `; stopped at line ${summary.stoppedAt} (--on-conflict fail)` : '';
  const replayed = summary.replayed > 0 ? `; ${summary.replayed} of them as recorded by an earlier run with this --idempotency-key` : '';
  const report = summary.report !== undefined ? `; refused and skipped lines: ${summary.report}` : '; nothing to report';
  return `${counts} ${rate}${replayed}${stopped}${report}`;
}
