/**
 * Metrics as a plugin: the registry (decorated as `metrics`, which the change feed and backups
 * add to), the store's timing (it wraps `userStore`, so it is registered before the routes that
 * read it), the failover counters, the response step timing every request, and GET /metrics.
 * Registered after the OpenAPI document's plugin, so GET /metrics is documented.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { StoreSection } from '../config.js';
import { createFailoverMetrics } from './failover-metrics.js';
import { createMetrics, createRequestMetrics, installMetricsRoute, instrumentStore, type Metrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

async function metricsPlugin(app: FastifyInstance, { config }: { config: StoreSection }): Promise<void> {
  const metrics = createMetrics();
  app.decorate('metrics', metrics);
  createFailoverMetrics(metrics.registry, app.userStore.failover);
  const appended = () => (app.hasDecorator('feedMetrics') ? app.feedMetrics.appended : undefined);
  app.userStore = instrumentStore(app.userStore, metrics.store, config.store.changeFeed ? appended : undefined);
  app.requestPath.metrics = createRequestMetrics(metrics);
  installMetricsRoute(app, metrics);
}

export default fp(metricsPlugin, { name: 'metrics', dependencies: ['request-path', 'openapi'] });
