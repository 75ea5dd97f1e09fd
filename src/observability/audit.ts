/**
 * The audit trail: one structured log line per write on `/users…` and SCIM's
 * `/scim/v2/Users…` with the
 * credential id, method, uid and outcome. Never the body, never an email
 * address or other key value (the lookup path, which holds one, is not logged here).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResponseStep } from '../http/request-steps.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const UID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

const SCIM_USERS = '/scim/v2/Users';

function uidOf(request: FastifyRequest, reply: FastifyReply): string | undefined {
  const location = reply.getHeader('location');
  if (typeof location === 'string' && location.startsWith('/users/')) return location.slice('/users/'.length);
  // SCIM's Location is absolute: …/scim/v2/Users/{id}.
  const scim = typeof location === 'string' ? location.lastIndexOf(`${SCIM_USERS}/`) : -1;
  if (typeof location === 'string' && scim !== -1) return location.slice(scim + SCIM_USERS.length + 1);
  const params = request.params as { ref?: string; id?: string } | undefined;
  const ref = params?.ref ?? params?.id;
  return ref !== undefined && UID.test(ref) ? ref.toLowerCase() : undefined;
}

/** The response step writing the audit line of a write. */
export const auditWrite: ResponseStep = (request, reply, matched) => {
  const route = matched.url;
  // A SCIM search is a POST that only reads.
  if (!WRITES.has(request.method) || !(route?.startsWith('/users') === true || (route?.startsWith(SCIM_USERS) === true && route !== `${SCIM_USERS}/.search`))) return;
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
