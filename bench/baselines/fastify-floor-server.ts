/**
 * The framework floor: the baseline's data access behind a bare Fastify route
 * sending the stored representation as the service does (a JSON string passes
 * the response schema's serialiser untouched), and nothing else:
 * no logging, hooks, authentication, metrics or validation. Its distance to the
 * raw node:http baseline is what Fastify itself costs; the service's distance to
 * it is what the service's own per-request features cost.
 * Answers GET /users/{uid} and GET /readyz only. Same environment as baseline-server.ts.
 */
import Fastify from 'fastify';
import { UserResource } from '../../src/users/user-schemas.js';
import type { RawStore } from './raw-store.js';

async function openRawStore(kind: string | undefined, database: string): Promise<RawStore> {
  if (kind === 'sqlite') return (await import('./sqlite-raw-store.js')).openSqliteRawStore(database);
  if (kind === 'postgres') return (await import('./postgres-raw-store.js')).openPostgresRawStore(database);
  throw new Error(`BASELINE_STORE must be sqlite or postgres, got ${JSON.stringify(kind)}`);
}

const store = await openRawStore(process.env.BASELINE_STORE, process.env.BASELINE_DATABASE ?? '');
const app = Fastify({ logger: false, keepAliveTimeout: 5000 });
app.get<{ Params: { uid: string } }>('/users/:uid', { schema: { response: { 200: UserResource } } }, async (request, reply) => {
  const stored = await store.byUid(request.params.uid.toLowerCase());
  if (!stored) return reply.code(404).send();
  return reply
    .header('etag', stored.etag)
    .header('content-location', `/users/${stored.uid}`)
    .header('cache-control', 'no-cache')
    .header('content-type', 'application/json; charset=utf-8')
    .send(stored.json);
});
app.get('/readyz', async () => ({ status: 'ready' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
