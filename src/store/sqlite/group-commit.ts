/**
 * Group commit for SQLite: writes that arrive while the event loop is busy (for
 * instance with the previous commit's fsync) share the next transaction, so one
 * fsync makes many writes durable. Each write runs in its own savepoint inside
 * that transaction: a write that throws is rolled back alone and rejected alone.
 * Every write's promise settles only after the shared COMMIT returned, that is
 * after its data is durable (synchronous=FULL); if the COMMIT itself fails, every
 * write of the batch is rejected and none of them is in the database.
 *
 * A full disk (SQLITE_FULL) is met by the write that needs a new page, or by the
 * COMMIT that writes the WAL: SQLite then rolls back the statement, or the whole
 * transaction. Either way no write is acknowledged unless the COMMIT that holds it
 * returned, and a write that is rejected is not in the database: the writes rolled
 * back with the transaction are rejected with it, never run again on their own.
 *
 * A write alone in its batch (one client, an import's batch) runs as the
 * transaction itself, without a savepoint: rolling the transaction back rolls
 * back that write alone, and SQLite keeps no savepoint journal for it (only a
 * statement's own, for a statement that fails halfway).
 */
import type Database from 'better-sqlite3';

export interface GroupCommit {
  /** Runs `write` inside the next shared transaction; resolves with its result once committed. */
  <T>(write: () => T): Promise<T>;
  /** Commits what is queued now (used before closing). */
  flush(): void;
}

type Pending = { write: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void };

export function createGroupCommit(db: Database.Database, translate: (error: unknown) => unknown): GroupCommit {
  let queue: Pending[] = [];
  let scheduled = false;

  /**
   * After a failed transaction none may stay open: better-sqlite3 rolls back what is
   * still open, but when that ROLLBACK fails too (an I/O error) the transaction would
   * stay open, and every later batch would fail to begin. Rolled back again here.
   */
  function endOpenTransaction(): void {
    if (!db.inTransaction) return;
    try {
      db.exec('ROLLBACK');
    } catch {
      // Still open: the next batch's BEGIN reports it.
    }
  }

  function flush(): void {
    scheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    if (batch.length === 1) {
      // Alone in its transaction: no savepoint (and no savepoint journal) is needed to roll it back alone.
      const item = batch[0]!;
      let value: unknown;
      try {
        value = db.transaction(item.write).immediate();
      } catch (error) {
        endOpenTransaction();
        item.reject(translate(error));
        return;
      }
      item.resolve(value);
      return;
    }
    const results: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      db.transaction(() => {
        for (const item of batch) {
          try {
            // A nested better-sqlite3 transaction is a SAVEPOINT: it rolls back this write alone.
            results.push({ ok: true, value: db.transaction(item.write)() });
          } catch (error) {
            // Some errors (a full disk, an I/O error, no memory) make SQLite roll back the whole
            // transaction, not only this write's savepoint: nothing of the batch is written then,
            // and the writes after it must not run (each would commit alone, outside any batch).
            if (!db.inTransaction) throw error;
            results.push({ ok: false, error: translate(error) });
          }
        }
      }).immediate();
    } catch (error) {
      endOpenTransaction();
      const failure = translate(error);
      for (const item of batch) item.reject(failure);
      return;
    }
    batch.forEach((item, i) => {
      const result = results[i]!;
      if (result.ok) item.resolve(result.value);
      else item.reject(result.error);
    });
  }

  const commit = (<T>(write: () => T): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (!scheduled) {
        scheduled = true;
        // After the I/O callbacks of this turn: requests already received join this batch.
        setImmediate(flush);
      }
    })) as GroupCommit;
  commit.flush = flush;
  return commit;
}
