/**
 * Who may call a route (CONTRACT §8: default deny). A route states its access in
 * its own config, next to its schema:
 *
 *   app.get('/users/:ref', { config: { access: 'users:read' }, schema }, handler)
 *
 * - a scope (`users:read`, `users:write`, `metrics:read`): a valid credential holding it;
 * - `credential`: any valid credential, whatever its scopes (GET /credential: who am I);
 * - `public`: no credential (the OpenAPI document, the docs page), still rate limited;
 * - `probe`: no credential, never rate limited or shed (orchestrators poll it).
 *
 * A route that declares nothing needs a credential: `users:read` when all its
 * methods only read, `users:write` otherwise. The decision is made once per route
 * when it is registered (route-table.ts), from the route the router matched, so no
 * spelling of a path (percent-encoded letters, absolute-form targets, dot
 * segments) can reach a route without meeting its check.
 */
import type { Scope } from '../config.js';

export type RouteAccess = Scope | 'credential' | 'public' | 'probe';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; absent means a credential with the scope of its methods. */
    access?: RouteAccess;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** CONTRACT §8: `users:read` for GET and HEAD (and OPTIONS), `users:write` for every other method. */
export function scopeOfMethod(method: string): Scope {
  return READ_METHODS.has(method) ? 'users:read' : 'users:write';
}

/** The access a route has: its declaration, or by default a credential with the scope its methods need. */
export function resolveAccess(declared: RouteAccess | undefined, methods: readonly string[]): RouteAccess {
  if (declared !== undefined) return declared;
  return methods.every((method) => READ_METHODS.has(method)) ? 'users:read' : 'users:write';
}

/** The directory's scopes, which a path's methods need one by one (reads `users:read`, the rest `users:write`). */
export function isDirectoryScope(access: RouteAccess): access is 'users:read' | 'users:write' {
  return access === 'users:read' || access === 'users:write';
}

export function isPublic(access: RouteAccess): access is 'public' | 'probe' {
  return access === 'public' || access === 'probe';
}
