/**
 * Response compression (RFC 9110 §8.4 Content-Encoding, §12.5.3 Accept-Encoding)
 * with @fastify/compress, for every route registered after it (the docs page's
 * assets, the OpenAPI document, /metrics, search pages, and any plugin added
 * later, such as the console's assets):
 *
 * - gzip or br, as the client's Accept-Encoding ranks them by q-value, gzip
 *   when they tie (as browsers send them: `gzip, deflate, br`): on a search page
 *   of 100 users br (quality 4, the plugin's default) saved 5 % more bytes than
 *   gzip for several times its CPU (docs/performance.md, "Compression"). `*`
 *   stands for the codings the field does not name (accept-encoding.ts); a
 *   coding with q=0 is never used; with no acceptable coding
 *   (`identity;q=0` alone among them) the answer is sent uncoded, as §12.5.3
 *   allows.
 * - only bodies of at least COMPRESSION_THRESHOLD_BYTES: below that, the coding's
 *   framing and the CPU cost outweigh the bytes saved.
 * - only compressible media types (text/*, JSON, XML), never
 *   text/event-stream: a compressor buffers its input, so the change feed's
 *   events would wait in it instead of reaching the subscriber.
 * - never a request body: the service decodes no request content coding (a 415
 *   says so: body-parsers.ts), so the plugin's request decompression is off.
 *
 * Entity tags: a strong tag names one sequence of bytes, so an answer in another
 * content coding needs another tag (RFC 9110 §8.8.3). Rather than rewrite the
 * tag and teach If-Match and If-None-Match its variants, an answer that carries
 * a strong tag (a user: read, lookup, create, replace, patch; its SCIM
 * counterparts) is never compressed: the tag a client holds is the tag of the
 * only representation there is, and the conditional requests stay exact. A user
 * is a few hundred bytes to a few KiB, so little is lost. Routes are recognised
 * by the ETag their success answers declare (their response schemas); the SCIM
 * routes, which have none, opt out themselves. Weak tags (the docs page's static
 * assets) promise only equivalence (§8.8.1), which compression keeps.
 */
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { spellOutWildcard } from './accept-encoding.js';

/** Smallest body that is compressed, in bytes (1 KiB). */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** Whether any 2xx answer the route's schema declares carries an ETag. */
export function declaresEntityTag(route: Pick<RouteOptions, 'schema'>): boolean {
  const responses = (route.schema as { response?: Record<string, { headers?: Record<string, unknown> }> } | undefined)?.response ?? {};
  return Object.entries(responses).some(([status, answer]) => /^2/.test(status) && Object.keys(answer?.headers ?? {}).some((name) => name.toLowerCase() === 'etag'));
}

/** The plugin knows no `*` in Accept-Encoding: it is spelled out before the plugin reads the field. */
function spellOutAcceptedWildcard(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  const accepted = request.headers['accept-encoding'];
  if (typeof accepted === 'string' && accepted.includes('*')) request.headers['accept-encoding'] = spellOutWildcard(accepted);
  done();
}

/** Must be registered before the routes it compresses: the plugin attaches itself to each route as it is added. */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Before the plugin's own onRoute hook, which reads `compress`. A route that is never compressed
  // (a user's representation) gets no hook of compression at all: its requests pay nothing for it.
  app.addHook('onRoute', (route) => {
    if (route.compress === undefined && declaresEntityTag(route)) route.compress = false;
    if (route.compress === false) return;
    route.onRequest = [...(route.onRequest === undefined ? [] : [route.onRequest].flat()), spellOutAcceptedWildcard];
  });
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    encodings: ['gzip', 'br'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
  });
}
