/**
 * The OpenAPI document's generator as a plugin (api-document.ts). Registered before any
 * documented route: the generator documents the routes registered after it.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthSection, HttpSection } from '../../config.js';
import { registerApiDocument } from './api-document.js';

async function openApi(app: FastifyInstance, { config }: { config: Pick<AuthSection, 'auth'> & Pick<HttpSection, 'publicUrl'> }): Promise<void> {
  await registerApiDocument(app, config.auth, config.publicUrl);
}

export default fp(openApi, { name: 'openapi' });
