/**
 * Request logging: one access line per request when its response is sent (info),
 * and a line when it arrives (debug only: at info that would double the cost of
 * logging for no information). Lookup paths and search queries carry personal data
 * (`/users/email_address:alice@example.com`, `?q=ali`), so the logged URL keeps
 * the key name and the parameter names and drops their values. Together with never
 * logging bodies, logs at every level hold no email address.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** `/users/email_address:a@b.c?q=x&limit=5` → `/users/email_address:…?q=…&limit=…` */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q + 1);
  const safePath = path.replace(/^(\/users\/[^/:]*:)[^/]*/, '$1…');
  if (query === '') return safePath;
  const names = query.split('&').map((pair) => `${pair.split('=')[0]}=…`);
  return `${safePath}?${names.join('&')}`;
}

export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    route: request.routeOptions?.url,
    remoteAddress: request.ip,
  };
}

/** Replaces Fastify's two lines per request (disableRequestLogging) with the lines above. */
export function installRequestLog(app: FastifyInstance, logLevel: string): void {
  // A hook on every request costs even when its line is filtered out: only install it when it writes.
  if (logLevel === 'debug' || logLevel === 'trace') {
    app.addHook('onRequest', async (request) => {
      request.log.debug({ req: request }, 'incoming request');
    });
  }
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime }, 'request completed');
  });
}
