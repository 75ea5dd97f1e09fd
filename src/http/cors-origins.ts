/**
 * CORS_ORIGINS: the origins whose web pages may call this service and read its
 * answers (Fetch standard §3.2, "CORS protocol"). Each entry is an origin as a
 * browser serialises it in the `Origin` header (Fetch §3.1, HTML's "ASCII
 * serialization of an origin"): `scheme://host[:port]`, scheme http or https,
 * no path, query, fragment or user info. Entries are normalised as browsers
 * write origins (lower-case scheme and host, IDN hosts in punycode, the default
 * port dropped), so a request's `Origin` is then compared byte for byte: no
 * prefix, suffix or case-insensitive match, which is what lets
 * `https://good.example.com.evil.com` or `https://GOOD.example.com` through
 * elsewhere.
 *
 * `*` alone allows every origin; it is never answered with
 * Access-Control-Allow-Credentials (the service sends none at all: cors.ts).
 */

export type CorsOrigins = { readonly any: true } | { readonly any: false; readonly origins: ReadonlySet<string> };

export class CorsOriginsError extends Error {}

/**
 * `scheme://authority` and nothing after it: a `/` (even a lone trailing one), `?` or `#`
 * is not part of an origin. Nor is a `\` (the URL parser reads it as `/`, so
 * `https://evil.example\.good.example` would become `https://evil.example`), whitespace
 * or a control character (the parser strips tabs and newlines from inside a URL).
 */
const ORIGIN_SHAPE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#@\\\s\x00-\x1f\x7f]+$/;
/** A DNS name (after IDNA) or an IP literal: `*.example.com` and other patterns are not origins. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])$/;

/** One entry, normalised; throws CorsOriginsError saying what is wrong with it. */
export function normaliseOrigin(entry: string): string {
  const refuse = (why: string): never => {
    throw new CorsOriginsError(`${JSON.stringify(entry)} is not an origin: ${why}`);
  };
  if (entry === 'null') refuse('"null" is what sandboxed and file: pages send, and any page can make itself one');
  if (!ORIGIN_SHAPE.test(entry)) {
    const withoutPath = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#@]+)[/?#]/.exec(entry)?.[1];
    refuse(withoutPath ? `no path, query or fragment (did you mean ${JSON.stringify(withoutPath)}?)` : 'write scheme://host[:port], e.g. https://console.example.com');
  }
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return refuse('write scheme://host[:port], e.g. https://console.example.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') refuse('the scheme must be https or http');
  if (!HOST.test(url.hostname)) refuse('the host must be a name or an address, without wildcards');
  return url.origin;
}

/** The value of CORS_ORIGINS: undefined when unset or empty (CORS off). */
export function parseCorsOrigins(raw: string | undefined): CorsOrigins | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.includes('*')) {
    if (entries.length > 1) throw new CorsOriginsError('"*" allows every origin and cannot be listed with others');
    return Object.freeze({ any: true });
  }
  if (entries.includes('')) throw new CorsOriginsError('an entry is empty (two commas, or one at an end)');
  return Object.freeze({ any: false, origins: new Set(entries.map(normaliseOrigin)) });
}
