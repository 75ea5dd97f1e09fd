/**
 * buildApp(config, store): the Fastify instance with every route, schema and
 * handler in place. It never listens; server.ts does, and tests may.
 *
 * Access is default deny (CONTRACT §8): every route is registered through the
 * route table (http/route-table.ts), which gives it the request steps its
 * declared access needs, checked against the route the router matched.
 */
import { randomUUID } from 'node:crypto';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import { createAccessControl } from './auth/access-control.js';
import { credentialRoute } from './auth/credential-route.js';
import type { Config } from './config.js';
import { NOTHING_LEFT_OUT, type LeaveOut } from './http/leave-out.js';
import { installBodyParsers } from './http/body-parsers.js';
import { consolePage } from './http/console-page.js';
import { registerCompression } from './http/compression.js';
import { installCors, type CorsHeaders } from './http/cors.js';
import { buildLazySerializer } from './http/lazy-serializers.js';
import { createIdempotency, purgeExpiredKeys } from './http/idempotency.js';
import { drainConnectionsOnClose } from './http/connection-drain.js';
import { registerApiDocument } from './http/openapi/api-document.js';
import { registerMissingMethods, supportEveryMethod } from './http/method-not-allowed.js';
import { clientErrorHandlerFor, installBelowRouterHandlers } from './http/parser-errors.js';
import { publishedUrl } from './http/public-url.js';
import { createProblemHandlers } from './http/problem-handler.js';
import { ProblemSchema } from './http/problem-schema.js';
import { PROBLEM_CONTENT_TYPE } from './http/problems.js';
import { parseQueryString } from './http/query-string.js';
import { createAdmission } from './http/request-admission.js';
import { rewriteToOriginForm } from './http/request-target.js';
import { expensiveRequestStep, forExpensive } from './http/expensive-requests.js';
import { installResponseSteps, type RequestStep } from './http/request-steps.js';
import { installRouteTable, registerWithAccess } from './http/route-table.js';
import { serviceRoutes } from './http/service-routes.js';
import { cloudEventRenderer } from './events/cloud-event.js';
import { createEventHub } from './events/event-hub.js';
import { RELAY_NAME, startNatsRelay } from './events/nats-relay.js';
import { eventRoutes } from './events/event-routes.js';
import { UserEvent } from './events/event-schemas.js';
import { createFeedMetrics } from './events/feed-metrics.js';
import { startRetention } from './events/retention.js';
import { createBackupMetrics } from './backup/backup-metrics.js';
import { startBackupSchedule } from './backup/backup-schedule.js';
import { storeBackupFor } from './store/store-backup.js';
import { auditWrite } from './observability/audit.js';
import { serializeError } from './observability/error-log.js';
import { createFailoverMetrics } from './observability/failover-metrics.js';
import { createMetrics, createRequestMetrics, installMetricsRoute, instrumentStore } from './observability/metrics.js';
import { attachOverloadMonitor, monitorOverload, sheddingStep } from './observability/overload.js';
import { stdoutDestination } from './observability/log-destination.js';
import { accessLog, incomingRequestLog, serializeRequest } from './observability/request-log.js';
import { throttledWarning } from './observability/throttled-warning.js';
import type { UserStore } from './store/user-store.js';
import { USER_FORMATS } from './users/user-formats.js';
import { userRoutes } from './users/user-routes.js';
import { SCIM_PREFIX, scimRoutes } from './scim/scim-routes.js';
import { problemsAsScimErrors, SCIM_MEDIA_TYPE } from './scim/scim-responses.js';
import { UserResource } from './users/user-schemas.js';
import { createUserService } from './users/user-service.js';
import { AJV_OPTIONS } from './validation-options.js';

const DOCS_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; object-src 'none'; frame-ancestors 'self'; base-uri 'self'";

export interface AppOptions {
  config: Readonly<Config>;
  store: UserStore;
  /** Where log lines go (default stdout); tests read them from here. */
  logStream?: DestinationStream;
  /** Sees every route as it is registered, before any request; tests wrap handlers with it to prove which ran. */
  onRoute?: (route: RouteOptions) => void;
  /** Steps of the request path left out, for the benchmark measuring each (http/leave-out.ts); none by default. */
  leaveOut?: LeaveOut;
}

/**
 * Longest decoded path segment after `/users/` the router accepts. The default
 * (100) is too short for CONTRACT §3.5: `email_address:` plus a 254-character
 * address of multi-byte characters.
 */
const MAX_PARAM_LENGTH = 2048;

/**
 * An incoming X-Request-Id is kept when it is 1–128 letters, digits, `-` and `_`
 * (a UUID, a trace id); otherwise a new one is made. Logs carry it on every line,
 * so it may hold no `@`, `:` or `.`: never an email address or a `key:value` lookup.
 */
const REQUEST_ID = /^[A-Za-z0-9_-]{1,128}$/;

