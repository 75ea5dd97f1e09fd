/**
 * Request logging: one access line per request when its response is sent (info),
 * and a line when it arrives (debug only). Logs hold no email address, username
 * or lookup value, whatever the spelling of the request (CONTRACT §8), because
 * the logged path is rebuilt from what the router matched, never taken from the
 * request target: the route's pattern with each parameter replaced by `…`
 * unless the route says how to show it (`logPath`, e.g. a uid is shown, a lookup
 * shows only its key name), and the query's known parameter names without their
 * values. A request no route matched is logged without its path: its target is
 * whatever the client typed.
 */
import type { FastifyRequest } from 'fastify';
import { clientAddress } from '../http/client-address.js';
import type { MatchedRoute, RequestStep, ResponseStep } from '../http/request-steps.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's path as logs may show it, from its decoded parameters. Default: every parameter is `…`. */
    logPath?: (params: Record<string, string>) => string;
  }
}

/** Logged in place of the path of a request that matched no route. */
export const UNMATCHED_PATH = '(unmatched)';

/** `/users/:ref` → `/users/…`; `/docs/static/*` → `/docs/static/…`. */
export function redactPattern(pattern: string): string {
  return pattern.replace(/:[^/]+/g, '…').replace(/\*/g, '…');
}

/** `?q=ali&limit=5&x@y=1` → `?q=…&limit=…&…=…`: the names the route's query schema knows, and no value. */
function redactedQuery(request: FastifyRequest, known: Record<string, unknown> | undefined): string {
  const query = request.query as Record<string, unknown> | undefined;
  if (query === undefined || query === null) return '';
  const names = Object.keys(query).map((name) => (known !== undefined && Object.hasOwn(known, name) ? name : '…'));
  return names.length === 0 ? '' : `?${names.map((name) => `${name}=…`).join('&')}`;
}

/** What a log line says of a request: no headers, no body, no key or query values. */
export type RequestRecord = {
  method: string;
  url: string;
  route: string | undefined;
  remoteAddress: string;
};

function requestRecord(request: FastifyRequest, matched: MatchedRoute): RequestRecord {
  const pattern = matched.url;
  if (pattern === undefined) return { method: request.method, url: UNMATCHED_PATH, route: undefined, remoteAddress: clientAddress(request) };
  const params = (request.params ?? {}) as Record<string, string>;
  const path = matched.config?.logPath?.(params) ?? redactPattern(pattern);
  const known = (matched.schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties;
  return { method: request.method, url: path + redactedQuery(request, known), route: pattern, remoteAddress: clientAddress(request) };
}

/**
 * pino's serializer of `req`, for any line that logs a request. A record the
 * access log has built already passes unchanged.
 */
export function serializeRequest(request: FastifyRequest | RequestRecord): RequestRecord {
  return 'raw' in request ? requestRecord(request, request.routeOptions) : request;
}

/** At debug and trace: a line when a request arrives. At info that would double the cost of logging for no information. */
export function incomingRequestLog(logLevel: string): RequestStep | undefined {
  if (logLevel !== 'debug' && logLevel !== 'trace') return undefined;
  return (request) => {
    request.log.debug({ req: request }, 'incoming request');
  };
}

/**
 * The access line, one per request when its response is sent (info); Fastify's
 * own two lines are off (app.ts). Undefined above info, where it would write nothing.
 */
export function accessLog(logLevel: string): ResponseStep | undefined {
  if (!['info', 'debug', 'trace'].includes(logLevel)) return undefined;
  return (request, reply, matched) => {
    request.log.info({ req: requestRecord(request, matched), res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime }, 'request completed');
  };
}
