/**
 * `user-service import FILE`: loads users from JSON Lines or CSV, validated by
 * the API's own rules, in batched transactions (each user all or nothing), and
 * safe to re-run: `--on-conflict` decides what an existing key does (skip, the
 * default; fail: stop there; update: replace the one user holding the keys, and
 * leave an equal one alone). Refused and skipped lines go to a report file (JSON
 * Lines: line, outcome, reason). Streams, so memory stays flat.
 */
import { createWriteStream, statSync, type WriteStream } from 'node:fs';
import type { OnConflict } from '../store/import-plan.js';
import type { UserStore } from '../store/user-store.js';
import type { User } from '../users/user.js';
import { createRecordChecker } from './import-records.js';
import { createProgress } from './progress.js';
import { readRecords, type ImportFormat } from './record-reader.js';

export interface ImportOptions {
  file: string;
  format: ImportFormat;
  onConflict: OnConflict;
  reportPath: string;
  batchSize: number;
  progress: NodeJS.WriteStream;
}

export interface ImportSummary {
  created: number;
  updated: number;
  skipped: number;
  rejected: number;
  /** With --on-conflict fail: the line the import stopped at. */
  stoppedAt?: number;
}

/** The report file, opened on its first line only. */
function reportWriter(path: string) {
  let out: WriteStream | undefined;
  return {
    write(entry: Record<string, unknown>) {
      out ??= createWriteStream(path);
      out.write(`${JSON.stringify(entry)}\n`);
    },
    async close() {
      if (out) await new Promise<void>((resolve, reject) => out!.end((error?: Error | null) => (error ? reject(error) : resolve())));
    },
  };
}

export async function importUsers(store: UserStore, options: ImportOptions): Promise<ImportSummary> {
  const summary: ImportSummary = { created: 0, updated: 0, skipped: 0, rejected: 0 };
  const report = reportWriter(options.reportPath);
  const check = createRecordChecker(() => new Date().toISOString());
  const source = readRecords(options.file, options.format);
  const progress = createProgress(options.progress, statSync(options.file).size, 'import');
  // Refused lines wait in the batch too, so the report lists every line in file order.
  let batch: ({ line: number; user: User } | { line: number; refused: Record<string, unknown> })[] = [];
  let seen = 0;

  const flush = async (): Promise<boolean> => {
    if (batch.length === 0) return true;
    const users = batch.flatMap((b) => ('user' in b ? [b.user] : []));
    const outcomes = users.length > 0 ? await store.importUsers(users, options.onConflict, new Date().toISOString()) : [];
    let next = 0;
    for (const entry of batch) {
      const { line } = entry;
      if ('refused' in entry) {
        summary.rejected += 1;
        report.write({ line, outcome: 'rejected', ...entry.refused });
        continue;
      }
      const outcome = outcomes[next++];
      if (outcome === undefined) break; // --on-conflict fail stopped before this user
      if (outcome.status === 'created') summary.created += 1;
      else if (outcome.status === 'updated') summary.updated += 1;
      else if (outcome.status === 'unchanged') summary.skipped += 1;
      else if (options.onConflict === 'fail') {
        summary.rejected += 1;
        summary.stoppedAt = line;
        report.write({ line, outcome: 'rejected', reason: `${outcome.key} is already taken; stopped (--on-conflict fail)`, key: outcome.key });
      } else {
        summary.skipped += 1;
        report.write({ line, outcome: 'skipped', reason: `${outcome.key} is already taken`, key: outcome.key });
      }
    }
    batch = [];
    return summary.stoppedAt === undefined;
  };

  try {
    for await (const entry of source.records) {
      seen += 1;
      if ('error' in entry) batch.push({ line: entry.line, refused: { reason: entry.error } });
      else {
        const result = check(entry.record);
        if (result.ok) batch.push({ line: entry.line, user: result.user });
        else batch.push({ line: entry.line, refused: { reason: result.reason, ...(result.errors ? { errors: result.errors } : {}) } });
      }
      if (batch.length >= options.batchSize && !(await flush())) break;
      progress.update(seen, source.bytesRead());
    }
    await flush();
  } finally {
    progress.finish();
    await report.close();
  }
  return summary;
}
