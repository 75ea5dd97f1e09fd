/**
 * Errors raised below the router, which Fastify never sees: Node's HTTP parser
 * refusing a request (a head over MAX_HEADER_BYTES, a request not received in
 * time, a malformed request line) and an `Expect` the server cannot meet. Each
 * is still answered as a problem document with a request id (README, Errors);
 * none is logged with a stack, since any client can cause them.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { PROBLEM_CONTENT_TYPE, problemDocument, type ProblemType } from './problems.js';
import { problemInstance, ROOT_INSTANCE } from './problem-instance.js';

/** What Node's HTTP parser reports: a code, and the bytes it had read. */
type ParserError = Error & { code?: string; rawPacket?: unknown };

/** The problem instance of the request each connection is receiving, for errors raised after its headers (408 on a slow body). */
const instanceOfSocket = new WeakMap<Socket, string>();

/**
 * Method and problem instance of the request line in what the parser had read. A line
 * that cannot be read names no path: `/`. Only when the parser had read nothing of a new
 * request (a timeout while the body of the connection's current request arrives) is the
 * current request's path named: otherwise that path belongs to an earlier request.
 */
function requestLine(error: ParserError, socket: Socket, publicUrl: string | undefined): { method?: string; instance: string } {
  const raw = Buffer.isBuffer(error.rawPacket) ? error.rawPacket : Buffer.alloc(0);
  const line = raw.subarray(0, 4096).toString('latin1').split('\r\n', 1)[0] ?? '';
  const method = /^([A-Z]{1,20}) /.exec(line)?.[1];
  const target = /^[A-Z]{1,20} ([\x21-\x7e]{1,2048}) HTTP\/1\.[01]$/.exec(line)?.[1];
  if (target !== undefined) return { method, instance: problemInstance(target, publicUrl) };
  return { method, instance: raw.length === 0 ? (instanceOfSocket.get(socket) ?? problemInstance(ROOT_INSTANCE, publicUrl)) : problemInstance(ROOT_INSTANCE, publicUrl) };
}

/** The status line, headers and body of a problem answered outside Fastify. */
function rawProblem(status: number, type: ProblemType, detail: string, instance: string, extra: Record<string, string> = {}) {
  const body = JSON.stringify(problemDocument(type, detail, instance));
  const headers = {
    ...extra,
    'content-type': `${PROBLEM_CONTENT_TYPE}; charset=utf-8`,
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    'x-request-id': randomUUID(),
    connection: 'close',
  };
  return { body, headers };
}

const PARSER_PROBLEMS: Record<string, [number, string, ProblemType, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'request-header-fields-too-large', 'The request line and headers exceed the limit.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'request-timeout', 'The request was not received in time.'],
};
const MALFORMED: [number, string, ProblemType, string] = [400, 'Bad Request', 'malformed-request', 'The request is not valid HTTP/1.1.'];

/**
 * Fastify's clientErrorHandler: answers the parser's error (without a body to a
 * HEAD request), then closes the connection. `publicUrl` is PUBLIC_URL, when set.
 */
export function clientErrorHandlerFor(publicUrl: string | undefined): (error: ParserError, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, reason, type, detail] = PARSER_PROBLEMS[error.code ?? ''] ?? MALFORMED;
    const { method, instance } = requestLine(error, socket, publicUrl);
    const { body, headers } = rawProblem(status, type, detail, instance);
    socket.end(rawHead(status, reason, headers) + (method === 'HEAD' ? '' : body));
  };
}

/** The head of a raw answer, for a socket outside Node's response machinery. */
function rawHead(status: number, reason: string, headers: Record<string, string>): string {
  return `HTTP/1.1 ${status} ${reason}\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
}

/**
 * Installs what the server needs below Fastify:
 * - the path of each request (for a later parser error on its connection);
 * - `Expect: 100-continue` is not answered at once (Node would invite the body of
 *   any request, authenticated or not): the request goes to Fastify, and the 100 is
 *   sent only when a body is about to be read, after the request steps (body-parsers.ts);
 * - an `Expect` other than `100-continue` is a 417 (RFC 9110 §10.1.1);
 * - CONNECT, which Node hands to its own event and would drop silently, is a 405.
 */
export function installBelowRouterHandlers(server: Server, publicUrl?: string): void {
  server.on('request', (req: IncomingMessage) => instanceOfSocket.set(req.socket, problemInstance(req.url, publicUrl)));
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    // The target is an authority (RFC 9112 §3.2.3), the client's choice: the problem names the service's root instead.
    const { body, headers } = rawProblem(405, 'method-not-allowed', 'CONNECT is not supported: this is not a proxy.', problemInstance(req.url, publicUrl), { allow: '' });
    socket.on('error', () => socket.destroy());
    socket.end(rawHead(405, 'Method Not Allowed', headers) + body);
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const { body, headers } = rawProblem(417, 'expectation-failed', 'Only Expect: 100-continue is supported.', problemInstance(req.url, publicUrl));
    res.writeHead(417, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  });
}
