/**
 * The import's report: every refused or skipped line as one JSON line (line,
 * outcome, reason, and the key or JSON pointers when there are any).
 *
 * A stale report never survives: the file at the report path is removed when
 * the import starts and created again with the run's first entry, so after any
 * run (finished, failed or interrupted) the file holds only lines of that run,
 * and a run with nothing to report leaves no file. Entries are written a batch
 * at a time with a synchronous write, so an error such as a full disk fails the
 * import there instead of going missing.
 */
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';

export interface ReportEntry {
  line: number;
  outcome: 'rejected' | 'skipped';
  reason: string;
  [detail: string]: unknown;
}

export interface ImportReport {
  add(entry: ReportEntry): void;
  /** Writes the entries added since the last flush. */
  flush(): void;
  /** Flushes and closes; the report's path, or undefined when nothing was reported. */
  close(): string | undefined;
}

export function openImportReport(path: string): ImportReport {
  rmSync(path, { force: true });
  let fd: number | undefined;
  let pending = '';
  const flush = () => {
    if (pending === '') return;
    fd ??= openSync(path, 'w');
    writeSync(fd, pending);
    pending = '';
  };
  return {
    add(entry) {
      pending += `${JSON.stringify(entry)}\n`;
    },
    flush,
    close() {
      flush();
      if (fd === undefined) return undefined;
      closeSync(fd);
      return path;
    },
  };
}
