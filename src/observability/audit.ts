/**
 * The audit trail: one structured log line per write on `/users…` with the
 * credential id, method, uid and outcome. Never the body, never an email
 * address or other key value (the lookup path, which holds one, is not logged here).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResponseStep } from '../http/request-steps.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const UID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function uidOf(request: FastifyRequest, reply: FastifyReply): string | undefined {
  const location = reply.getHeader('location');
  if (typeof location === 'string' && location.startsWith('/users/')) return location.slice('/users/'.length);
  const ref = (request.params as { ref?: string } | undefined)?.ref;
  return ref !== undefined && UID.test(ref) ? ref.toLowerCase() : undefined;
}

/** The response step writing the audit line of a write. */
export const auditWrite: ResponseStep = (request, reply, matched) => {
  const route = matched.url;
  if (!WRITES.has(request.method) || route?.startsWith('/users') !== true) return;
  request.log.info(
    {
      audit: {
        credential: request.credential?.id ?? 'anonymous',
        method: request.method,
        route,
        uid: uidOf(request, reply),
        status: reply.statusCode,
      },
    },
    'audit',
  );
};
