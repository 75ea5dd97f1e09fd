/**
 * PUBLIC_URL (CONTRACT §7): the absolute URL under which clients reach this service, for
 * the URLs it writes into answers: every `Location`, `Content-Location` and `Link`, SCIM's
 * `meta.location` (and a manager's `$ref`), and a problem's `instance`. It is configured,
 * never taken from a request: `Host` and `X-Forwarded-*` are the client's to choose, and
 * an answer naming another origin would send the next request there. Unset, those URLs
 * stay root-relative, as they always were.
 *
 * The value is an http(s) URL with no credentials, query or fragment; it may have a path
 * (a service published at https://example.com/directory): resource paths are appended
 * to it, so `/users/{uid}` becomes https://example.com/directory/users/{uid}.
 */
export class PublicUrlError extends Error {}

/** Longest PUBLIC_URL accepted: a link's head stays under 8 KiB (http/link-query.ts). */
export const PUBLIC_URL_MAX = 256;

/** The base of every published URL, without a trailing slash; undefined when `raw` is unset or empty. */
export function parsePublicUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw.length > PUBLIC_URL_MAX) throw new PublicUrlError(`must be at most ${PUBLIC_URL_MAX} characters`);
  // The URL parser would quietly drop or rewrite these (a backslash reads as a slash).
  if (/[\s\\\x00-\x1f\x7f]/.test(raw)) throw new PublicUrlError('must not contain whitespace, a backslash or a control character');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PublicUrlError('is not an absolute URL, such as https://users.example.com or https://example.com/directory');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PublicUrlError('must be an http:// or https:// URL');
  if (url.username !== '' || url.password !== '') throw new PublicUrlError('must not carry credentials (user:password@)');
  if (raw.includes('?')) throw new PublicUrlError('must not have a query (?…)');
  if (raw.includes('#')) throw new PublicUrlError('must not have a fragment (#…)');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Where the root-relative `path` (`/users/…`) is published: under `base` when there is one, else `path` itself. */
export function publishedUrl(base: string | undefined, path: string): string {
  return base === undefined ? path : `${base}${path}`;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The URL a root-relative path of this service is published at (PUBLIC_URL, or the path itself). */
    publishedUrl(path: string): string;
  }
}
