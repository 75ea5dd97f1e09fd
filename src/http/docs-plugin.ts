/**
 * The API reference page (/docs) as a plugin: public, its assets served from this service (no
 * CDN), no validator badge (no outbound request).
 */
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { registerWithAccess } from './route-table.js';

const DOCS_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; object-src 'none'; frame-ancestors 'self'; base-uri 'self'";

async function docsPage(app: FastifyInstance): Promise<void> {
  await registerWithAccess(app, 'public', async (docs) => {
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: DOCS_CSP,
      uiConfig: { deepLinking: true, tryItOutEnabled: true, validatorUrl: null },
    });
  });
}

export default fp(docsPage, { name: 'docs', dependencies: ['openapi'] });
