/**
 * The time budget of a request on PostgreSQL (CONTRACT §7): an expensive read's statements
 * run through runUntil(run, deadline), which starts none past the deadline and cancels the
 * one running when the deadline passes (postgres.js sends PostgreSQL a cancel request: the
 * server stops the statement, which leaves pg_stat_activity). PG_STATEMENT_TIMEOUT_MS still
 * bounds each statement; the deadline bounds the request's statements together.
 */
import { BudgetExceededError } from '../store-errors.js';

export type Run = <T>(fn: () => Promise<T>) => Promise<T>;

/** A statement postgres.js runs: a promise that can be cancelled (its PendingQuery). */
interface Cancellable {
  cancel?: () => unknown;
}

/** `run` for the statements of one read that must stop at `deadline` (ms since the epoch); `run` itself without one. */
export function runUntil(run: Run, deadline: number | undefined): Run {
  if (deadline === undefined) return run;
  return <T>(fn: () => Promise<T>) =>
    run(async () => {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new BudgetExceededError();
      const statement = fn();
      const cancel = (statement as Cancellable).cancel;
      const timer = typeof cancel === 'function' ? setTimeout(() => cancel.call(statement), remaining) : undefined;
      try {
        return await statement;
      } catch (error) {
        // 57014: cancelled, by this deadline or by the statement timeout; past the deadline it is the budget's.
        if (Date.now() >= deadline) throw new BudgetExceededError({ cause: error });
        throw error;
      } finally {
        clearTimeout(timer);
      }
    });
}
