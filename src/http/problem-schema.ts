/**
 * The problem document (RFC 9457) as a schema, for the OpenAPI document: every
 * error response of every route refers to it, under application/problem+json
 * (openapi/responses.ts).
 */
import { Type } from 'typebox';
import { PROBLEM_TYPE_BASE, PROBLEM_TYPES } from './problems.js';

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ enum: Object.keys(PROBLEM_TYPES).map((t) => PROBLEM_TYPE_BASE + t), description: 'One of the fixed problem types (README, Errors).' }),
    title: Type.String(),
    status: Type.Integer({ minimum: 400, maximum: 599, description: 'The HTTP status, repeated.' }),
    detail: Type.String(),
    instance: Type.String({
      pattern: '^(/(?!/)|https?://)',
      description:
        "The request's path, without its query, as a reference on this service (percent-encoded where needed; never a host the request named): root-relative, or absolute under PUBLIC_URL when that is set. `/` when the request named no path of this service (`OPTIONS *`, `CONNECT`, a request line that could not be read).",
    }),
    errors: Type.Optional(
      Type.Array(
        Type.Object(
          {
            pointer: Type.Optional(Type.String({ description: 'JSON pointer into the body.' })),
            parameter: Type.Optional(Type.String({ description: 'Query or path parameter.' })),
            detail: Type.String(),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    key: Type.Optional(Type.String({ description: 'On 409: the unique key that is taken.' })),
  },
  { $id: 'Problem', additionalProperties: false, description: 'RFC 9457 problem details.' },
);
