/**
 * Access control as a plugin: authentication (AUTH_MODE) and the rate limit (RATE_LIMIT_MAX),
 * composed per route from its declared access (access-control.ts) and put into the request
 * path's slot, after admission and shedding. Without this plugin no request is authenticated
 * or limited: it exists to measure what they cost (bench/request-steps-bench.ts), never in
 * the service.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthSection } from '../config.js';
import { createAccessControl } from './access-control.js';

async function accessControl(app: FastifyInstance, { config }: { config: AuthSection }): Promise<void> {
  app.requestPath.access = await createAccessControl(app, config);
}

export default fp(accessControl, { name: 'access-control', dependencies: ['request-path'] });
