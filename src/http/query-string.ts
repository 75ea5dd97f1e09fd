/**
 * The query-string parser (application/x-www-form-urlencoded, as browsers and
 * URLSearchParams write it: `+` is a space). Unlike the default parser it never
 * takes a broken percent-encoding or an empty `&&` pair literally: such a query
 * is marked malformed, and GET /users answers 400 (CONTRACT §4: bad parameters).
 * It never throws, because it runs while Fastify routes the request.
 */

import type { FastifyRequest } from 'fastify';
import { ProblemError } from './problems.js';

/** Why the query could not be parsed, when it could not. Not enumerable, so schemas never see it. */
export const MALFORMED_QUERY = Symbol('malformed query');

export type ParsedQuery = Record<string, string | string[]> & { [MALFORMED_QUERY]?: string };

export function parseQueryString(text: string): ParsedQuery {
  const query: ParsedQuery = Object.create(null);
  if (text === '') return query;
  for (const pair of text.split('&')) {
    const eq = pair.indexOf('=');
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      Object.defineProperty(query, MALFORMED_QUERY, { value: `${JSON.stringify(pair)} is not valid percent-encoded UTF-8` });
      return query;
    }
    if (name === '') {
      Object.defineProperty(query, MALFORMED_QUERY, { value: 'the query has an empty parameter name' });
      return query;
    }
    const existing = query[name];
    query[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return query;
}

/** Plain decimal, as integer parameters must be written: no sign, no leading zero, no exponent, at most 15 digits. */
const DECIMAL = /^(0|[1-9][0-9]{0,14})$/;

/**
 * A route's preValidation: a query the parser could not read is a 400 before the
 * schema sees it. The `integers` are integers in the route's schema; they arrive
 * as text, and only plain decimal text becomes a number (anything else stays text
 * and fails the schema, so `007`, `+7` and `1e2` are refused).
 */
export function wellFormedQuery(integers: readonly string[]) {
  return async function wellFormed(request: FastifyRequest): Promise<void> {
    const query = request.query as ParsedQuery;
    const malformed = query[MALFORMED_QUERY];
    if (malformed !== undefined) throw new ProblemError('invalid-query', `The query string is malformed: ${malformed}.`);
    for (const name of integers) {
      const value = query[name];
      if (typeof value === 'string' && DECIMAL.test(value)) (query as Record<string, unknown>)[name] = Number(value);
    }
  };
}
