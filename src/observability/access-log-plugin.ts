/**
 * The request log as a plugin (request-log.ts): the access line of every answer (at info) and,
 * at debug or trace, a line per incoming request, each into its slot of the request path.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { LogSection } from '../config.js';
import { accessLog, incomingRequestLog } from './request-log.js';

async function accessLogPlugin(app: FastifyInstance, { config }: { config: LogSection }): Promise<void> {
  app.requestPath.requestLog = incomingRequestLog(config.logLevel);
  app.requestPath.accessLog = accessLog(config.logLevel);
}

export default fp(accessLogPlugin, { name: 'access-log', dependencies: ['request-path'] });
