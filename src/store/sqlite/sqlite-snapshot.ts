/**
 * A consistent snapshot of a live SQLite store, made on a thread of its own with
 * its own connection, so the event loop that serves requests never waits for it.
 *
 * SQLite's online backup API copies the database in steps; between two steps a
 * write by any other connection makes it start over, so a stepped copy of a store
 * that keeps taking writes would never end. Here the copying connection first
 * opens a read transaction and keeps it for the whole copy: in WAL mode a reader
 * sees one fixed state of the database and never blocks a writer, so every step
 * copies that same state and the copy ends. The counts and the feed position of
 * the manifest are read in the same transaction, so they describe exactly what
 * the copy holds. The WAL cannot be checkpointed past the reader meanwhile: it
 * grows by what is written during the copy and shrinks after (docs/deployment.md).
 *
 * The copy is made under a temporary name in the target's folder, turned into a
 * self-contained file (rollback-journal mode, no -wal beside it), synced and hashed
 * (on the thread too), and renamed; the manifest is written last (snapshot-files.ts).
 */
import { existsSync } from 'node:fs';
import { chmod, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname } from 'node:path';
import { Worker, type MessagePort } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { BackupRefusedError, type SnapshotManifest } from '../store-backup.js';
import { SQLITE_DRIVER_PACKAGE } from './sqlite-driver.js';
import { makingPartial, manifestPath, newManifest, partialPath, publishSnapshot, removeAbandonedPartials } from '../snapshot-files.js';

/**
 * Pages copied per step (4 MiB at the default page size). No step holds the writer (see
 * above); steps only bound how long the thread goes without looking at its messages.
 */
export const PAGES_PER_STEP = 1024;

interface WorkerData {
  driver: string;
  source: string;
  partial: string;
  pagesPerStep: number;
  /** Crash tests only: a pause after each step (TEST_BACKUP_STEP_DELAY_MS). */
  stepDelayMs: number;
}

/** What the thread read in its transaction, or why it failed. */
type WorkerResult =
  | { ok: true; schemaVersion: number; users: number; feedPosition: number; startedAt: string; bytes: number; sha256: string }
  | { ok: false; message: string; code?: string };

/**
 * The thread's whole program, run with `eval` (as wal-checkpointer.ts does) so the
 * unbundled build and the bundle start the same code; it uses only its arguments.
 */
