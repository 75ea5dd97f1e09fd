/**
 * Protections below the routes: malformed or oversized requests that Node's
 * HTTP parser rejects before Fastify sees them still get a problem document,
 * and requests are shed with 503 before the event loop stalls.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { PROBLEM_CONTENT_TYPE, ProblemError, problemDocument, type ProblemType } from './problems.js';
import { PROBES } from './access-control.js';
import { monitorOverload } from './overload.js';
import { pathOf, type RequestStep } from './request-hooks.js';

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** What Node's HTTP parser reports: a code, and the bytes it had read. */
type ParserError = Error & { code?: string; rawPacket?: unknown };

/** The path of the request each connection is receiving, for errors raised after its headers (408 on a slow body). */
const pathOfSocket = new WeakMap<Socket, string>();

export function trackRequestPaths(server: { on(event: 'request', listener: (req: IncomingMessage) => void): unknown }): void {
  server.on('request', (req) => pathOfSocket.set(req.socket, pathOf(req.url ?? '')));
}

/** Method and path of the request line in what the parser had read, when they are printable. */
function requestLine(error: ParserError, socket: Socket): { method?: string; path: string } {
  const raw = Buffer.isBuffer(error.rawPacket) ? error.rawPacket : Buffer.alloc(0);
  const line = raw.subarray(0, 4096).toString('latin1').split('\r\n', 1)[0] ?? '';
  const method = /^([A-Z]{1,20}) /.exec(line)?.[1];
  const target = /^[A-Z]{1,20} ([\x21-\x7e]{1,2048}) HTTP\/1\.[01]$/.exec(line)?.[1];
  return { method, path: target === undefined ? (pathOfSocket.get(socket) ?? '') : pathOf(target) };
}

/**
 * Fastify's clientErrorHandler: errors of the HTTP parser (a head over
 * MAX_HEADER_BYTES, a request not received in time, a malformed request line).
 * Answered as a problem document (without a body to a HEAD request), with a new
 * request id, then the connection is closed.
 */
export function clientErrorHandler(error: ParserError, socket: Socket): void {
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
  const { method, path } = requestLine(error, socket);
  const body = JSON.stringify(problemDocument(type, detail, path));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nX-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n` +
      (method === 'HEAD' ? '' : body),
  );
}

/**
 * Sheds requests with a 503 problem while the event loop is delayed beyond
 * `maxEventLoopDelayMs` (0: off); the probes still answer. Undefined when off.
 */
export function createOverloadShedding(app: FastifyInstance, maxEventLoopDelayMs: number): RequestStep | undefined {
  if (maxEventLoopDelayMs === 0) return undefined;
  const monitor = monitorOverload(maxEventLoopDelayMs);
  app.addHook('onClose', async () => monitor.stop());
  return (request) => {
    if (monitor.isOverloaded() && !PROBES.has(pathOf(request.url))) {
      throw new ProblemError('overloaded', 'The instance is overloaded; retry shortly.', {}, { 'retry-after': '2' });
    }
  };
}