const defined = <T>(items: readonly (T | undefined)[]): T[] => items.filter((item): item is T => item !== undefined);

export async function buildApp({ config, store, logStream, onRoute, leaveOut = NOTHING_LEFT_OUT }: AppOptions): Promise<FastifyInstance> {
  const problems = createProblemHandlers();
  let unrouted: RequestStep | undefined;
  let corsHeaders: CorsHeaders | undefined;
  const answerBeforeRouting = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // No hook runs for these answers: the CORS headers are set here (a page may read a 400 too).
    corsHeaders?.(request, reply);
    Promise.resolve(unrouted?.(request, reply)).then(
      () => problems.handleError(error, request, reply),
      (refusal: unknown) => problems.handleError(refusal, request, reply),
    );
  };
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Requests are logged only through this serializer, which never copies headers,
      // bodies or the request target, so no redaction pass is needed.
      serializers: { req: serializeRequest, err: serializeError },
      // Standard output, one write per turn of the event loop (observability/log-destination.ts).
      stream: logStream ?? stdoutDestination(),
    },
    // request-log.ts writes one line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimit,
    http: {
      maxHeaderSize: config.maxHeaderBytes,
      // Node checks header and request deadlines on this interval (default 30 s): keep it well below them.
      connectionsCheckingInterval: Math.min(1000, Math.ceil(config.headersTimeoutMs / 2)),
      // Node's own answer to a missing Host is a bare 400; request-admission.ts answers a problem instead.
      requireHostHeader: false,
    },
    clientErrorHandler: clientErrorHandlerFor(config.publicUrl),
    // X-Forwarded-For is believed only from the configured proxies (none by default).
    trustProxy: config.trustProxy.length > 0 ? [...config.trustProxy] : false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH, querystringParser: parseQueryString },
    rewriteUrl: rewriteToOriginForm,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // Fastify's own 503 while closing is not a problem document; admission answers instead.
    return503OnClosing: false,
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // Errors found while routing (a path that is not valid percent-encoding, a segment over the
    // limit): no route's steps run for them, so admission and the rate limit run here first.
    frameworkErrors: (error, request, reply) => answerBeforeRouting(error, request, reply),
    // The serializer's own Ajv (used for unions in response schemas) must know the formats too.
    serializerOpts: { ajv: { formats: USER_FORMATS } },
    schemaController: { compilersFactory: { buildSerializer: buildLazySerializer } },
    ajv: { customOptions: { ...AJV_OPTIONS } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.headersTimeout = config.headersTimeoutMs;
  if (onRoute) app.addHook('onRoute', onRoute);
  installBelowRouterHandlers(app.server, config.publicUrl);
  // Where answers say a resource is (http/public-url.ts): decorated before any route or hook uses it.
  app.decorate('publishedUrl', (path: string) => publishedUrl(config.publicUrl, path));
  drainConnectionsOnClose(app);
  supportEveryMethod(app);
  installBodyParsers(app, ['application/json', 'application/merge-patch+json', SCIM_MEDIA_TYPE]);
  // SCIM clients get SCIM's error format for every error on a SCIM path, also those made before SCIM's routes run.
  // A callback hook that returns at once for every answer but a problem: no promise per request.
  if (!leaveOut.has('scim-error-format')) {
    app.addHook('onSend', (request, reply, payload, done) => {
      const type = reply.getHeader('content-type');
      if (typeof type !== 'string' || !type.startsWith(PROBLEM_CONTENT_TYPE)) return done(null, payload);
      problemsAsScimErrors(request, reply, payload).then((answer) => done(null, answer), done);
    });
  }

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  const overload = monitorOverload(config.maxEventLoopDelayMs);
  attachOverloadMonitor(app, overload);
  const { rateLimit, ...withoutLimit } = config;
  const access = await createAccessControl(app, {
    ...(leaveOut.has('rate-limit') || !rateLimit ? withoutLimit : { ...withoutLimit, rateLimit }),
    auth: leaveOut.has('authentication') ? { mode: 'none' } : config.auth,
  });
  const admit = leaveOut.has('admission') ? undefined : createAdmission(() => closing);
  const debugLog = incomingRequestLog(config.logLevel);
  const shed = overload.enabled && !leaveOut.has('shedding') ? sheddingStep(overload) : undefined;
  const admitExpensive = expensiveRequestStep(config.requestBudgetMs);
  // Cheapest first: admission, shedding, then authentication and the rate limit, and last a
  // place among the expensive requests (http/expensive-requests.ts), taken only by a request that
  // may be served. Only expensive requests are shed: a read by key or a write is never what
  // delays the loop, and probes and metrics are needed most while the instance is overloaded.
  // A route that reads a body (SCIM's POST /Users/.search) takes its place once the body is in.
  installRouteTable(
    app,
    (routeAccess, cost, readsBody) => defined([admit, debugLog, forExpensive(cost, shed), access.stepFor(routeAccess), readsBody ? undefined : forExpensive(cost, admitExpensive)]),
    (_routeAccess, cost) => defined([forExpensive(cost, admitExpensive)]),
  );
  // Requests no route answers (unmatched, or refused while routing) still get admission and the rate limit.
  const unroutedSteps: RequestStep[] = defined([admit, access.limitOnly]);
  const runUnroutedSteps: RequestStep = async (request, reply) => {
    for (const step of unroutedSteps) await step(request, reply);
  };
  unrouted = runUnroutedSteps;
  problems.install(app, runUnroutedSteps);
  // Both before any route: they attach to routes as they are registered.
  if (config.cors && !leaveOut.has('cors')) corsHeaders = installCors(app, config.cors, config.auth.mode !== 'none', admit ?? (() => undefined));
  if (config.compression && !leaveOut.has('compression')) await registerCompression(app);

  const metrics = createMetrics();
  // The change feed (CONTRACT §11): streams fed by one hub per instance, retention, metrics.
  const render = cloudEventRenderer(config.events.source);
  const hub = createEventHub({ events: store.events, render, heartbeatMs: config.events.heartbeatMs, onError: throttledWarning(() => app.log, 'change feed: reading new events failed; retrying') });
  const relayName = config.events.nats ? RELAY_NAME : undefined;
  const feedMetrics = createFeedMetrics({ registry: metrics.registry, events: store.events, subscribers: () => hub.size, ...(relayName ? { relayName } : {}) });
  createFailoverMetrics(metrics.registry, store.failover);
  const observedStore = leaveOut.has('metrics') ? store : instrumentStore(store, metrics.store, config.store.changeFeed ? feedMetrics.appended : undefined);
  installResponseSteps(app, [leaveOut.has('metrics') ? undefined : createRequestMetrics(metrics), auditWrite, leaveOut.has('access-log') ? undefined : accessLog(config.logLevel)]);
  app.addSchema(UserResource);
  app.addSchema(UserEvent);
  app.addSchema(ProblemSchema);
  // Before any route: the generator documents the routes registered after it.
  await registerApiDocument(app, config.auth, config.publicUrl);
  installMetricsRoute(app, metrics);
  // The API reference page: public, assets served from this service (no CDN), no validator badge (no outbound request).
  await registerWithAccess(app, 'public', async (docs) => {
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: DOCS_CSP,
      uiConfig: { deepLinking: true, tryItOutEnabled: true, validatorUrl: null },
    });
  });
  await app.register(serviceRoutes, { store: observedStore, overload });
  await app.register(credentialRoute, { auth: config.auth });
  // The operator console: a public page whose every call is made with the operator's credential.
  await app.register(consolePage, { authMode: config.auth.mode });
  const idempotency = createIdempotency({ store: observedStore, ttlMs: config.idempotencyTtlMs, delayAfterWriteMs: config.delayAfterWriteMs });
  purgeExpiredKeys(app, observedStore);
  const users = createUserService({ store: observedStore });
  await app.register(userRoutes, { service: users, idempotency, budgetMs: config.requestBudgetMs });
  await app.register(scimRoutes, { prefix: SCIM_PREFIX, service: users, idempotency, notFoundStep: runUnroutedSteps, budgetMs: config.requestBudgetMs });
  await app.register(eventRoutes, { events: store.events, hub, render, config: config.events, onStreamEnd: feedMetrics.streamEnded });
  const stopRetention = startRetention({
    events: store.events,
    config: config.events,
    ...(relayName ? { relayName } : {}),
    onError: throttledWarning(() => app.log, 'change feed: retention failed; retrying at its next run'),
    onDeleted: (count) => feedMetrics.retained.inc(count),
  });
  const relay = config.events.nats
    ? startNatsRelay({
        events: store.events,
        leadership: store.leadership(RELAY_NAME),
        nats: config.events.nats,
        name: RELAY_NAME,
        render,
        onError: throttledWarning(() => app.log, 'change feed: publishing to NATS failed; retrying'),
      })
    : undefined;
  // Streams never end by themselves: end them first, so a graceful stop waits for nothing.
  app.addHook('preClose', async () => {
    stopRetention();
    hub.close();
    await relay?.stop();
  });
  // Scheduled snapshots (BACKUP_DIR): stopped before the store closes, a snapshot under way with them.
  if (config.backup) {
    const backups = startBackupSchedule({
      backup: await storeBackupFor(config.store, config.backupStepDelayMs),
      config: config.backup,
      metrics: createBackupMetrics(metrics.registry, config.backup.intervalMs),
      log: () => app.log,
    });
    app.addHook('preClose', () => backups.stop());
  }
  registerMissingMethods(app, app.routeTable);
  app.addHook('onClose', async () => store.close());
  return app;
}
