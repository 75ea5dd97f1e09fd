/**
 * The problem document (RFC 9457) as a schema, for the OpenAPI document: every
 * error response of every route refers to it, under application/problem+json.
 */
import { Type } from 'typebox';
import { PROBLEM_CONTENT_TYPE, PROBLEM_TYPE_BASE, PROBLEM_TYPES } from './problems.js';

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ enum: Object.keys(PROBLEM_TYPES).map((t) => PROBLEM_TYPE_BASE + t), description: 'One of the fixed problem types (README, Errors).' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String({ description: 'The request path.' }),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          pointer: Type.Optional(Type.String({ description: 'JSON pointer into the body.' })),
          parameter: Type.Optional(Type.String({ description: 'Query or path parameter.' })),
          detail: Type.String(),
        }),
      ),
    ),
    key: Type.Optional(Type.String({ description: 'On 409: the unique key that is taken.' })),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details.' },
);

const DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request, invalid body, lookup key or query',
  401: 'Missing or invalid credentials',
  403: 'Credentials lack the needed scope',
  404: 'No such user',
  405: 'Method not defined on this path (see Allow)',
  409: 'A unique key is taken (see key)',
  412: 'If-Match did not match',
  413: 'Body larger than the limit',
  415: 'Body is not application/json',
  429: 'Rate limited (see Retry-After)',
  503: 'Store unavailable or instance overloaded (see Retry-After)',
};

/** Response entries for these statuses, each a problem document. */
export function problemResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [status, { description: DESCRIPTIONS[status] ?? 'Problem', content: { [PROBLEM_CONTENT_TYPE]: { schema: Type.Ref('Problem') } } }]),
  );
}
