/**
 * Protections below the routes: malformed or oversized requests that Node's
 * HTTP parser rejects before Fastify sees them still get a problem document,
 * and requests are shed with 503 before the event loop stalls.
 */
import type { Socket } from 'node:net';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { PROBLEM_CONTENT_TYPE, ProblemError, problemDocument, type ProblemType } from './problems.js';
import { PROBES } from './access-control.js';

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * Fastify's clientErrorHandler: errors of the HTTP parser (a head over
 * MAX_HEADER_BYTES, a request not received in time, a malformed request line).
 * The connection is closed after the answer.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, type, detail]: [number, ProblemType, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'request-header-fields-too-large', 'The request line and headers exceed the limit.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request-timeout', 'The request was not received in time.']
        : [400, 'malformed-request', 'The request is not valid HTTP/1.1.'];
  const body = JSON.stringify(problemDocument(type, detail, ''));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Sheds requests with a 503 problem while the event loop is delayed beyond `maxEventLoopDelayMs`; the probes still answer. */
export async function installOverloadShedding(app: FastifyInstance, maxEventLoopDelayMs: number): Promise<void> {
  if (maxEventLoopDelayMs === 0) return;
  await app.register(underPressure, {
    maxEventLoopDelay: maxEventLoopDelayMs,
    exposeStatusRoute: false,
    // A rejected promise goes to the error handler; a resolved one lets the request through.
    pressureHandler: async (request) => {
      if (PROBES.has(request.routeOptions.url ?? '')) return;
      throw new ProblemError('overloaded', 'The instance is overloaded; retry shortly.', {}, { 'retry-after': '2' });
    },
  });
}
