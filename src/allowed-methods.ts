/**
 * Which methods each path defines (CONTRACT §2), for the `Allow` header of a
 * 405. Any other method on these paths is a 405, whatever the method's name;
 * any other path is a 404.
 */
import { ProblemError } from './problems.js';
import { pathOf, type RequestStep } from './request-hooks.js';

const COLLECTION = 'GET, HEAD, POST';
const CANONICAL = 'GET, HEAD, PUT, DELETE';
/** Seed §4 rule 5: the lookup path is read-only (also for `uid:`). */
export const LOOKUP = 'GET, HEAD';
const SERVICE = 'GET, HEAD';
const SERVICE_PATHS = new Set(['/healthz', '/readyz', '/openapi.json', '/metrics', '/docs']);

/** The `Allow` value of a request path (without its query), or undefined for a path that does not exist. */
export function allowedMethods(path: string): string | undefined {
  if (path === '/users') return COLLECTION;
  if (SERVICE_PATHS.has(path)) return SERVICE;
  const match = /^\/users\/([^/]+)$/.exec(path);
  if (!match) return undefined;
  let segment: string;
  try {
    segment = decodeURIComponent(match[1] as string);
  } catch {
    return undefined;
  }
  return segment.includes(':') ? LOOKUP : CANONICAL;
}

/**
 * The request step answering 405 with `Allow` for a method no route defines on
 * an existing path (PATCH, OPTIONS, TRACE, PROPFIND, … on /users, /users/{ref}
 * and the service routes). It runs before the body is read.
 */
export const methodNotAllowed: RequestStep = (request) => {
  if (!request.is404) return;
  const allow = allowedMethods(pathOf(request.url));
  if (allow !== undefined) {
    throw new ProblemError('method-not-allowed', `${request.method} is not defined here; allowed: ${allow}.`, {}, { allow });
  }
};
