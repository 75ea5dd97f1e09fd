/**
 * The sections of the rooms every request passes through: the log (LOG_LEVEL), admission
 * (load shedding and the time budget) and the user resource's writes (Idempotency-Key).
 */
import { integer, oneOf, type Env } from './read-env.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogSection {
  logLevel: LogLevel;
}

export interface AdmissionSection {
  /** Event-loop delay beyond which requests are shed with 503, in ms; 0 turns shedding off. */
  maxEventLoopDelayMs: number;
  /**
   * The time budget of a request, in ms (CONTRACT §7): its searches, counts and list walks
   * stop past it and it is answered 503 `budget-exceeded` (http/request-budget.ts).
   */
  requestBudgetMs: number;
}

export interface UsersSection {
  /** How long an Idempotency-Key and its answer are kept, in ms. */
  idempotencyTtlMs: number;
  /**
   * For crash tests only (TEST_DELAY_AFTER_WRITE_MS): how long a write with an
   * Idempotency-Key waits between its commit and its response. 0 in production.
   */
  delayAfterWriteMs: number;
}

export function logSection(env: Env): LogSection {
  return { logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info') };
}

export function admissionSection(env: Env): AdmissionSection {
  return {
    maxEventLoopDelayMs: integer(env, 'OVERLOAD_MAX_EVENT_LOOP_DELAY_MS', 1000, 0, 60_000),
    requestBudgetMs: integer(env, 'REQUEST_BUDGET_MS', 5_000, 10, 600_000),
  };
}

export function usersSection(env: Env): UsersSection {
  return {
    idempotencyTtlMs: integer(env, 'IDEMPOTENCY_TTL_S', 86_400, 1, 30 * 86_400) * 1000,
    delayAfterWriteMs: integer(env, 'TEST_DELAY_AFTER_WRITE_MS', 0, 0, 60_000),
  };
}
