/**
 * buildApp(config, store): the Fastify instance with every route, schema and
 * handler in place. It never listens; server.ts does, and tests may.
 *
 * Each room hands over one plugin, which registers its routes and hooks and reads
 * its own section of the configuration; SERVICE_PLUGINS lists them in the order they
 * are registered, which is the order their hooks run in. The request path's plugin
 * comes first: the other rooms put their request steps into its slots, and it runs
 * them in the request path's order (http/request-path.ts). Access is default deny
 * (CONTRACT §8): every route is registered through the route table
 * (http/route-table.ts), which gives it the request steps its declared access needs,
 * checked against the route the router matched.
 */
import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import accessControl from './auth/access-plugin.js';
import scheduledBackups from './backup/backup-plugin.js';
import type { Config } from './config.js';
import changeFeed from './events/events-plugin.js';
import admission from './http/admission-plugin.js';
import compression from './http/compression-plugin.js';
import operatorConsole from './http/console-plugin.js';
import cors from './http/cors-plugin.js';
import docsPage from './http/docs-plugin.js';
import { createFastify } from './http/fastify-instance.js';
import { registerMissingMethods } from './http/method-not-allowed.js';
import openApi from './http/openapi/openapi-plugin.js';
import requestPath from './http/request-path.js';
import serviceRoutes from './http/service-plugin.js';
import accessLog from './observability/access-log-plugin.js';
import metrics from './observability/metrics-plugin.js';
import loadShedding from './observability/shedding-plugin.js';
import scimErrorFormat from './scim/scim-error-plugin.js';
import scim from './scim/scim-plugin.js';
import type { UserStore } from './store/user-store.js';
import users from './users/users-plugin.js';

/** What every plugin is given; each reads only its own sections of `config`. */
export interface PluginOptions {
  config: Readonly<Config>;
  store: UserStore;
}

export interface ServicePlugin {
  /** The name a benchmark leaves it out by (bench/request-steps-bench.ts). */
  readonly name: string;
  readonly plugin: FastifyPluginAsync<PluginOptions>;
}

/**
 * The service's plugins, in order. What the order keeps: the request path first; SCIM's error
 * format before CORS (onSend); CORS and compression before any route (they attach to routes as
 * they are added); the OpenAPI generator before every documented route; the store's timing
 * (metrics) before the routes that read the store; then the routes, in the order the OpenAPI
 * document lists them.
 */
export const SERVICE_PLUGINS: readonly ServicePlugin[] = [
  { name: 'request-path', plugin: requestPath },
  { name: 'scim-error-format', plugin: scimErrorFormat },
  { name: 'admission', plugin: admission },
  { name: 'load-shedding', plugin: loadShedding },
  { name: 'access-control', plugin: accessControl },
  { name: 'access-log', plugin: accessLog },
  { name: 'cors', plugin: cors },
  { name: 'compression', plugin: compression },
  { name: 'openapi', plugin: openApi },
  { name: 'metrics', plugin: metrics },
  { name: 'docs', plugin: docsPage },
  { name: 'service-routes', plugin: serviceRoutes },
  { name: 'console', plugin: operatorConsole },
  { name: 'users', plugin: users },
  { name: 'scim', plugin: scim },
  { name: 'change-feed', plugin: changeFeed },
  { name: 'backups', plugin: scheduledBackups },
];

export interface AppOptions {
  config: Readonly<Config>;
  store: UserStore;
  /** Where log lines go (default stdout); tests read them from here. */
  logStream?: DestinationStream;
  /** Sees every route as it is registered, before any request; tests wrap handlers with it to prove which ran. */
  onRoute?: (route: RouteOptions) => void;
  /** The plugins to register (default SERVICE_PLUGINS); a benchmark leaves one out to measure what it costs. */
  plugins?: readonly ServicePlugin[];
}

export async function buildApp({ config, store, logStream, onRoute, plugins = SERVICE_PLUGINS }: AppOptions): Promise<FastifyInstance> {
  const app = createFastify(config, logStream);
  if (onRoute) app.addHook('onRoute', onRoute);
  for (const { plugin } of plugins) await app.register(plugin, { config, store });
  // Last: a 405 for each path's missing methods, from every route registered above.
  registerMissingMethods(app, app.routeTable);
  app.addHook('onClose', async () => store.close());
  return app;
}
