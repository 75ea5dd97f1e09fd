/**
 * Compression as a plugin (compression.ts), on unless COMPRESSION=off. Registered before any
 * route: it attaches itself to each route as the route is added.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { CompressionSection } from '../config.js';
import { registerCompression } from './compression.js';

async function compression(app: FastifyInstance, { config }: { config: CompressionSection }): Promise<void> {
  if (config.compression) await registerCompression(app);
}

export default fp(compression, { name: 'compression' });
