/**
 * How request bodies are read (CONTRACT §6). Fastify's own parsers are replaced,
 * because they decode bytes leniently: invalid UTF-8 became U+FFFD and was stored,
 * a `charset` other than UTF-8 was ignored, and a `Content-Encoding` the service
 * does not decode was read as if it were plain text.
 *
 * - A body is JSON, in UTF-8 (RFC 8259 §8.1): a `charset` parameter other than
 *   `utf-8` is a 415; bytes that are not well-formed UTF-8 (overlong forms,
 *   encoded surrogates, stray continuation bytes) are a 400.
 * - No content coding is decoded: `Content-Encoding` other than `identity` is a
 *   415 with `Accept-Encoding: identity` (RFC 9110 §12.5.3, RFC 7694).
 * - A route that takes no body (DELETE, any route without a body schema) accepts
 *   an empty body whatever its Content-Type, since many clients send a default
 *   JSON content type on every request; a non-empty body there is a 400.
 * - `__proto__` and `constructor.prototype` members are a 400 (secure-json-parse).
 * - A member name repeated in one object, at any depth, is a 400 naming it (duplicate-members.ts).
 */
import { isUtf8 } from 'node:buffer';
import contentType from 'content-type';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { repeatedMember } from './duplicate-members.js';
import { ProblemError } from './problems.js';

/** A body media type a route accepts, and the problem detail naming it. */
export interface BodyType {
  mediaType: string;
  /** Other media types read the same way (SCIM takes application/json too). */
  alsoAccepted?: readonly string[];
  /** Headers a 415 for this type carries (e.g. `Accept-Patch`). */
  unsupportedHeaders?: Record<string, string>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The media type of the route's body, when it is not application/json. */
    bodyType?: BodyType;
  }
}

export const JSON_BODY: BodyType = { mediaType: 'application/json' };

/** The route's expected body type, or undefined when the route takes no body. */
function expectedBody(request: FastifyRequest): BodyType | undefined {
  const options = request.routeOptions;
  if (options.schema?.body === undefined) return undefined;
  return options.config.bodyType ?? JSON_BODY;
}

/** `application/merge-patch+json or application/json`: the media types a route reads. */
const accepted = (expected: BodyType) => [expected.mediaType, ...(expected.alsoAccepted ?? [])].join(' or ');

function unsupported(expected: BodyType | undefined, detail: string): ProblemError {
  return new ProblemError('unsupported-media-type', detail, {}, expected?.unsupportedHeaders ?? {});
}

/** Refuses what no parser of this service decodes: a content coding, a charset other than UTF-8. */
function checkEncoding(request: FastifyRequest, expected: BodyType | undefined): void {
  const coding = request.headers['content-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') {
    throw new ProblemError('unsupported-media-type', 'Content-Encoding is not supported; send the body uncompressed.', {}, {
      'accept-encoding': 'identity',
      ...expected?.unsupportedHeaders,
    });
  }
  const header = request.headers['content-type'];
  if (header === undefined) return;
  let charset: string | undefined;
  try {
    charset = contentType.parse(header).parameters.charset;
  } catch {
    throw unsupported(expected, 'The Content-Type header is not a valid media type.');
  }
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    throw unsupported(expected, `The body must be encoded as UTF-8 (charset=utf-8), not ${JSON.stringify(charset)}.`);
  }
}

/**
 * Settles what every body has in common. Returns true when the body is done
 * with (no body expected and none sent, or a 404 that will not read it); throws
 * the problem of a body that cannot be accepted.
 */
function settleCommon(request: FastifyRequest, body: Buffer, expected: BodyType | undefined): boolean {
  // Unmatched paths answer 404 whatever they were sent.
  if (request.is404) return true;
  checkEncoding(request, expected);
  if (expected === undefined) {
    if (body.length === 0) return true;
    throw new ProblemError('malformed-request', `${request.method} takes no request body.`);
  }
  if (body.length === 0) throw new ProblemError('malformed-request', `The body is empty; a JSON object is required.`);
  return false;
}

function parseJson(body: Buffer): unknown {
  if (!isUtf8(body)) throw new ProblemError('malformed-request', 'The body is not valid UTF-8.');
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw new ProblemError('malformed-request', 'The body is not valid JSON.');
  }
  const repeated = repeatedMember(text, value);
  if (repeated !== undefined) {
    const where = repeated.pointer === '' ? 'the body' : `the object at ${repeated.pointer}`;
    throw new ProblemError('malformed-request', `The member ${JSON.stringify(repeated.name)} appears more than once in ${where}; member names must be unique (RFC 7493 §2.3).`);
  }
  return value;
}

/** Replaces Fastify's parsers: `mediaTypes` are read as JSON (each route says which one it takes); anything else is a 415. */
export function installBodyParsers(app: FastifyInstance, mediaTypes: readonly string[] = [JSON_BODY.mediaType]): void {
  // `Expect: 100-continue` (parser-errors.ts): the body is invited only now, after the request steps let it through.
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (request.headers.expect?.toLowerCase() === '100-continue' && !reply.raw.headersSent) reply.raw.writeContinue();
    done(null, payload);
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser([...mediaTypes], { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    try {
      const expected = expectedBody(request);
      if (settleCommon(request, body, expected)) return done(null, undefined);
      const sent = request.mediaType;
      if (expected !== undefined && sent !== expected.mediaType && !expected.alsoAccepted?.includes(sent ?? '')) {
        throw unsupported(expected, `Send the body as ${accepted(expected)}.`);
      }
      done(null, parseJson(body));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // Any other media type, or none: only an empty body on a route that takes none is accepted.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    try {
      const expected = expectedBody(request);
      if (settleCommon(request, body, expected)) return done(null, undefined);
      throw unsupported(expected, `Send the body as ${accepted(expected ?? JSON_BODY)}.`);
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
