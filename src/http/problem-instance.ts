/**
 * The `instance` of every problem document (RFC 9457 §3.1.5), made in one place for
 * the answers of Fastify and of the layers below it (parser errors, CONNECT, Expect).
 *
 * It is always a path-absolute reference on this service (RFC 3986 §4.2): `/` and
 * then anything but a second `/`, holding only characters a URI may hold. A client
 * resolving it against the URL it called stays on this service, whatever the request
 * said:
 * - an absolute-form target (`http://evil.example/users`, RFC 9112 §3.2.2) gives its
 *   path (`/users`): the authority is never echoed;
 * - a target naming no path of this service gives `/`, the service's root: the
 *   asterisk-form of `OPTIONS *` (§3.2.4), the authority-form of `CONNECT` (§3.2.3),
 *   an empty target, or a request line the parser could not read;
 * - leading slashes collapse to one, so `//evil.example/x` is not a network-path
 *   reference to another host (§4.2);
 * - characters outside RFC 3986's `pchar` and `/` (a `\`, which browsers read as
 *   `/`, quotes, spaces, non-ASCII) and a `%` that starts no percent-encoding are
 *   percent-encoded: the reference is one every URI parser reads alike.
 * The query and the fragment are left out: the path identifies the occurrence.
 * With PUBLIC_URL set, that path is made absolute under it (public-url.ts), never under
 * a host the request named.
 */
import { publishedUrl } from './public-url.js';
import { originForm } from './request-target.js';

/** What a problem names when the request named no path of this service. */
export const ROOT_INSTANCE = '/';

/** Not a `pchar` or `/`, or a `%` that starts no percent-encoding (RFC 3986 §3.3, §2.1). */
const NOT_IN_PATH = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g;

const percent = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/** One character as percent-encoded bytes: a request target's characters are bytes read as Latin-1. */
function encoded(character: string): string {
  const code = character.charCodeAt(0);
  if (code <= 0xff) return percent(code);
  return [...Buffer.from(character, 'utf8')].map(percent).join('');
}

/** The path a problem names for a request with this target (as received, or as rewritten). */
function instancePath(target: string | undefined): string {
  if (target === undefined) return ROOT_INSTANCE;
  const origin = originForm(target);
  const end = origin.search(/[?#]/);
  const path = end === -1 ? origin : origin.slice(0, end);
  if (!path.startsWith('/')) return ROOT_INSTANCE;
  return path.replace(NOT_IN_PATH, encoded).replace(/^\/+/, '/');
}

/** The `instance` of a problem answering a request with this target; `publicUrl` is PUBLIC_URL, when set. */
export function problemInstance(target: string | undefined, publicUrl?: string): string {
  return publishedUrl(publicUrl, instancePath(target));
}
