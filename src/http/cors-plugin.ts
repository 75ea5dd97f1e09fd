/**
 * CORS as a plugin (cors.ts), on when CORS_ORIGINS is set. Registered before any route: it
 * sees every route to learn the headers it takes. A preflight is answered in a global
 * onRequest hook, before the route's steps, after admission (which it runs itself): a preflight
 * is neither authenticated nor rate limited.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthSection, CorsSection } from '../config.js';
import { installCors } from './cors.js';

async function cors(app: FastifyInstance, { config }: { config: CorsSection & Pick<AuthSection, 'auth'> }): Promise<void> {
  if (!config.cors) return;
  const path = app.requestPath;
  path.corsHeaders = installCors(app, config.cors, config.auth.mode !== 'none', (request, reply) => path.admission?.(request, reply));
}

export default fp(cors, { name: 'cors', dependencies: ['request-path'] });
