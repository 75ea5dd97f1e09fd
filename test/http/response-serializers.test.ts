/**
 * Response serialisers compile on first use (src/http/lazy-serializers.ts), so a
 * response schema that fast-json-stringify cannot compile would no longer stop the
 * service at start: it would be a 500 the first time that answer is sent. This
 * test keeps the start-up check: every route's every declared response compiles,
 * with the service's own shared schemas and serialiser options.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { RouteOptions } from 'fastify';
import { USER_FORMATS } from '../../src/users/user-formats.js';
import { startTestServer } from '../helpers/test-server.js';

describe('response serialisers', () => {
  it('every declared response of every route compiles', async () => {
    const routes: RouteOptions[] = [];
    const server = await startTestServer({ app: { onRoute: (route) => void routes.push(route) } });
    try {
      const compile = SerializerSelector()(server.app.getSchemas(), { ajv: { formats: USER_FORMATS } });
      let compiled = 0;
      for (const route of routes) {
        const responses = (route.schema?.response ?? {}) as Record<string, unknown>;
        for (const [httpStatus, schema] of Object.entries(responses)) {
          const method = String(route.method);
          // A response may name its body schema per media type ({ content: { 'x/y': { schema } } }).
          const content = (schema as { content?: Record<string, { schema: unknown }> }).content;
          const bodies = content ? Object.values(content).map((c) => c.schema) : [schema];
          for (const body of bodies) {
            assert.doesNotThrow(() => compile({ schema: body as object, method, url: route.url, httpStatus }), `${method} ${route.url} ${httpStatus}`);
            compiled++;
          }
        }
      }
      assert.ok(compiled > 100, `only ${compiled} response schemas were found`);
    } finally {
      await server.close();
    }
  });
});
