/**
 * Prometheus metrics (prom-client) at GET /metrics: requests by route and
 * status with their latency, store operations with theirs, store operations in
 * flight (how busy the store's connections are), and the default process
 * metrics. Labels are route patterns, never paths, so no user data and no
 * unbounded label values reach the scraper. Each app has its own registry.
 */
import type { FastifyInstance } from 'fastify';
import { Gauge, Registry, collectDefaultMetrics, type Counter } from 'prom-client';
import { BoundHistogram, countOf, type Observe } from './bound-histogram.js';
import { Type } from 'typebox';
import { H, operationErrors, response, successHeaders } from '../http/openapi/responses.js';
import type { ResponseStep } from '../http/request-steps.js';
import type { UserStore } from '../store/user-store.js';

export interface StoreMetrics {
  operation: BoundHistogram;
  /** Operations running now, by operation; exported by `inFlight` when scraped. */
  running: Map<string, number>;
  inFlight: Gauge<'operation'>;
}

export interface Metrics {
  registry: Registry;
  store: StoreMetrics;
}

/**
 * prom-client's default gauges that carry a counter's `_total` suffix, which
 * `promtool check metrics` refuses (a gauge must not end in `_total`). Each is the sum
 * of a by-type gauge the defaults also export (`nodejs_active_handles` and so on), so
 * nothing is lost: `sum(nodejs_active_handles)` is the total.
 */
const GAUGES_NAMED_AS_COUNTERS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of GAUGES_NAMED_AS_COUNTERS) registry.removeSingleMetric(name);
  // Counted in plain numbers and read when scraped: a gauge updated per operation hashes its labels twice per call.
  const running = new Map<string, number>();
  return {
    registry,
    store: {
      operation: new BoundHistogram('user_store_operation_duration_seconds', 'Duration of user store operations', LATENCY_BUCKETS, registry),
      running,
      inFlight: new Gauge({
        name: 'user_store_operations_in_flight',
        help: 'Store operations in progress, running or waiting for a connection',
        labelNames: ['operation'],
        registers: [registry],
        collect() {
          for (const [operation, count] of running) this.set({ operation }, count);
        },
      }),
    },
  };
}

/**
 * Wraps every store method with its timing; the store's behaviour is unchanged.
 * With `appended` (the change feed on: the feed's counter, read at each write, since the change
 * feed's plugin is registered after this store is wrapped), counts the events this instance's
 * writes append, from their outcomes: a replace appends one when it changed the
 * user, which the store marks by setting `updated_at` to the write's time.
 */
