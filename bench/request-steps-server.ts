/**
 * The service with steps of its request path left out, for bench/request-steps-bench.ts: the
 * same buildApp as `npm start`, its configuration read from the environment as the service
 * reads it, and BENCH_LEAVE_OUT (comma-separated) naming what to leave out:
 *
 * - a plugin of the service, by its name in SERVICE_PLUGINS (src/app.ts): the app is built
 *   with the list minus that plugin (admission, load-shedding, access-control, access-log,
 *   metrics, compression, scim-error-format, …); nothing but this list can leave one out;
 * - `store-call`: every lookup after the first answers the first one's result, without the store;
 * - `response-schema`: routes lose their response schemas (no serialiser is compiled or run);
 * - `representation-headers`: GET /users/{ref} answers the stored text with no ETag,
 *   Content-Location, Cache-Control or Feed-Position and never reads If-None-Match;
 * - `turn-buffered-log`: log lines go through pino's default destination (SonicBoom,
 *   asynchronous), as before observability/log-destination.ts: what that destination saves.
 *
 * Not the service's entry point: no catch-up of the change feed, no graceful stop beyond SIGTERM.
 */
import pino from 'pino';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { buildApp, SERVICE_PLUGINS } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/store/open-store.js';
import type { UserStore } from '../src/store/user-store.js';
import { createUserService } from '../src/users/user-service.js';

export const BENCH_ONLY_STEPS = ['store-call', 'response-schema', 'representation-headers', 'turn-buffered-log'] as const;

const names = (process.env.BENCH_LEAVE_OUT ?? '').split(',').filter((name) => name !== '');
const known: readonly string[] = [...SERVICE_PLUGINS.map((plugin) => plugin.name), ...BENCH_ONLY_STEPS];
for (const name of names) {
  if (!known.includes(name)) throw new Error(`BENCH_LEAVE_OUT: unknown plugin or step ${JSON.stringify(name)}`);
}
const leaving = (name: string) => names.includes(name);

/** Every lookup after the first answers what the first one read: the request path without its store call. */
function withoutStoreCall(store: UserStore): UserStore {
  let first: ReturnType<UserStore['lookup']> | undefined;
  return { ...store, lookup: (key, value) => (first ??= store.lookup(key, value)) };
}

const config = loadConfig();
const opened = await openStore(config.store);
const store = leaving('store-call') ? withoutStoreCall(opened) : opened;
const service = createUserService({ store });
const bareRead = async (request: FastifyRequest, reply: FastifyReply) => {
  const { user } = await service.read((request.params as { ref: string }).ref);
  return reply.type('application/json; charset=utf-8').send(user.json);
};
const onRoute = (route: RouteOptions) => {
  if (leaving('response-schema') && route.schema) route.schema = { ...route.schema, response: undefined };
  if (leaving('representation-headers') && route.url === '/users/:ref' && [route.method].flat().includes('GET')) route.handler = bareRead;
};
const plugins = SERVICE_PLUGINS.filter((plugin) => !leaving(plugin.name));
const app = await buildApp({ config, store, onRoute, plugins, ...(leaving('turn-buffered-log') ? { logStream: pino.destination(1) } : {}) });
await app.listen({ host: config.host, port: config.port });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
