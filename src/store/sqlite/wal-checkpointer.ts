/**
 * Checkpoints of the service's SQLite WAL, run on a thread of their own.
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that fills the WAL to
 * 1,000 pages: on the event loop, which then copies those pages into the
 * database file and fsyncs it before it reads another request. A write that
 * dirties pages at random (an Idempotency-Key's index entry, a username that
 * sorts anywhere) fills the WAL faster, so it paid for more of them
 * (docs/performance.md, Idempotency-Key). Here a worker thread with its own
 * connection runs a PASSIVE checkpoint every CHECKPOINT_INTERVAL_MS: it copies
 * what is committed without blocking writers or readers.
 *
 * SQLite starts the WAL over only when a write begins after a checkpoint copied
 * all of it; under steady writes a passive checkpoint seldom finds that, so the
 * WAL grows to FALLBACK_AUTOCHECKPOINT_PAGES (about 40 MB). There the main
 * connection's automatic checkpoint runs inside a commit, finds little left to
 * copy, and the next write starts the WAL over. The same setting takes over if
 * this thread stops or cannot open the file.
 *
 * Durability does not depend on it: a commit is durable once the WAL is
 * fsynced (synchronous=FULL), and a checkpoint is crash-safe at every step.
 * Several processes sharing the file each run one; SQLite lets one checkpoint
 * at a time and the others skip their turn.
 */
import { createRequire } from 'node:module';
import { Worker, type MessagePort } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { SQLITE_DRIVER_PACKAGE } from './sqlite-driver.js';

const CHECKPOINT_INTERVAL_MS = 50;
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;

/** What one checkpoint did: the WAL's frames and how many of them are now in the database file. */
export interface CheckpointReport {
  walFrames: number;
  checkpointedFrames: number;
}

export interface WalCheckpointer {
  /** Stops the thread after the checkpoint it may be running; its connection is closed. */
  stop(): Promise<void>;
}

interface WorkerData {
  driver: string;
  path: string;
  intervalMs: number;
}

/**
 * The worker's whole program. It runs with `eval`, so that the unbundled build and the
 * bundle (whose chunks move) start the same code; it uses only its arguments, which
 * the eval'd prelude in startWalCheckpointer requires.
 */
function checkpointLoop({ path, intervalMs }: WorkerData, parentPort: MessagePort, Database: typeof BetterSqlite3): void {
  const db = new Database(path, { fileMustExist: true });
  // Never wait for a lock: a checkpoint that cannot run now runs at the next tick.
  db.pragma('busy_timeout = 0');
  // A checkpoint fsyncs the WAL before copying it and the database file after.
  db.pragma('synchronous = FULL');
  let last = '';
  const timer = setInterval(() => {
    try {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
      const report = result && `${result.log}/${result.checkpointed}`;
      // Reported when it changed something: an idle database is checked every tick.
      if (result && result.log > 0 && report !== last) parentPort.postMessage({ walFrames: result.log, checkpointedFrames: result.checkpointed });
      last = report ?? '';
    } catch {
      // SQLITE_BUSY: another connection is checkpointing or resetting the WAL; try at the next tick.
    }
  }, intervalMs);
  parentPort.on('message', () => {
    clearInterval(timer);
    db.close();
    parentPort.close();
  });
}

/** Starts checkpointing the WAL of the database file at `path` (which must exist, in WAL mode). */
export function startWalCheckpointer(path: string, onCheckpoint?: (report: CheckpointReport) => void): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve(SQLITE_DRIVER_PACKAGE);
  const workerData: WorkerData = { driver, path, intervalMs: CHECKPOINT_INTERVAL_MS };
  const prelude = "const { parentPort, workerData } = require('node:worker_threads');";
  const worker = new Worker(`${prelude} (${checkpointLoop.toString()})(workerData, parentPort, require(workerData.driver));`, { eval: true, workerData });
  // A checkpointer alone never keeps the process alive.
  worker.unref();
  if (onCheckpoint) worker.on('message', onCheckpoint);
  // A failure to open (the file removed, a full disk) leaves the main connection's automatic checkpoint in charge.
  worker.on('error', () => {});
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      // Referenced again while it stops: waiting for its exit must keep the process alive.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
