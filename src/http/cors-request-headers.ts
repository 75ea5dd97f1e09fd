/**
 * The request headers a route takes, for the Access-Control-Allow-Headers of a
 * CORS preflight (Fetch standard §3.2.3). Derived from the route's own
 * declaration, so a new route, or a header a route starts to read, is answered
 * without a list kept here:
 *
 * - `x-request-id` on every route: any request may name its id (app.ts);
 * - `authorization` on a route that needs a credential, when authentication is
 *   on (with AUTH_MODE=none no route reads it);
 * - `content-type` on a route that takes a body (its schema has one): the JSON
 *   media types are not CORS-safelisted values (Fetch §2.2.2), so a browser
 *   asks for them;
 * - the headers it reads by declaration (`config.requestHeaders`: If-Match,
 *   If-None-Match, Idempotency-Key, Last-Event-ID), which also feed the OpenAPI
 *   document.
 *
 * Names are lower case: header names compare case-insensitively and browsers
 * send Access-Control-Request-Headers in lower case (Fetch §4.8).
 */
import type { RouteOptions } from 'fastify';
import { isPublic, resolveAccess } from './route-access.js';

export function requestHeadersOf(route: RouteOptions, authenticates: boolean): readonly string[] {
  const methods = [route.method].flat();
  const names = ['x-request-id'];
  if (authenticates && !isPublic(resolveAccess(route.config?.access, methods))) names.push('authorization');
  if ((route.schema as { body?: unknown } | undefined)?.body !== undefined) names.push('content-type');
  names.push(...Object.keys(route.config?.requestHeaders ?? {}).map((name) => name.toLowerCase()));
  return [...new Set(names)];
}
