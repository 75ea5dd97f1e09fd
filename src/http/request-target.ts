/**
 * The request target as the rest of the service sees it (RFC 9112 §3.2).
 * An absolute-form target (`GET http://host/users HTTP/1.1`, which servers must
 * accept) becomes origin-form (`/users`) before routing: the service never uses
 * the authority (its Location and Link headers are root-relative), and nothing
 * downstream, such as the docs page's redirect, can then echo a client-chosen
 * host. Asterisk-form (`OPTIONS *`) and anything else are left to the router,
 * which matches no route.
 */
import type { IncomingMessage } from 'node:http';

const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

export function originForm(target: string): string {
  if (target.startsWith('/')) return target;
  const authority = ABSOLUTE_FORM.exec(target);
  if (authority === null) return target;
  const rest = target.slice(authority[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** Fastify's `rewriteUrl`: runs before routing. */
export function rewriteToOriginForm(req: IncomingMessage): string {
  return originForm(req.url ?? '/');
}
