/**
 * The service's per-request work is a list of steps. Before the body is read,
 * each route runs its own list (route-table.ts composes it from the route's
 * access); when the response is sent, one list runs for every request. Steps
 * rather than one Fastify hook per feature: every hook is a dispatch and, when
 * async, a promise per request, and the read path is measured against a raw
 * node:http server (docs/performance.md). A step returns a promise only when it
 * has to wait (a JWKS fetch, a Redis counter).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';

/**
 * Runs before the body is read, in order. Throws a ProblemError to refuse the
 * request (the error handler answers it); the remaining steps do not run.
 */
export type RequestStep = (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>;

/** The route a request matched, as Fastify describes it: `url` is its pattern (`/users/:ref`), undefined when none matched. */
export type MatchedRoute = FastifyRequest['routeOptions'];

/** Runs once the response is sent, in order. Never throws. */
export type ResponseStep = (request: FastifyRequest, reply: FastifyReply, route: MatchedRoute) => void;

/** The request path without its query: `/users?q=a` → `/users`. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * An onRequest hook running `steps` in order. Callback style: a request whose
 * steps are all synchronous allocates no promise.
 */
export function runRequestSteps(steps: readonly RequestStep[]): onRequestHookHandler {
  return function onRequest(request, reply, done) {
    // A step that throws or rejects with no Error still refuses the request: done(undefined) would let it through.
    const fail = (error: unknown) => done(error instanceof Error ? error : new Error('a request step failed without an error'));
    const runFrom = (first: number): void => {
      for (let i = first; i < steps.length; i++) {
        let pending: void | Promise<void>;
        try {
          pending = (steps[i] as RequestStep)(request, reply);
        } catch (error) {
          fail(error);
          return;
        }
        if (pending !== undefined) {
          pending.then(() => runFrom(i + 1), fail);
          return;
        }
      }
      done();
    };
    runFrom(0);
  };
}

/**
 * Installs the response steps as one onResponse hook. `stepsOf` is read at the first response,
 * when every plugin has put its step in place; steps given as undefined (plugins left out) are skipped.
 */
export function installResponseSteps(app: FastifyInstance, stepsOf: () => readonly (ResponseStep | undefined)[]): void {
  let onResponse: readonly ResponseStep[] | undefined;
  app.addHook('onResponse', (request, reply, done) => {
    onResponse ??= stepsOf().filter((step) => step !== undefined);
    // Read once: `routeOptions` builds a new object on every access.
    const route = request.routeOptions;
    for (const step of onResponse) {
      try {
        step(request, reply, route);
      } catch (error) {
        request.log.error({ err: error }, 'response step failed');
      }
    }
    done();
  });
}
