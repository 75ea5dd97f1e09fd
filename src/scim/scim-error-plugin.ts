/**
 * SCIM's error format as a plugin: SCIM clients get SCIM's error format for every error on a
 * SCIM path, also those made before SCIM's routes run (authentication, the rate limit, a 404 under
 * /scim/v2, a path refused while routing), so its onSend hook is the whole app's, registered before
 * CORS's. A callback hook that returns at once for every answer but a problem: no promise per request.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PROBLEM_CONTENT_TYPE } from '../http/problems.js';
import { problemsAsScimErrors } from './scim-responses.js';

async function scimErrorFormat(app: FastifyInstance): Promise<void> {
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith(PROBLEM_CONTENT_TYPE)) return done(null, payload);
    problemsAsScimErrors(request, reply, payload).then((answer) => done(null, answer), done);
  });
}

export default fp(scimErrorFormat, { name: 'scim-error-format' });
