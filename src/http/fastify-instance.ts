/**
 * The Fastify instance before any plugin: the server's limits and deadlines, the logger, the
 * router's options, the request id, and the compilers. Errors found while routing go to the
 * request path's plugin (request-path.ts), which runs admission and the rate limit first.
 */
import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { HttpSection, LogSection } from '../config.js';
import { serializeError } from '../observability/error-log.js';
import { stdoutDestination } from '../observability/log-destination.js';
import { serializeRequest } from '../observability/request-log.js';
import { USER_FORMATS } from '../users/user-formats.js';
import { AJV_OPTIONS } from '../validation-options.js';
import { buildLazySerializer } from './lazy-serializers.js';
import { clientErrorHandlerFor, installBelowRouterHandlers } from './parser-errors.js';
import { parseQueryString } from './query-string.js';
import { rewriteToOriginForm } from './request-target.js';

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

export function createFastify(config: Readonly<HttpSection & LogSection>, logStream?: DestinationStream): FastifyInstance {
  const app: FastifyInstance = Fastify({
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
    frameworkErrors: (error, request, reply) => app.requestPath.answerBeforeRouting(error, request, reply),
    // The serializer's own Ajv (used for unions in response schemas) must know the formats too.
    serializerOpts: { ajv: { formats: USER_FORMATS } },
    schemaController: { compilersFactory: { buildSerializer: buildLazySerializer } },
    ajv: { customOptions: { ...AJV_OPTIONS } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.headersTimeout = config.headersTimeoutMs;
  installBelowRouterHandlers(app.server, config.publicUrl);
  return app;
}
