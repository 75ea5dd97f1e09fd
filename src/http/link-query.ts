/**
 * The query of a `Link: rel="next"` (GET /users, GET /events): the request's parameters
 * written again, so the next page keeps the filters. Whatever a link repeats is bounded,
 * so that no answer's header block passes 8 KiB (Node's HTTP client refuses a head over
 * 16 KiB, common proxies one over 4–8 KiB):
 * - each text parameter a link repeats is at most LINKED_PARAMETER_MAX characters (the
 *   routes' schemas), and
 * - together, written as the link writes them (percent-encoded UTF-8: up to 12 bytes per
 *   character), at most LINK_QUERY_MAX_BYTES bytes.
 * Beyond either: 400 `invalid-query` naming the parameter (for the sum, the longest).
 * docs/api.md, "Paging links", gives the numbers and what the rest of a link may hold.
 */
import { ProblemError } from './problems.js';

export const LINKED_PARAMETER_MAX = 512;
export const LINK_QUERY_MAX_BYTES = 2048;

/** `name=value&…` as links write it: URLSearchParams' encoding, a space as `%20` (which every client reads alike), not `+`. */
export function linkQuery(parameters: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined) query.set(name, String(value));
  return query.toString().replace(/\+/g, '%20');
}

/** Refuses a query whose parameters (but those in `replaced`, which the link writes anew) would make the link longer than the bound. */
export function assertLinkable(query: Record<string, unknown>, replaced: readonly string[] = []): void {
  const written = Object.entries(query)
    .filter(([name, value]) => value !== undefined && !replaced.includes(name))
    .map(([name, value]) => [name, linkQuery({ [name]: String(value) }).length] as const);
  // Each but the first is preceded by `&`.
  const total = written.reduce((sum, [, length]) => sum + length + 1, -1);
  if (total <= LINK_QUERY_MAX_BYTES) return;
  const [longest] = [...written].sort((a, b) => b[1] - a[1])[0]!;
  const detail = `is too long: the parameters a next-page link repeats may take at most ${LINK_QUERY_MAX_BYTES} bytes percent-encoded, and these take ${total}`;
  throw new ProblemError('invalid-query', `${longest} ${detail}.`, { errors: [{ parameter: longest, detail }] });
}
