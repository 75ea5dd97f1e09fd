/**
 * The first request step of every route: the response names its request id,
 * a request whose head is ambiguous is refused, and an instance shutting down
 * refuses new requests.
 *
 * Ambiguous heads (RFC 9112 §3.2, RFC 9110 §5.3): Node keeps the first of two
 * `Host` or `Authorization` field lines and silently drops the second, so a proxy
 * and this service could each act on a different one. Both are a 400 here, as is
 * an HTTP/1.1 request without `Host` (Node's own check is turned off in app.ts
 * because its bare 400 is not a problem document).
 */
import type { FastifyRequest } from 'fastify';
import { ProblemError } from './problems.js';
import type { RequestStep } from './request-steps.js';

/** How many field lines of `Host` and of `Authorization` the request head carries. */
function countSingletonFields(request: FastifyRequest): { host: number; authorization: number } {
  const raw = request.raw.rawHeaders;
  let host = 0;
  let authorization = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') host++;
    else if (name.length === 13 && name.toLowerCase() === 'authorization') authorization++;
  }
  return { host, authorization };
}

function malformed(detail: string): ProblemError {
  return new ProblemError('malformed-request', detail, {}, { connection: 'close' });
}

/** `isClosing` tells whether the instance has begun a graceful stop. */
export function createAdmission(isClosing: () => boolean): RequestStep {
  return (request, reply) => {
    reply.header('x-request-id', request.id);
    const fields = countSingletonFields(request);
    if (fields.host > 1) throw malformed('The request has more than one Host header.');
    if (fields.host === 0 && request.raw.httpVersion === '1.1') throw malformed('An HTTP/1.1 request needs a Host header.');
    if (fields.authorization > 1) throw malformed('The request has more than one Authorization header.');
    if (isClosing()) {
      reply.header('connection', 'close');
      throw new ProblemError('store-unavailable', 'The instance is shutting down; retry.', {}, { 'retry-after': '1' });
    }
  };
}
