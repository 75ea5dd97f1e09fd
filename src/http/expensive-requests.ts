/**
 * Expensive requests (a search, a SCIM list: their cost grows with the page they ask for, up to
 * a thousand users read, converted and sent) are admitted through a lane of their own: at most
 * EXPENSIVE_CONCURRENCY are served at once, in arrival order, each until its response is sent.
 * So however many a client sends, the event loop spends at most that many requests' work on
 * them at a time, and cheap requests (reads by key, writes) keep being served between their
 * slices (event-loop-slices.ts). A route says it is expensive next to its access:
 *
 *   app.get('/users', { config: { access: 'users:read', cost: 'expensive' } }, handler)
 *
 * or, when only some of its requests are (a search by a unique key reads one user), with a
 * test of the request as routed (its query parsed, its body not yet read):
 *
 *   app.get('/users', { config: { cost: (request) => !byUniqueKey(request.query) } }, handler)
 *
 * Load shedding (observability/overload.ts) refuses expensive requests only: a read by key
 * costs tens of microseconds and is never what delays the loop.
 */
import type { FastifyRequest } from 'fastify';
import { READ_LANE_WAITING, readLane } from '../store/read-lane.js';
import { ProblemError } from './problems.js';
import { deadlineOf } from './request-budget.js';
import type { RequestStep } from './request-steps.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `expensive`, or a test saying which requests are: admitted through the lane of expensive requests, and shed first under load. */
    cost?: RouteCost;
  }
}

/** Whether a route's requests are expensive: all of them, or those a test of the routed request picks. */
export type RouteCost = 'expensive' | ((request: FastifyRequest) => boolean);

/** `step` for the requests of a route whose cost is `cost` that are expensive; undefined when none is. */
export function forExpensive(cost: RouteCost | undefined, step: RequestStep | undefined): RequestStep | undefined {
  if (cost === undefined || step === undefined) return undefined;
  if (cost === 'expensive') return step;
  return (request, reply) => (cost(request) ? step(request, reply) : undefined);
}

/** What a request whose client left while it waited is answered (nobody reads it; the access log records it). */
const clientLeft = () => new ProblemError('overloaded', 'The client closed the connection while the request waited for a place among the expensive requests; it was not served.', {}, { 'retry-after': '1' });

/** Expensive requests served at once: enough to keep the event loop and the store busy, few enough that a read by key waits for at most as many slices of their work. */
export const EXPENSIVE_CONCURRENCY = 2;

/** The step admitting an expensive request: it waits for a place (refused past its deadline, or when too many wait) and keeps it until its response is sent or its connection closes. */
export function expensiveRequestStep(budgetMs: number): RequestStep {
  const lane = readLane(EXPENSIVE_CONCURRENCY, READ_LANE_WAITING);
  return async (_request, reply) => {
    // Listened for before waiting: a client that leaves while its request waits leaves the line
    // (its request is not served), and one that leaves once served gives its place back.
    let release: (() => void) | undefined;
    const left = new AbortController();
    reply.raw.once('close', () => (release === undefined ? left.abort(clientLeft()) : release()));
    release = await lane.acquire(deadlineOf(reply, budgetMs), left.signal);
    // Left in the turn between being given the place and this line: give it back at once.
    if (left.signal.aborted) release();
  };
}
