/**
 * Request logging: one access line per request when its response is sent (info),
 * and a line when it arrives (debug only). Lookup paths and search queries carry personal data
 * (`/users/email_address:alice@example.com`, `?q=ali`), so the logged URL keeps
 * the key name and the parameter names and drops their values. Together with never
 * logging bodies, logs at every level hold no email address.
 */
import type { FastifyRequest } from 'fastify';
import type { RequestStep, ResponseStep } from './request-hooks.js';

/** `/users/email_address:a@b.c?q=x&limit=5` → `/users/email_address:…?q=…&limit=…` */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q + 1);
  const safePath = path.replace(/^(\/users\/[^/:]*:)[^/]*/, '$1…');
  if (query === '') return safePath;
  const names = query.split('&').map((pair) => `${pair.split('=')[0]}=…`);
  return `${safePath}?${names.join('&')}`;
}

/** What a log line says of a request: no headers, no body, no key or query values. */
export type RequestRecord = {
  method: string;
  url: string;
  route: string | undefined;
  remoteAddress: string;
};

function requestRecord(request: FastifyRequest, route: string | undefined): RequestRecord {
  return { method: request.method, url: redactUrl(request.url), route, remoteAddress: request.ip };
}

/**
 * pino's serializer of `req`, for the lines Fastify itself writes with the
 * request. A record the access log has built already passes unchanged.
 */
export function serializeRequest(request: FastifyRequest | RequestRecord): RequestRecord {
  return 'raw' in request ? requestRecord(request, request.routeOptions?.url) : request;
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
  return (request, reply, route) => {
    request.log.info({ req: requestRecord(request, route), res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime }, 'request completed');
  };
}
