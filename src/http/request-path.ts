/**
 * The request path's plugin, registered first (app.ts): what every other room builds on.
 *
 * It decorates the root with `requestPath`, the slots the other rooms' plugins fill with their
 * steps (admission, the debug line, shedding, access control, the expensive lane, CORS headers,
 * metrics and the access line), and installs the route table (route-table.ts), which composes
 * each route's steps from those slots, in a fixed order, at the route's first request: a room
 * whose plugin is left out leaves its slot empty and its step is not run. The order is the
 * request path's, whatever the order of registration: cheapest first (admission, the debug
 * line, shedding of expensive requests, authentication and the rate limit), and last a place
 * among the expensive requests, taken only by a request that may be served; a route that reads
 * a body takes that place once the body is in. Only expensive requests are shed: a read by key
 * or a write is never what delays the loop, and probes and metrics are needed most while the
 * instance is overloaded (http/expensive-requests.ts).
 *
 * It also decorates the root with `userStore`, and installs what no room owns: the public URL, the connection drain, every HTTP method,
 * the body parsers, the shared schemas, the error and not-found handlers (requests no route
 * matched still get admission and the rate limit), and the one onResponse hook (metrics, the
 * audit line of writes, the access line).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AccessControl } from '../auth/access-control.js';
import type { HttpSection } from '../config.js';
import { UserEvent } from '../events/event-schemas.js';
import { auditWrite } from '../observability/audit.js';
import { SCIM_MEDIA_TYPE } from '../scim/scim-responses.js';
import type { UserStore } from '../store/user-store.js';
import { UserResource } from '../users/user-schemas.js';
import { installBodyParsers } from './body-parsers.js';
import { drainConnectionsOnClose } from './connection-drain.js';
import type { CorsHeaders } from './cors.js';
import { forExpensive } from './expensive-requests.js';
import { supportEveryMethod } from './method-not-allowed.js';
import { createProblemHandlers } from './problem-handler.js';
import { ProblemSchema } from './problem-schema.js';
import { publishedUrl } from './public-url.js';
import { installResponseSteps, type RequestStep, type ResponseStep } from './request-steps.js';
import { installRouteTable } from './route-table.js';

/** The steps of the request path, filled by the rooms' plugins; empty slots are skipped. */
export interface RequestPath {
  /** One Host and Authorization, the request id, refusal while closing (admission plugin). */
  admission?: RequestStep;
  /** The debug line of an incoming request (access-log plugin; only at LOG_LEVEL debug or trace). */
  requestLog?: RequestStep;
  /** Refuses expensive requests while the event loop is delayed (load-shedding plugin). */
  shedding?: RequestStep;
  /** Authentication and the rate limit (access-control plugin). */
  access?: AccessControl;
  /** A place among the expensive requests, within the time budget (admission plugin). */
  expensive?: RequestStep;
  /** The CORS headers of an answer made without Fastify's hooks (CORS plugin). */
  corsHeaders?: CorsHeaders;
  /** Times and counts every response (metrics plugin). */
  metrics?: ResponseStep;
  /** The access line (access-log plugin). */
  accessLog?: ResponseStep;
  /** Admission and the rate limit, for requests no route matched. */
  readonly unrouted: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** Fastify's `frameworkErrors`: an error found while routing, answered after the unrouted steps. */
  readonly answerBeforeRouting: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    requestPath: RequestPath;
    /** The store every route reads and writes through (the metrics plugin wraps it with its timing). */
    userStore: UserStore;
  }
}

const defined = <T>(items: readonly (T | undefined)[]): T[] => items.filter((item): item is T => item !== undefined);

async function requestPathPlugin(app: FastifyInstance, { config, store }: { config: Pick<HttpSection, 'publicUrl'>; store: UserStore }): Promise<void> {
  const problems = createProblemHandlers();
  let unroutedSteps: readonly RequestStep[] | undefined;
  const unrouted = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    unroutedSteps ??= defined([path.admission, path.access?.limitOnly]);
    for (const step of unroutedSteps) await step(request, reply);
  };
  const path: RequestPath = {
    unrouted,
    answerBeforeRouting(error, request, reply) {
      // No hook runs for these answers: the CORS headers are set here (a page may read a 400 too).
      path.corsHeaders?.(request, reply);
      unrouted(request, reply).then(
        () => problems.handleError(error, request, reply),
        (refusal: unknown) => problems.handleError(refusal, request, reply),
      );
    },
  };
  app.decorate('requestPath', path);
  app.decorate('userStore', store);
  // Where answers say a resource is (http/public-url.ts): decorated before any route or hook uses it.
  app.decorate('publishedUrl', (where: string) => publishedUrl(config.publicUrl, where));
  drainConnectionsOnClose(app);
  supportEveryMethod(app);
  installBodyParsers(app, ['application/json', 'application/merge-patch+json', SCIM_MEDIA_TYPE]);
  installRouteTable(
    app,
    (routeAccess, cost, readsBody) => defined([path.admission, path.requestLog, forExpensive(cost, path.shedding), path.access?.stepFor(routeAccess), readsBody ? undefined : forExpensive(cost, path.expensive)]),
    (_routeAccess, cost) => defined([forExpensive(cost, path.expensive)]),
  );
  problems.install(app, unrouted);
  installResponseSteps(app, () => [path.metrics, auditWrite, path.accessLog]);
  app.addSchema(UserResource);
  app.addSchema(UserEvent);
  app.addSchema(ProblemSchema);
}

export default fp(requestPathPlugin, { name: 'request-path' });
