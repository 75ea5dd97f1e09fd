/**
 * CORS (Fetch standard §3.2) for the origins of CORS_ORIGINS (cors-origins.ts).
 * Off by default: then nothing here is installed, and no response carries a CORS
 * header. CORS only tells a browser which pages may read an answer; it decides
 * nothing about access. A request from any origin, listed or not, is processed
 * as any other, with its credential checked by its route (CONTRACT §8).
 *
 * A preflight (OPTIONS with `Origin` and `Access-Control-Request-Method`, Fetch
 * §3.2.2) from an allowed origin is answered in a global onRequest hook, which
 * runs before the request steps of the route (route-table.ts): a browser sends
 * no credential on a preflight (Fetch §4.8 step 2), so neither authentication
 * nor the rate limit may refuse it. The answer, 204, says what the path takes:
 *
 * - Access-Control-Allow-Methods: the path's methods, as its 405's `Allow`
 *   (method-not-allowed.ts), so `/users/{key}:{value}` allows GET and HEAD only;
 * - Access-Control-Allow-Headers: the headers the route of the requested method
 *   takes (cors-request-headers.ts).
 *
 * A preflight for a method the path does not take, or with a header its route
 * does not read, is answered 204 with Access-Control-Allow-Origin and without
 * the two lists: the browser then fails the request and names the method or
 * header it missed (a problem document would help no one: a page never sees a
 * preflight's answer). A preflight from an origin not listed, or for a path no
 * route serves, is processed as any OPTIONS is (405 or 404, after the route's
 * steps) and carries no CORS header, so the browser refuses it.
 *
 * Every other answer to an allowed origin, errors included (401, 403, 404, 429:
 * the page must be able to read them), carries Access-Control-Allow-Origin and
 * Access-Control-Expose-Headers. Access-Control-Allow-Credentials is never sent:
 * the service reads its credential from an `Authorization` header the page sets,
 * which needs only to be allowed by the preflight; "credentials" in the Fetch
 * sense are cookies, HTTP authentication entries and TLS client certificates
 * (§2.2.5), none of which the service uses, and allowing them would let any
 * listed page send what the browser holds for this service.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { CorsOrigins } from './cors-origins.js';
import { requestHeadersOf } from './cors-request-headers.js';

/**
 * Response headers a page may read (Fetch §3.2.4: only the CORS-safelisted ones are
 * readable otherwise): every header the service sends that a client acts on.
 */
export const EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'Content-Location',
  'Link',
  'Feed-Position',
  'Total-Count',
  'Idempotent-Replayed',
  'Retry-After',
  'WWW-Authenticate',
  'Allow',
  'Accept-Patch',
  'Accept-Encoding',
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
].join(', ');

/**
 * How long a browser may keep a preflight's answer, in seconds. Ten minutes: few
 * preflights for a page in use, and a deployment that changes what a route takes
 * is seen within minutes (Chromium caps the value at 7200, Firefox at 86400).
 */
export const PREFLIGHT_MAX_AGE_S = 600;

/** A preflight's answer depends on these request headers (Fetch §3.2.5, "CORS protocol and HTTP caches"). */
const PREFLIGHT_VARY = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';

/** Adds `name` to the response's Vary unless it (or `*`) is there: handlers set Vary of their own (`Accept` on /events). */
export function addVary(reply: FastifyReply, name: string): void {
  const current = reply.getHeader('vary');
  if (current === undefined) {
    reply.header('vary', name);
    return;
  }
  const value = Array.isArray(current) ? current.join(', ') : String(current);
  const lower = name.toLowerCase();
  if (value.split(',').some((token) => ['*', lower].includes(token.trim().toLowerCase()))) return;
  reply.header('vary', `${value}, ${name}`);
}

const isPreflight = (request: FastifyRequest) => request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;

/** Sets the CORS headers of an answer that is not a preflight's. */
export type CorsHeaders = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Must run before any route is registered: it sees every route to learn the headers it takes.
 * Returns what sets an answer's headers, for answers made without Fastify's hooks (errors found while routing).
 *
 * `admit` is the admission step every request meets first (request-admission.ts): a
 * preflight skips authentication and the rate limit, never the checks of the request
 * itself (one Host, one Authorization, the request id, refusal while closing).
 */
export function installCors(app: FastifyInstance, cors: CorsOrigins, authenticates: boolean, admit: (request: FastifyRequest, reply: FastifyReply) => void): CorsHeaders {
  const allows = (origin: string | undefined): origin is string => origin !== undefined && (cors.any || cors.origins.has(origin));
  const allowOrigin = (origin: string) => (cors.any ? '*' : origin);

  /** `METHOD url` → the route serving it; the generated 405s are not among them. */
  const routes = new Map<string, RouteOptions>();
  app.addHook('onRoute', (route) => {
    if (route.config?.allowOf !== undefined) return;
    for (const method of [route.method].flat()) routes.set(`${method} ${route.url}`, route);
  });
  // Read at the first preflight: routes' access declarations may be completed by hooks that run after this one.
  const headersFor = new Map<string, ReadonlySet<string>>();
  const takenHeaders = (method: string, url: string): ReadonlySet<string> | undefined => {
    const key = `${method} ${url}`;
    let headers = headersFor.get(key);
    if (headers === undefined) {
      const route = routes.get(key) ?? (method === 'HEAD' ? routes.get(`GET ${url}`) : undefined);
      if (route === undefined) return undefined;
      headers = new Set(requestHeadersOf(route, authenticates));
      headersFor.set(key, headers);
    }
    return headers;
  };

  app.addHook('onRequest', (request, reply, done) => {
    if (!isPreflight(request)) return done();
    const origin = request.headers.origin;
    const allowOf = request.routeOptions.config?.allowOf;
    // Not allowed, or no route serves the path: processed as any OPTIONS.
    if (!allows(origin) || allowOf === undefined || request.routeOptions.url === undefined) return done();
    try {
      // Synchronous (createAdmission): a refusal is thrown, and answered as a problem.
      admit(request, reply);
    } catch (refusal) {
      return done(refusal as Error);
    }
    reply.code(204).header('access-control-allow-origin', allowOrigin(origin)).header('vary', PREFLIGHT_VARY);
    const method = String(request.headers['access-control-request-method']);
    const methods = allowOf(request).allow.split(', ');
    const taken = methods.includes(method) ? takenHeaders(method, request.routeOptions.url) : undefined;
    // Access-Control-Request-Headers: lower-case names, comma-separated (Fetch §4.8 step 4).
    const requested = String(request.headers['access-control-request-headers'] ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== '');
    if (taken !== undefined && requested.every((name) => taken.has(name))) {
      reply.header('access-control-allow-methods', methods.join(', ')).header('access-control-max-age', String(PREFLIGHT_MAX_AGE_S));
      if (taken.size > 0) reply.header('access-control-allow-headers', [...taken].join(', '));
    }
    reply.send();
  });

  const corsHeaders: CorsHeaders = (request, reply) => {
    // Vary: Origin on every answer when the allow-list decides what it carries (Fetch §3.2.5), so a
    // cache never hands one origin's answer to another; with `*` the answer is the same for all.
    if (!cors.any) addVary(reply, 'Origin');
    const origin = request.headers.origin;
    if (allows(origin) && !isPreflight(request)) {
      reply.header('access-control-allow-origin', allowOrigin(origin)).header('access-control-expose-headers', EXPOSED_HEADERS);
    }
  };
  app.addHook('onSend', (request, reply, payload, done) => {
    corsHeaders(request, reply);
    done(null, payload);
  });
  return corsHeaders;
}
