/**
 * The route table: every route the app registers, with the access it declares
 * (route-access.ts). Its onRoute hook, installed before any route, puts one
 * onRequest hook in front of each route's own: the request steps composed for
 * that route's access (admission, shedding, authentication, rate limit). The
 * router has matched the request before onRequest runs, so the check that runs
 * is the one of the route that will answer, whatever the spelling of its path.
 * A route without a declaration gets the default of resolveAccess(): a credential.
 *
 * The table also feeds the 405 routes (method-not-allowed.ts), the OpenAPI
 * document's security requirements and the test that attacks every route.
 */
import type { FastifyInstance, onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import { resolveAccess, type RouteAccess } from './route-access.js';
import { runRequestSteps, type RequestStep } from './request-steps.js';
import type { RouteCost } from './expensive-requests.js';

export interface RouteEntry {
  readonly methods: readonly string[];
  readonly url: string;
  /** Left out of the OpenAPI document (the generated 405s, the docs page's assets). */
  readonly hidden: boolean;
  /**
   * What the route requires. Read after registration: an encapsulated plugin's
   * onRoute hook (such as the one declaring the docs page public) runs after this one.
   */
  readonly access: RouteAccess;
  /** Whether the route's requests are expensive (expensive-requests.ts): all, some, or none (undefined). */
  readonly cost: RouteCost | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered so far, in registration order. */
    routeTable: readonly RouteEntry[];
  }
}

/**
 * The request steps for a route of the given access and cost, and whether its methods read a
 * body (anything but GET, HEAD and OPTIONS); composed once per route, when the app is ready.
 */
export type StepsForAccess = (access: RouteAccess, cost: RouteCost | undefined, readsBody: boolean) => readonly RequestStep[];

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * `stepsFor` runs before the body is read (onRequest); `afterBodyFor`, for a route whose methods
 * read a body, once it is read and validated (preHandler): a step that holds something until the
 * response is sent (a place among the expensive requests) must not hold it while a client
 * trickles its body in.
 */
export function installRouteTable(app: FastifyInstance, stepsFor: StepsForAccess, afterBodyFor?: StepsForAccess): void {
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    const entry: RouteEntry = {
      methods,
      url: route.url,
      hidden: (route.schema as { hide?: boolean } | undefined)?.hide === true,
      get access() {
        return resolveAccess(route.config?.access, methods);
      },
      get cost() {
        return route.config?.cost;
      },
    };
    table.push(entry);
    const readsBody = methods.some((method) => !BODYLESS.has(method));
    // Composed at the first request, when every onRoute hook (and so every declaration) has run.
    let run: onRequestHookHandler | undefined;
    const gate: onRequestHookHandler = function (request, reply, done) {
      run ??= runRequestSteps(stepsFor(entry.access, entry.cost, readsBody));
      return run.call(this, request, reply, done);
    };
    const own = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [gate, ...own];
    if (afterBodyFor === undefined || !readsBody) return;
    let runAfterBody: onRequestHookHandler | undefined;
    const afterBody: preHandlerHookHandler = function (request, reply, done) {
      runAfterBody ??= runRequestSteps(afterBodyFor(entry.access, entry.cost, readsBody));
      return runAfterBody.call(this, request, reply, done);
    };
    const ownPreHandlers = route.preHandler === undefined ? [] : [route.preHandler].flat();
    route.preHandler = [afterBody, ...ownPreHandlers];
  });
}

/**
 * Runs `register` in an encapsulated context whose routes are all declared
 * `access` (for routes a third-party plugin registers, such as the docs page).
 */
export async function registerWithAccess(app: FastifyInstance, access: RouteAccess, register: (scope: FastifyInstance) => Promise<void>): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, access };
    });
    await register(scope);
  });
}
