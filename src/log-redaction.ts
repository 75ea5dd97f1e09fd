/**
 * What a request looks like in the logs. Lookup paths and search queries carry
 * personal data (`/users/email_address:alice@example.com`, `?q=ali`), so the
 * logged URL keeps the key name and the parameter names and drops their values.
 * Together with never logging bodies, logs at every level hold no email address.
 */
import type { FastifyRequest } from 'fastify';

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
