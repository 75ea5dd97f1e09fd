/**
 * The SQLite store's expensive reads on a thread of their own, with a read-only connection
 * of their own (WAL lets it read while the store's connection writes): a search page or a
 * count that walks many rows never holds the event loop, so reads by key, writes and every
 * other request go on while it runs (CONTRACT §7). What it runs is sqlite-reads.ts's
 * statementRunner(), whose source it evaluates, as wal-checkpointer.ts does, so the
 * unbundled build and the bundle start the same code.
 *
 * A read reflects every write committed before it was sent: the thread's statements start
 * a new snapshot each time, after the writes whose promises resolved (group-commit.ts).
 */
import { createRequire } from 'node:module';
import { Worker, type MessagePort } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { StoreUnavailableError } from '../store-errors.js';
import { SQLITE_DRIVER_PACKAGE } from './sqlite-driver.js';
import { BUDGET_MESSAGE, budgetOr, statementRunner, type SqlReads, type SqlStatement } from './sqlite-reads.js';

interface WorkerData {
  driver: string;
  path: string;
  budgetMessage: string;
}

interface Request {
  id: number;
  statements: readonly SqlStatement[];
  deadline?: number;
}

type Reply = { id: number; results: unknown[] } | { id: number; error: { message: string; code?: string } };

/** The thread's whole program (evaluated: it uses only its arguments). */
function readerLoop({ path, budgetMessage }: WorkerData, parentPort: MessagePort, Database: typeof BetterSqlite3, runner: typeof statementRunner): void {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const run = runner(db, budgetMessage);
  parentPort.on('message', (request: Request | 'stop') => {
    if (request === 'stop') {
      db.close();
      parentPort.close();
      return;
    }
    try {
      parentPort.postMessage({ id: request.id, results: run(request.statements, request.deadline) });
    } catch (error) {
      const { message, code } = error as { message: string; code?: string };
      parentPort.postMessage({ id: request.id, error: { message: String(message), ...(typeof code === 'string' ? { code } : {}) } });
    }
  });
}

export interface ReaderThread {
  reads: SqlReads;
  /** Stops the thread after the read it may be running. */
  stop(): Promise<void>;
}

/** Starts the reader of the database file at `path` (which must exist, in WAL mode). */
export function startReaderThread(path: string): ReaderThread {
  const driver = createRequire(import.meta.url).resolve(SQLITE_DRIVER_PACKAGE);
  const workerData: WorkerData = { driver, path, budgetMessage: BUDGET_MESSAGE };
  const prelude = "const { parentPort, workerData } = require('node:worker_threads');";
  const source = `${prelude} (${readerLoop.toString()})(workerData, parentPort, require(workerData.driver), (${statementRunner.toString()}));`;
  const pending = new Map<number, { resolve: (results: unknown[]) => void; reject: (error: unknown) => void }>();
  let nextId = 0;
  let worker: Worker | undefined;
  let stopped = false;

  function failAll(cause: unknown): void {
    for (const { reject } of pending.values()) reject(new StoreUnavailableError({ cause }));
    pending.clear();
  }

  /** The running thread, started on first use and again after it died (its pending reads fail: 503). */
  function thread(): Worker {
    if (worker !== undefined) return worker;
    const started = new Worker(source, { eval: true, workerData });
    started.unref();
    started.on('message', (reply: Reply) => {
      const waiter = pending.get(reply.id);
      if (waiter === undefined) return;
      pending.delete(reply.id);
      if (pending.size === 0) started.unref();
      if ('results' in reply) waiter.resolve(reply.results);
      else waiter.reject(budgetOr(Object.assign(new Error(reply.error.message), reply.error.code === undefined ? {} : { code: reply.error.code })));
    });
    started.on('error', (error) => failAll(error));
    started.on('exit', () => {
      if (worker === started) worker = undefined;
      failAll(new Error('the reader thread stopped'));
    });
    worker = started;
    return started;
  }

  return {
    reads: (statements, deadline) => {
      if (stopped) return Promise.reject(new StoreUnavailableError());
      const target = thread();
      const id = nextId++;
      return new Promise<unknown[]>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        // Referenced while a read is pending: its answer must keep the process alive.
        target.ref();
        target.postMessage({ id, statements, ...(deadline === undefined ? {} : { deadline }) } satisfies Request);
      });
    },
    async stop() {
      stopped = true;
      const running = worker;
      if (running === undefined) return;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      running.ref();
      running.postMessage('stop');
      await exited;
    },
  };
}
