/**
 * 405 with `Allow` for every method a path does not define (RFC 9110 §15.5.6):
 * for each path in the route table, the methods it lacks are registered as a
 * route of their own that refuses in its onRequest hook, before the body is
 * read. Being routes, they are matched by the router exactly as the real ones
 * are, and carry access like any route: on a protected path an unauthenticated
 * request gets its 401 before it learns which methods exist. A new route gets
 * its 405s without anyone listing it.
 */
import { METHODS } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ProblemError } from './problems.js';
import { isDirectoryScope, isPublic, scopeOfMethod, type RouteAccess } from './route-access.js';
import type { RouteEntry } from './route-table.js';

/** The order methods are listed in `Allow`; others follow alphabetically. */
const ALLOW_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function allowHeader(methods: Iterable<string>): string {
  const rank = (m: string) => (ALLOW_ORDER.includes(m) ? ALLOW_ORDER.indexOf(m) : ALLOW_ORDER.length);
  return [...new Set(methods)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).join(', ');
}

/**
 * Makes the router know every method Node's parser accepts (CONNECT aside: Node
 * hands it to the 'connect' event, never to the router), so PROPFIND on a known
 * path is a 405 and not a 404. Registered as body-less: a 405 never reads a body.
 */
export function supportEveryMethod(app: FastifyInstance): void {
  for (const method of METHODS) {
    if (method !== 'CONNECT' && !app.supportedMethods.includes(method)) app.addHttpMethod(method);
  }
}

/** The headers of a 405 for this request: `allow`, and any other the path advertises (e.g. `accept-patch`). */
export type AllowOf = (request: FastifyRequest) => { allow: string } & Record<string, string>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on the generated 405 routes only: the methods the path defines, as their `Allow` says (also read by CORS preflights: cors.ts). */
    allowOf?: AllowOf;
  }
}

/**
 * Registers `methods` on `url` as a route answering 405 with `Allow`. On a path of
 * the directory each method needs its own scope, so reads and writes are two routes;
 * on any other path every method has the path's access (on /metrics, metrics:read:
 * the scraper learns its 405, no one else more than a 401 or 403).
 */
export function registerMethodNotAllowed(app: FastifyInstance, url: string, methods: readonly string[], allow: AllowOf, pathAccess: RouteAccess): void {
  const groups: [RouteAccess, string[]][] = !isDirectoryScope(pathAccess)
    ? [[pathAccess, [...methods]]]
    : [
        ['users:read', methods.filter((m) => scopeOfMethod(m) === 'users:read')],
        ['users:write', methods.filter((m) => scopeOfMethod(m) === 'users:write')],
      ];
  for (const [access, group] of groups) {
    if (group.length === 0) continue;
    app.route({
      method: group,
      url,
      config: { access, allowOf: allow },
      schema: { hide: true },
      exposeHeadRoute: false,
      onRequest: (request, _reply, done) => {
        const headers = allow(request);
        done(new ProblemError('method-not-allowed', `${request.method} is not defined here; allowed: ${headers.allow}.`, {}, headers));
      },
      handler: async () => {
        throw new Error('unreachable: the onRequest hook always refuses');
      },
    });
  }
}

/** For every path of the table, the methods no route defines answer 405 with the methods that are defined. */
export function registerMissingMethods(app: FastifyInstance, table: readonly RouteEntry[]): void {
  const byUrl = new Map<string, RouteEntry[]>();
  for (const entry of table) byUrl.set(entry.url, [...(byUrl.get(entry.url) ?? []), entry]);
  for (const [url, entries] of byUrl) {
    // Asked of the router too: a plugin's prefixed variant of a route ('/docs/') skips onRoute.
    const defined = new Set(app.supportedMethods.filter((method) => app.hasRoute({ method, url })));
    const missing = app.supportedMethods.filter((m) => !defined.has(m));
    if (missing.length === 0) continue;
    const value = allowHeader(defined);
    // A path whose routes share one access other than the directory's keeps it (probes stay
    // probes, /metrics needs metrics:read); public if every route is; else the directory's scopes.
    const accesses = entries.map((e) => e.access);
    const [first] = accesses;
    const shared = first !== undefined && !isDirectoryScope(first) && accesses.every((a) => a === first) ? first : undefined;
    const pathAccess: RouteAccess = shared ?? (accesses.every(isPublic) ? 'public' : 'users:write');
    registerMethodNotAllowed(app, url, missing, () => ({ allow: value }), pathAccess);
  }
}
