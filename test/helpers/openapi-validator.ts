/**
 * Every response the HTTP tests receive is checked against the OpenAPI document
 * the server itself serves (issue: drift must be impossible): the status is one
 * the matched operation declares, every header it marks required is present and
 * valid, and the body matches the declared schema for its media type. The check
 * is Stoplight Prism's (the router and validator of its validating proxy), not
 * ours. A request that matches no operation (an unknown path, a method the path
 * does not define) must still be answered with a problem document of the
 * document's `Problem` schema.
 *
 * @stoplight/prism-http is pinned to 5.12.0: later releases need Node 24.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import prismRouter from '@stoplight/prism-http/dist/router/index.js';
import { validateOutput } from '@stoplight/prism-http/dist/validator/index.js';
import type { IncomingHttpHeaders } from 'node:http';

/** The matched operation's checks, and the fallback for requests that match none. */
interface DocumentChecks {
  operations: unknown[];
  isProblem: (body: unknown) => boolean;
}

type Diagnostic = { severity: number; code?: string | number; path?: string[]; message: string };
type Either<L, R> = { _tag: 'Left'; left: L } | { _tag: 'Right'; right: R };

const route = (prismRouter as unknown as { default: (input: unknown) => Either<Error, { iid?: string; responses: unknown[] }> }).default;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The document of each server under test, fetched once (by base URL). */
const documents = new Map<string, Promise<DocumentChecks>>();
/** Compiled documents by their text: most servers of a run serve the same one, and compiling is slow. */
const compiled = new Map<string, Promise<DocumentChecks>>();

/** Compiles the checks of a document (synchronous work of a few hundred ms: do it before a server measures its event loop). */
export function compileDocument(document: Record<string, any>): Promise<DocumentChecks> {
  const text = JSON.stringify(document);
  let checks = compiled.get(text);
  if (checks === undefined) {
    checks = loadDocument(JSON.parse(text) as Record<string, any>);
    compiled.set(text, checks);
  }
  return checks;
}

async function loadDocument(document: Record<string, any>): Promise<DocumentChecks> {
  const operations = await getHttpOperationsFromSpec(structuredClone(document));
  // The formats the service names (username, …) are its own; the document states them as patterns too.
  const ajv = new Ajv2020({ strict: false, allErrors: true, formats: { username: true, 'email-address': true, 'legacy-id': true } });
  addFormats(ajv);
  const isProblem = ajv.compile(document.components.schemas.Problem);
  return { operations, isProblem: (body) => isProblem(body) };
}

/**
 * Registers a server's document, before any request is sent to it: test servers do
 * this as they start, so fetching the document never counts against a rate limit
 * or meets a shedding instance.
 */
export function primeDocument(baseUrl: string, document: Record<string, any> | Promise<DocumentChecks>): Promise<DocumentChecks> {
  const loaded = document instanceof Promise ? document : compileDocument(document);
  documents.set(baseUrl, loaded);
  return loaded;
}

/** Forgets a server's document once it stops (its port may be reused by a server of another configuration). */
export function forgetDocument(baseUrl: string): void {
  documents.delete(baseUrl);
}

/** The server's document: primed, or else fetched before its first checked response. */
export function documentFor(baseUrl: string, fetchDocument: () => Promise<Record<string, any>>): Promise<DocumentChecks> {
  let loaded = documents.get(baseUrl);
  if (loaded === undefined) {
    loaded = fetchDocument().then(compileDocument);
    documents.set(baseUrl, loaded);
    // A failed fetch is not cached: the next request tries again.
    loaded.catch(() => documents.delete(baseUrl));
  }
  return loaded;
}

/** The path of a request target (origin-form or absolute-form), as sent: no decoding, no query. */
function pathOfTarget(target: string): string {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(target);
  const rest = absolute ? target.slice(absolute[0].length) || '/' : target;
  const end = rest.search(/[?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}

export interface CheckedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
  text: string;
}

/** Whether a request target names a path under /scim/v2 once percent-decoded (its spellings reach the SCIM routes). */
function isScimTarget(target: string): boolean {
  try {
    return /^\/+scim\/+v2(\/|$)/i.test(decodeURIComponent(pathOfTarget(target)));
  } catch {
    return false;
  }
}

/**
 * SCIM answers are described by SCIM's own discovery resources (/scim/v2/Schemas), not by
 * the OpenAPI document: every one is application/scim+json, and an error is SCIM's error
 * message (RFC 7644 §3.12) with `status` the response's status as a string.
 */
function scimResponseProblems(response: CheckedResponse, hasBody: boolean): string[] {
  const problems: string[] = [];
  if (!hasBody) return problems;
  if (!String(response.headers['content-type'] ?? '').startsWith('application/scim+json')) problems.push(`a SCIM answer that is not application/scim+json: ${response.headers['content-type']}`);
  if (response.status >= 400) {
    const body = response.body as { schemas?: unknown; status?: unknown } | undefined;
    if (!Array.isArray(body?.schemas) || !body.schemas.includes('urn:ietf:params:scim:api:messages:2.0:Error') || body.status !== String(response.status)) {
      problems.push(`a SCIM error that is not SCIM's error message: ${response.text.slice(0, 200)}`);
    }
  }
  return problems;
}

/** What is wrong with `response` according to the document; empty when nothing is. */
export function responseProblems(checks: DocumentChecks, method: string, target: string, response: CheckedResponse): string[] {
  if (isScimTarget(target) && String(response.headers['content-type'] ?? '').startsWith('application/scim+json')) {
    return scimResponseProblems(response, method !== 'HEAD' && response.status !== 204 && response.text !== '');
  }
  const matched = route({ resources: checks.operations, input: { method: method.toLowerCase(), url: { path: pathOfTarget(target) } } });
  const hasBody = method !== 'HEAD' && response.status !== 204 && response.status !== 304 && response.text !== '';
  if (matched._tag === 'Left') {
    // No operation: only an error can answer, and it must be a problem document.
    const problems: string[] = [];
    if (response.status < 400) problems.push(`${response.status} for a request that matches no operation (${matched.left.message})`);
    if (hasBody && !checks.isProblem(response.body)) problems.push(`the answer to a request that matches no operation is not a Problem: ${response.text.slice(0, 200)}`);
    return problems;
  }
  const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]));
  const result = validateOutput({ resource: matched.right as never, element: { statusCode: response.status, headers, ...(hasBody ? { body: response.body ?? response.text } : {}) } }) as Either<Diagnostic[], unknown>;
  if (result._tag === 'Right') return [];
  // Any diagnostic fails: Prism reports an undeclared status as a mere warning.
  return result.left.map((d) => `${matched.right.iid ?? '?'}: ${d.code ?? ''} ${d.path?.join('.') ?? ''}: ${d.message}`);
}
