/**
 * The import's report: every refused or skipped line as one JSON line (line,
 * outcome, reason, and the key or JSON pointers when there are any).
 *
 * The report's file is created (emptied) when the import starts, before the
 * first row is read, so a folder the import cannot write to is found then, not
 * at the first bad line after thousands of users were written. A stale report
 * never survives: after any run (finished, failed or interrupted) the file
 * holds only lines of that run, and a run that ends with nothing to report
 * removes it. Entries are written a batch at a time with a synchronous write,
 * so an error such as a full disk fails the import there (with its summary and
 * the command that resumes it) instead of going missing.
 */
import { closeSync, constants, ftruncateSync, lstatSync, openSync, readSync, realpathSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';

export interface ReportEntry {
  line: number;
  outcome: 'rejected' | 'skipped';
  reason: string;
  [detail: string]: unknown;
}

export interface ImportReport {
  /** Where the entries go. */
  readonly path: string;
  add(entry: ReportEntry): void;
  /** Writes the entries added since the last flush: the report is then complete through line `through`. */
  flush(through: number): void;
  /** The last line the report is complete through (0 before the first flush). */
  reportedThrough(): number;
  /** Flushes and closes; the report's path, or undefined when nothing was written to it (the file is then removed). */
  close(): string | undefined;
}

/** The report's file cannot be written (`writable` false: must not be): the words of the error, never its stack or syscall. */
export class ReportFileError extends Error {
  constructor(message: string, readonly unwritable: boolean) {
    super(message);
  }
}

const WORDS: Record<string, string> = {
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of its path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'out of space',
  EDQUOT: 'disk quota exceeded',
  EISDIR: 'it is a folder',
  EIO: 'input/output error',
};

export function describeWriteError(path: string, error: unknown): string {
  const code = (error as { code?: string })?.code ?? '';
  return `${path}: cannot be written (${WORDS[code] ?? (error instanceof Error ? error.message.split('\n')[0] : String(error))})`;
}

/** The first line of an existing file, if it has one: enough to tell a report from anything else. */
function firstLine(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).toString('utf8').split('\n')[0] ?? '';
  } finally {
    closeSync(fd);
  }
}

function isReportLine(text: string): boolean {
  try {
    const entry = JSON.parse(text) as Partial<ReportEntry>;
    return typeof entry.line === 'number' && (entry.outcome === 'rejected' || entry.outcome === 'skipped');
  } catch {
    return false;
  }
}

/**
 * Why `path` must not become the report, if it must not: a report replaces only an earlier
 * report (or an empty file), never a symbolic link, the input, the database or any other file.
 * `protect` names the files the run reads or writes; they are compared by device and inode, so
 * no spelling of their path (a link, `..`, another mount of the folder) gets past.
 */
function refusal(path: string, protect: readonly { path: string; what: string }[]): string | undefined {
  // By name too: a file SQLite has not made yet (its -journal) is still the database's.
  const named = canonical(path);
  for (const other of protect) if (named !== undefined && named === canonical(other.path)) return `is ${other.what}`;
  let found;
  try {
    found = lstatSync(path);
  } catch {
    return undefined; // nothing there: the report is created
  }
  if (found.isSymbolicLink()) return 'is a symbolic link: name the file itself';
  if (found.isDirectory()) return 'is a folder';
  if (!found.isFile()) return 'is not a regular file';
  for (const other of protect) {
    const same = statIfAny(other.path);
    if (same !== undefined && same.dev === found.dev && same.ino === found.ino) return `is ${other.what}`;
  }
  if (found.size > 0 && !isReportLine(firstLine(path))) return 'exists and is not an import report: it is not overwritten';
  return undefined;
}

/** The path with its folder's links resolved: two spellings of one place compare equal. */
function canonical(path: string): string | undefined {
  try {
    return join(realpathSync(dirname(resolve(path))), basename(path));
  } catch {
    return undefined;
  }
}

function statIfAny(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Creates (or empties) the report at `path`, after refusal() found nothing against it: a
 * ReportFileError when it cannot be written or must not be. Opened without following a link,
 * so a link made between the check and the open is refused too.
 */
export function openImportReport(path: string, protect: readonly { path: string; what: string }[] = []): ImportReport {
  const refused = refusal(path, protect);
  if (refused !== undefined) throw new ReportFileError(`${path}: ${refused}`, false);
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
  } catch (error) {
    throw new ReportFileError(describeWriteError(path, error), true);
  }
  let pending = '';
  let written = false;
  let completeThrough = 0;
  let size = 0;
  const flush = (through: number) => {
    if (pending === '') {
      completeThrough = Math.max(completeThrough, through);
      return;
    }
    const bytes = Buffer.from(pending);
    try {
      // writeSync may write less than asked (a disk filling up): the rest is written, or it fails.
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset, size + offset);
    } catch (error) {
      // A failed flush takes back what it wrote: the file ends with the last whole batch, never a torn line.
      try {
        ftruncateSync(fd, size);
      } catch {
        // the error below says the report is incomplete; the reportedThrough() line says up to where
      }
      throw new ReportFileError(describeWriteError(path, error), true);
    }
    size += bytes.length;
    written = true;
    completeThrough = Math.max(completeThrough, through);
    pending = '';
  };
  return {
    path,
    add(entry) {
      pending += `${JSON.stringify(entry)}\n`;
    },
    flush,
    reportedThrough: () => completeThrough,
    close() {
      try {
        flush(completeThrough);
      } finally {
        closeSync(fd);
        if (!written) rmSync(path, { force: true });
      }
      return written ? path : undefined;
    },
  };
}

/**
 * Where a report goes when the folder beside the input cannot be written (a
 * read-only mount, say) and `--report` was not given: the system's temporary
 * folder, named after the input and the run's key so runs never share one.
 */
export function fallbackReportPath(file: string, runKey: string): string {
  return join(tmpdir(), `${basename(file)}.${runKey.replace(/[^A-Za-z0-9._-]/g, '_')}.report.jsonl`);
}
