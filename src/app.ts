/**
 * buildApp(config, store): the Fastify instance with every route, schema and
 * handler in place. It never listens; server.ts does, and tests may.
 */
import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { createAccessControl } from './access-control.js';
import { methodNotAllowed } from './allowed-methods.js';
import { auditWrite } from './audit.js';
import { accessLog, incomingRequestLog, serializeRequest } from './request-log.js';
import { createMetrics, createRequestMetrics, installMetricsRoute, instrumentStore } from './metrics.js';
import { parseQueryString } from './query-string.js';
import { clientErrorHandler, createOverloadShedding, trackRequestPaths } from './hardening.js';
import { frameworkErrors, installProblemHandlers } from './problem-handler.js';
import { installRequestHooks, type RequestStep } from './request-hooks.js';
import { ProblemSchema } from './problem-schema.js';
import { ProblemError } from './problems.js';
import { serviceRoutes } from './service-routes.js';
import type { UserStore } from './store/user-store.js';
import { USER_FORMATS } from './users/user-formats.js';
import { AJV_OPTIONS } from './validation-options.js';
import { userRoutes } from './users/user-routes.js';
import { UserResource } from './users/user-schemas.js';
import { createUserService } from './users/user-service.js';

const DOCS_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; object-src 'none'; frame-ancestors 'self'; base-uri 'self'";

export interface AppOptions {
  config: Readonly<Config>;
  store: UserStore;
}

/**
 * Longest decoded path segment after `/users/` the router accepts. The default
 * (100) is too short for CONTRACT §3.5: `email_address:` plus a 254-character
 * address of multi-byte characters.
 */
const MAX_PARAM_LENGTH = 2048;

/** An incoming X-Request-Id is kept when it is short and printable; otherwise a new one is made. */
const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

export async function buildApp({ config, store }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Requests are logged only through this serializer, which never copies headers or
      // bodies, so no redaction pass is needed (it cost a tenth of each access line).
      serializers: { req: serializeRequest },
    },
    // request-log.ts writes one line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimit,
    // Node checks header and request deadlines on this interval (default 30 s): keep it well below them.
    http: { maxHeaderSize: config.maxHeaderBytes, connectionsCheckingInterval: Math.min(1000, Math.ceil(config.headersTimeoutMs / 2)) },
    clientErrorHandler,
    // X-Forwarded-For is believed only from the configured proxies (none by default).
    trustProxy: config.trustProxy.length > 0 ? [...config.trustProxy] : false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH, querystringParser: parseQueryString },
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // Fastify's own 503 while closing is not a problem document; the hook below answers instead.
    return503OnClosing: false,
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    frameworkErrors,
    // The serializer's own Ajv (used for unions in response schemas) must know the formats too.
    serializerOpts: { ajv: { formats: USER_FORMATS } },
    ajv: { customOptions: { ...AJV_OPTIONS } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.headersTimeout = config.headersTimeoutMs;
  trackRequestPaths(app.server);

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  /** Every response names its request id; an instance shutting down refuses new requests. */
  const identifyAndAdmit: RequestStep = (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing) {
      reply.header('connection', 'close');
      throw new ProblemError('store-unavailable', 'The instance is shutting down; retry.', {}, { 'retry-after': '1' });
    }
  };

  // Bodies are JSON only (CONTRACT §6: anything else is a 415), so Fastify's text/plain parser goes.
  app.removeContentTypeParser('text/plain');
  const metrics = createMetrics();
  const observedStore = instrumentStore(store, metrics.store);
  installProblemHandlers(app);
  installRequestHooks(app, {
    // Shedding before authentication and rate limits (cheapest first); 405 after them,
    // so an unauthenticated request learns nothing about which methods exist.
    onRequest: [
      identifyAndAdmit,
      incomingRequestLog(config.logLevel),
      createOverloadShedding(app, config.maxEventLoopDelayMs),
      await createAccessControl(app, config),
      methodNotAllowed,
    ],
    onResponse: [createRequestMetrics(metrics), auditWrite, accessLog(config.logLevel)],
  });
  installMetricsRoute(app, metrics);
  app.addSchema(UserResource);
  app.addSchema(ProblemSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'User service',
        version: '1',
        description: 'Create, read, update, delete and search users; fetch one user by a secondary key at `/users/{key}:{value}`. Errors are RFC 9457 problem documents.',
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  // The API reference page: assets served from this service (no CDN), no validator badge (no outbound request).
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: DOCS_CSP,
    uiConfig: { deepLinking: true, tryItOutEnabled: true, validatorUrl: null },
  });
  await app.register(serviceRoutes, { store: observedStore });
  await app.register(userRoutes, { service: createUserService({ store: observedStore }) });
  app.addHook('onClose', async () => store.close());
  return app;
}
