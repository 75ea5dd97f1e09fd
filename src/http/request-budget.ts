/**
 * The time budget of a request (CONTRACT §7, REQUEST_BUDGET_MS): the deadline its
 * expensive reads are given, counted from when the request was received, so time spent
 * waiting for the event loop or reading the body is part of it. Past it the store stops
 * the read (store/read-lane.ts) and the request is answered 503 `budget-exceeded`.
 */
import type { FastifyReply } from 'fastify';

/** The deadline (ms since the epoch) of the request `reply` answers. */
export const deadlineOf = (reply: FastifyReply, budgetMs: number): number => Date.now() - reply.elapsedTime + budgetMs;
