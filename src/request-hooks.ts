/**
 * The service's per-request work runs as two Fastify hooks, one onRequest and
 * one onResponse, each a fixed list of steps, instead of one hook per feature:
 * every hook is a dispatch and, when async, a promise per request, and the read
 * path is measured against a raw node:http server (docs/performance.md). A step
 * returns a promise only when it has to wait (a JWKS fetch, a Redis counter).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Runs before the body is read, in order. Throws a ProblemError to refuse the
 * request (the error handler answers it); the remaining steps do not run.
 */
export type RequestStep = (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>;

/**
 * Runs once the response is sent, in order. `route` is the matched route's
 * pattern (`/users/:ref`), undefined when no route matched. Never throws.
 */
export type ResponseStep = (request: FastifyRequest, reply: FastifyReply, route: string | undefined) => void;

export interface RequestHooks {
  onRequest: readonly (RequestStep | undefined)[];
  onResponse: readonly (ResponseStep | undefined)[];
}

/** The request path without its query: `/users?q=a` → `/users`. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** Installs the two hooks; steps given as undefined (features turned off) are left out. */
export function installRequestHooks(app: FastifyInstance, hooks: RequestHooks): void {
  const onRequest = hooks.onRequest.filter((step) => step !== undefined);
  const onResponse = hooks.onResponse.filter((step) => step !== undefined);
  // Callback style: a request whose steps are all synchronous allocates no promise.
  app.addHook('onRequest', (request, reply, done) => {
    // A step that throws or rejects with no Error still refuses the request: done(undefined) would let it through.
    const fail = (error: unknown) => done(error instanceof Error ? error : new Error('a request step failed without an error'));
    const runFrom = (first: number): void => {
      for (let i = first; i < onRequest.length; i++) {
        let pending: void | Promise<void>;
        try {
          pending = (onRequest[i] as RequestStep)(request, reply);
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
  });
  app.addHook('onResponse', (request, reply, done) => {
    // Read once: `routeOptions` builds a new object on every access.
    const route = request.routeOptions.url;
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
