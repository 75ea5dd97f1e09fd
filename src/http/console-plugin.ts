/**
 * The operator console as a plugin: GET /credential (who the caller is) and the console page,
 * a public page whose every call is made with the operator's credential (console-page.ts).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { credentialRoute } from '../auth/credential-route.js';
import type { AuthSection } from '../config.js';
import { consolePage } from './console-page.js';

async function operatorConsole(app: FastifyInstance, { config }: { config: Pick<AuthSection, 'auth'> }): Promise<void> {
  await app.register(credentialRoute, { auth: config.auth });
  await app.register(consolePage, { authMode: config.auth.mode });
}

export default fp(operatorConsole, { name: 'console', dependencies: ['openapi'] });