export function instrumentStore(store: UserStore, metrics: StoreMetrics, appended?: () => Counter<'type'> | undefined): UserStore {
  const timed = <A extends unknown[], R>(operation: string, fn: (...args: A) => Promise<R>) => {
    const ok = metrics.operation.bind({ operation, outcome: 'ok' });
    const failed = metrics.operation.bind({ operation, outcome: 'error' });
    const { running } = metrics;
    running.set(operation, 0);
    return async (...args: A): Promise<R> => {
      const started = performance.now();
      running.set(operation, (running.get(operation) as number) + 1);
      try {
        const result = await fn(...args);
        ok((performance.now() - started) / 1000);
        return result;
      } catch (error) {
        failed((performance.now() - started) / 1000);
        throw error;
      } finally {
        running.set(operation, (running.get(operation) as number) - 1);
      }
    };
  };
  const count = (type: 'created' | 'updated' | 'deleted', n = 1) => {
    if (n > 0) appended?.()?.inc({ type: `user.${type}` }, n);
  };
  return {
    create: timed('create', async (user, pending, origin) => {
      const created = await store.create(user, pending, origin);
      count('created');
      return created;
    }),
    findByKey: timed('findByKey', (key, value) => store.findByKey(key, value)),
    lookup: timed('lookup', (key, value) => store.lookup(key, value)),
    replace: timed('replace', async (uid, change, now, precondition, pending, origin) => {
      const outcome = await store.replace(uid, change, now, precondition, pending, origin);
      if (outcome.status === 'ok' && outcome.value.updated_at === now) count('updated');
      return outcome;
    }),
    delete: timed('delete', async (uid, precondition, origin) => {
      const outcome = await store.delete(uid, precondition, origin);
      if (outcome.status === 'ok') count('deleted');
      return outcome;
    }),
    search: timed('search', (page) => store.search(page)),
    count: timed('count', (filter) => store.count(filter)),
    countMatches: timed('countMatches', (filter, bound) => store.countMatches(filter, bound)),
    refreshStatistics: () => store.refreshStatistics(),
    pageMark: timed('pageMark', (key, now) => store.pageMark(key, now)),
    savePageMark: timed('savePageMark', (key, mark, now) => store.savePageMark(key, mark, now)),
    importUsers: timed('importUsers', async (users, onConflict, now, key, origin) => {
      const outcomes = await store.importUsers(users, onConflict, now, key, origin);
      count('created', outcomes.filter((o) => o.status === 'created').length);
      count('updated', outcomes.filter((o) => o.status === 'updated').length);
      return outcomes;
    }),
    beginBulkLoad: () => store.beginBulkLoad(),
    finishBulkLoad: () => store.finishBulkLoad(),
    cursorKey: timed('cursorKey', () => store.cursorKey()),
    findIdempotency: timed('findIdempotency', (scope, key, now) => store.findIdempotency(scope, key, now)),
    saveIdempotency: timed('saveIdempotency', (record, now) => store.saveIdempotency(record, now)),
    purgeIdempotency: timed('purgeIdempotency', (now, limit) => store.purgeIdempotency(now, limit)),
    ping: timed('ping', () => store.ping()),
    probeWrite: timed('probeWrite', () => store.probeWrite()),
    // The feed has its own metrics (events appended, relay lag: src/events/feed-metrics.ts).
    events: store.events,
    leadership: (name) => store.leadership(name),
    close: () => store.close(),
  };
}

/**
 * The response step counting and timing every response: one histogram, whose
 * counts are also served as `http_requests_total`. The observer of each
 * (method, route, status) is kept: there are few (Node's parser knows a fixed
 * set of methods; routes are patterns).
 */
export function createRequestMetrics(metrics: Metrics): ResponseStep {
  const latency = new BoundHistogram('http_request_duration_seconds', 'Time from request to response', LATENCY_BUCKETS, metrics.registry);
  countOf(latency, 'http_requests_total', 'HTTP requests answered', metrics.registry);
  const observers = new Map<string, Observe>();
  return (request, reply, matched) => {
    const route = matched.url;
    const id = `${request.method} ${route} ${reply.statusCode}`;
    let observe = observers.get(id);
    if (observe === undefined) {
      observe = latency.bind({ method: request.method, route: route ?? 'unmatched', status: String(reply.statusCode) });
      observers.set(id, observe);
    }
    observe(reply.elapsedTime / 1000);
  };
}

/** Serves GET /metrics: the registry in Prometheus text format. */
export function installMetricsRoute(app: FastifyInstance, metrics: Metrics): void {
  const schema = {
    operationId: 'getMetrics',
    summary: 'Prometheus metrics',
    tags: ['service'],
    response: {
      200: response({ description: 'The metrics in Prometheus text format.', headers: successHeaders('protected', [H.cacheControl]), body: { schema: Type.String(), mediaType: metrics.registry.contentType } }),
      ...operationErrors({ kind: 'protected' }),
    },
  };
  // CONTRACT §8 (default deny) names no metrics among the public routes: a scraper needs a credential
  // with metrics:read. Never shed (app.ts): an overloaded instance is when operators need them.
  app.get('/metrics', { config: { access: 'metrics:read' }, schema }, async (_request, reply) =>
    reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(await metrics.registry.metrics()),
  );
}