async function snapshotProgram(
  { source, partial, pagesPerStep, stepDelayMs }: WorkerData,
  parentPort: MessagePort,
  Database: typeof BetterSqlite3,
  fs: typeof import('node:fs'),
  crypto: typeof import('node:crypto'),
): Promise<void> {
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new Database(source, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    db.exec('BEGIN');
    // Taken before the transaction's first read: every write acknowledged before it is in the copy.
    const startedAt = new Date().toISOString();
    const tables = new Set(db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[]);
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    const users = tables.has('users') ? (db.prepare('SELECT count(*) FROM users').pluck().get() as number) : 0;
    const feedPosition = tables.has('sqlite_sequence') ? ((db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'").pluck().get() as number | undefined) ?? 0) : 0;
    const pause = new Int32Array(new SharedArrayBuffer(4));
    // The copy's pages are flushed to the disk step by step: left to pile up, hundreds of
    // megabytes would be written back at once, and every commit's fsync of the WAL would
    // queue behind them (the creates' latency during a backup: docs/performance.md).
    let written: number | undefined;
    try {
      await db.backup(partial, {
        progress: () => {
          written ??= fs.openSync(partial, 'r');
          fs.fdatasyncSync(written);
          if (stepDelayMs > 0) Atomics.wait(pause, 0, 0, stepDelayMs);
          return pagesPerStep;
        },
      });
    } finally {
      if (written !== undefined) fs.closeSync(written);
    }
    db.exec('COMMIT');
    db.close();
    db = undefined;
    // The copy keeps the source's WAL mode; one file without a -wal beside it is what a snapshot is.
    const copy = new Database(partial, { fileMustExist: true });
    copy.pragma('journal_mode = DELETE');
    copy.close();
    // Synced and hashed here too: a large file's hash is CPU the event loop need not spend.
    const fd = fs.openSync(partial, 'r');
    const hash = crypto.createHash('sha256');
    let bytes = 0;
    try {
      fs.fsyncSync(fd);
      const buffer = Buffer.allocUnsafe(1 << 20);
      for (let read; (read = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0; bytes += read) hash.update(buffer.subarray(0, read));
    } finally {
      fs.closeSync(fd);
    }
    parentPort.postMessage({ ok: true, schemaVersion, users, feedPosition, startedAt, bytes, sha256: hash.digest('hex') });
  } catch (error) {
    db?.close();
    const e = error as { message?: string; code?: string };
    parentPort.postMessage({ ok: false, message: String(e.message), ...(e.code ? { code: e.code } : {}) });
  }
}

/** A running snapshot thread; `cancel` stops it (a service that stops), leaving only a partial file, which is removed. */
export interface SnapshotRun {
  result: Promise<SnapshotManifest>;
  cancel(): Promise<void>;
}

/** Starts a snapshot of the store file `source` into `target`, which must not exist. */
export function startSnapshot(source: string, target: string, stepDelayMs = 0): SnapshotRun {
  const partial = partialPath(target);
  const driver = createRequire(import.meta.url).resolve(SQLITE_DRIVER_PACKAGE);
  const workerData: WorkerData = { driver, source, partial, pagesPerStep: PAGES_PER_STEP, stepDelayMs };
  let worker: Worker | undefined;
  let cancelled = false;
  const copied = (): Promise<WorkerResult> => {
    if (cancelled) return Promise.resolve({ ok: false, message: 'the snapshot was stopped' });
    const prelude = "const { parentPort, workerData } = require('node:worker_threads');";
    const args = "workerData, parentPort, require(workerData.driver), require('node:fs'), require('node:crypto')";
    worker = new Worker(`${prelude} (${snapshotProgram.toString()})(${args});`, { eval: true, workerData });
    return new Promise((resolve, reject) => {
      worker!.once('message', resolve);
      worker!.once('error', reject);
      worker!.once('exit', () => resolve({ ok: false, message: 'the snapshot was stopped' }));
    });
  };
  const result = (async () => {
    if (!existsSync(dirname(target))) throw new BackupRefusedError(`the folder of ${target} does not exist`);
    removeAbandonedPartials(dirname(target));
    if (existsSync(target)) throw new BackupRefusedError(`${target} exists already; a snapshot never replaces a file`);
    const made = [makingPartial(partial), makingPartial(partialPath(manifestPath(target)))];
    try {
      const copy = await copied();
      if (!copy.ok) throw Object.assign(new Error(`the snapshot failed: ${copy.message}`), copy.code ? { code: copy.code } : {});
      // It holds what the store holds: no more readable than the store's own file.
      await chmod(partial, (await stat(source)).mode & 0o777);
      const manifest = newManifest({
        file: basename(target),
        schema_version: copy.schemaVersion,
        users: copy.users,
        feed_position: copy.feedPosition,
        bytes: copy.bytes,
        sha256: copy.sha256,
        started_at: copy.startedAt,
        finished_at: new Date().toISOString(),
      });
      publishSnapshot(partial, target, manifest);
      return manifest;
    } catch (error) {
      const leftovers = [...['', '-wal', '-shm', '-journal'].map((suffix) => `${partial}${suffix}`), partialPath(manifestPath(target))];
      // A folder that refuses the removal too (read-only) must not hide why the run failed; the next run removes them.
      await Promise.allSettled(leftovers.map((path) => rm(path, { force: true })));
      throw error;
    } finally {
      for (const done of made) done();
      void worker?.terminate();
    }
  })();
  return {
    result,
    async cancel() {
      cancelled = true;
      await worker?.terminate();
      await result.catch(() => {});
    },
  };
}
