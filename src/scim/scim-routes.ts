/**
 * SCIM 2.0 at /scim/v2 (CONTRACT §12, docs/scim.md): the Users resource and the
 * discovery resources, as one Fastify plugin. Handlers map between SCIM and the user
 * resource (scim-mapping.ts) and call the same user service as the REST routes, so
 * validation, uniqueness, ETags, the change feed and authentication are the ones of
 * the directory. Routes declare their access as every route does (default deny);
 * they are left out of the OpenAPI document, since SCIM describes itself at /Schemas.
 */
import { deadlineOf } from '../http/request-budget.js';
import { mapInSlices } from '../event-loop-slices.js';
import { originOf } from '../events/event-origin.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchMatches } from '../http/conditional-requests.js';
import type { Idempotency } from '../http/idempotency.js';
import type { RequestStep } from '../http/request-steps.js';
import { wellFormedQuery } from '../http/query-string.js';
import { etagOf } from '../users/user-etag.js';
import { assertStorableBody, findUnstorableValue } from '../users/user-input.js';
import { validatedBody } from '../users/user-patch.js';
import type { User } from '../users/user.js';
import type { UserService } from '../users/user-service.js';
import { writePrecondition } from '../users/write-precondition.js';
import { IDEMPOTENCY_KEY, IF_NONE_MATCH, writeConditions } from '../users/user-route-schemas.js';
import { listResponse, MAX_PAGE, serviceProviderConfig, userResourceType } from './scim-discovery.js';
import { badRequest, ScimError } from './scim-error.js';
import { parseFilter } from './filter/filter-parser.js';
import { restBodyOf, scimUserOf } from './scim-mapping.js';
import { assertNoCaseRepeats } from './scim-member-names.js';
import { applyScimPatch, type PatchOperation } from './scim-patch.js';
import { projector } from './scim-projection.js';
import { createScimLister, planList } from './scim-query.js';
import { SCIM_CONTENT_TYPE, SCIM_MEDIA_TYPE, scimErrorHandler } from './scim-responses.js';
import { ENTERPRISE_USER_SCHEMA, userSchemaDocuments } from './scim-user-schema.js';

export const SCIM_PREFIX = '/scim/v2';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const SEARCH_REQUEST = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const LIST_PARAMETERS = ['filter', 'startIndex', 'count', 'sortBy', 'sortOrder', 'attributes', 'excludedAttributes'];
/**
 * Microsoft Entra ID's feature flag: appended to the tenant URL as its docs recommend
 * (docs/scim.md), it may come back on every request. It asks nothing of this service.
 */
const IGNORED_PARAMETERS = new Set(['aadoptscim062020']);

export interface ScimRoutesOptions {
  service: UserService;
  idempotency: Idempotency;
  /** Admission and rate limit, run before a 404 for a path no route matched. */
  notFoundStep: RequestStep;
  /** REQUEST_BUDGET_MS: how long a list request may run (http/request-budget.ts). */
  budgetMs: number;
}

/** Any JSON body, read as application/scim+json or application/json; the mapping validates it. */
const JSON_BODY_SCHEMA = { hide: true, body: {} };
const SCIM_BODY = { mediaType: SCIM_MEDIA_TYPE, alsoAccepted: ['application/json'] };

/** A SCIM PUT or PATCH replaces what SCIM shows: the REST-only members stay, and `active` when the body leaves it out. */
const keepingRestOnly = (current: User, body: Record<string, unknown>) => ({ active: current.active, ...body, legacy_ids: current.legacy_ids, attributes: current.attributes });

/** The parameters a read of one user takes (RFC 7644 §3.4.1). */
const READ_PARAMETERS = ['attributes', 'excludedAttributes'];

/** One value per parameter, each one of `known` (names in any case): a repeated or unknown one is a 400. */
function listParameters(query: Record<string, unknown>, known: readonly string[] = LIST_PARAMETERS): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (IGNORED_PARAMETERS.has(name.toLowerCase())) continue;
    const canonical = known.find((p) => p.toLowerCase() === name.toLowerCase());
    if (canonical === undefined) throw badRequest('invalidValue', `Unknown query parameter ${JSON.stringify(name)}; known: ${known.join(', ')}.`);
    if (typeof value !== 'string' || out[canonical] !== undefined) throw badRequest('invalidValue', `${canonical} must be given once.`);
    out[canonical] = value;
  }
  return out;
}

/**
 * The members of a SearchRequest (RFC 7644 §3.4.3) as the parameters of a GET: the same
 * names (any case, once each), `startIndex` and `count` integers, `attributes` and
 * `excludedAttributes` strings or arrays of strings, the others strings.
 */
function searchParameters(body: unknown): Record<string, string> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('invalidSyntax', 'The body must be a SearchRequest object.');
  const refused = (member: string, rule: string) => badRequest('invalidValue', `The SearchRequest is not valid: ${member} ${rule}.`);
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    if (name === 'schemas') {
      if (!Array.isArray(value) || !value.includes(SEARCH_REQUEST)) throw refused('schemas', `must be [${JSON.stringify(SEARCH_REQUEST)}]`);
      continue;
    }
    const known = LIST_PARAMETERS.find((p) => p.toLowerCase() === name.toLowerCase());
    if (known === undefined) throw badRequest('invalidValue', `Unknown member ${JSON.stringify(name)} of a SearchRequest.`);
    if (parameters[known] !== undefined) throw refused(known, 'must be given once');
    if (known === 'startIndex' || known === 'count') {
      // The GET parameters' bound (at most 15 digits): a larger integer means the same, 1e400 is no integer.
      if (!Number.isSafeInteger(value) || Math.abs(value as number) >= 1e15) throw refused(known, 'must be an integer of at most 15 digits');
      parameters[known] = String(value);
    } else if ((known === 'attributes' || known === 'excludedAttributes') && Array.isArray(value) && value.every((v) => typeof v === 'string')) {
      parameters[known] = value.join(',');
    } else if (typeof value === 'string') parameters[known] = value;
    else throw refused(known, (known === 'attributes' || known === 'excludedAttributes') ? 'must be a string or an array of strings' : 'must be a string');
  }
  return parameters;
}

/** A positive decimal integer parameter (RFC 7644 §3.4.2.4: values below 1 are read as 1, a count below 0 as 0). */
function integer(value: string | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!/^-?[0-9]+$/.test(value)) throw badRequest('invalidValue', `${name} must be an integer.`);
  // Past 15 digits an integer is beyond every page and count: read as the largest one kept exactly.
  return Math.max(min, value.replace(/^-?0*/, '').length > 15 && !value.startsWith('-') ? Number.MAX_SAFE_INTEGER : Number(value));
}

/**
 * A list whose filter names a user by a key (`userName eq`, `externalId eq`, `id eq`, or an
 * address of `emails`: the existence checks of Okta and Entra, their most frequent requests)
 * reads the few users that key names, so it is no expensive request; a filter that does not
 * parse is refused at once.
 */
function byUniqueKey(query: unknown): boolean {
  const filter = (query as Record<string, unknown>).filter;
  if (typeof filter !== 'string') return false;
  try {
    return planList(parseFilter(filter)).narrowed;
  } catch {
    return true;
  }
}

export async function scimRoutes(app: FastifyInstance, { service, idempotency, notFoundStep, budgetMs }: ScimRoutesOptions): Promise<void> {
  app.setErrorHandler(scimErrorHandler);
  app.setNotFoundHandler(async (request, reply) => {
    await notFoundStep(request, reply);
    throw new ScimError(404, 'No resource exists at this path; this service provides /Users, /ServiceProviderConfig, /Schemas and /ResourceTypes.');
  });
  const list = createScimLister(service);
  /**
   * Where the SCIM resources are: root-relative as the REST door's Location is, or under
   * PUBLIC_URL (http/public-url.ts), never under a client-chosen Host (http/request-target.ts).
   * A user's location is its meta.location, Location and Content-Location, and a manager's $ref.
   */
  const base = app.publishedUrl(SCIM_PREFIX);
  const locationOf = (uid: string) => `${base}/Users/${uid}`;
  const scim = (reply: FastifyReply, status: number, body: unknown) => reply.code(status).type(SCIM_CONTENT_TYPE).send(JSON.stringify(body));
  /** A User answer: ETag (= meta.version) and Content-Location (= meta.location, RFC 7643 §3.1). */
  const userReply = (reply: FastifyReply, user: User, project = (r: Record<string, unknown>) => r) =>
    scim(reply.header('etag', etagOf(user)).header('content-location', locationOf(user.uid)), 200, project(scimUserOf(user, locationOf)));

  const read = { access: 'users:read' as const };
  const write = { access: 'users:write' as const, bodyType: SCIM_BODY };
  // The conditional and idempotency headers each route reads (CORS preflights allow them: http/cors.ts).
  const readOne = { ...read, requestHeaders: IF_NONE_MATCH };
  const writeOne = (verb: 'Replace' | 'Patch' | 'Delete') => ({ ...write, requestHeaders: writeConditions(verb) });
  // A user's answer carries its strong ETag: sent uncompressed, so the tag names the bytes sent (http/compression.ts).
  const tagged = { compress: false } as const;

  app.get('/ServiceProviderConfig', { config: read, schema: { hide: true } }, async (request, reply) => scim(reply, 200, serviceProviderConfig(base)));
  app.get('/ResourceTypes', { config: read, schema: { hide: true } }, async (request, reply) => scim(reply, 200, listResponse([userResourceType(base)], 1, 1)));
  app.get('/ResourceTypes/:name', { config: read, schema: { hide: true } }, async (request, reply) => {
    if ((request.params as { name: string }).name !== 'User') throw new ScimError(404, 'The only resource type is User.');
    return scim(reply, 200, userResourceType(base));
  });
  app.get('/Schemas', { config: read, schema: { hide: true } }, async (request, reply) => {
    const schemas = userSchemaDocuments(base);
    return scim(reply, 200, listResponse(schemas, schemas.length, 1));
  });
  app.get('/Schemas/:id', { config: read, schema: { hide: true } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const schema = userSchemaDocuments(base).find((s) => (s as { id: string }).id === id);
    if (schema === undefined) throw new ScimError(404, `No schema ${JSON.stringify(id)}; see /Schemas.`);
    return scim(reply, 200, schema);
  });

  async function answerList(request: FastifyRequest, reply: FastifyReply, parameters: Record<string, string>): Promise<FastifyReply> {
    const filter = parameters.filter === undefined ? undefined : parseFilter(parameters.filter);
    const startIndex = integer(parameters.startIndex, 'startIndex', 1, 1);
    const count = Math.min(MAX_PAGE, integer(parameters.count, 'count', 100, 0));
    const sortOrder = parameters.sortOrder?.toLowerCase();
    if (sortOrder !== undefined && sortOrder !== 'ascending' && sortOrder !== 'descending') throw badRequest('invalidValue', 'sortOrder must be ascending or descending.');
    const project = projector(parameters);
    // Made once per user: a residual filter reads it, then the page sends it.
    const made = new WeakMap<User, Record<string, unknown>>();
    const representation = (user: User) => made.get(user) ?? made.set(user, scimUserOf(user, locationOf)).get(user)!;
    const page = await list(
      // RFC 7644 §3.4.2.3: sortOrder orders by sortBy; without sortBy there is nothing for it to reverse.
      { ...(filter === undefined ? {} : { filter }), startIndex, count, ...(parameters.sortBy === undefined ? {} : { sortBy: parameters.sortBy }), descending: sortOrder === 'descending' && parameters.sortBy !== undefined },
      representation,
      deadlineOf(reply, budgetMs),
    );
    return scim(reply.header('cache-control', 'no-cache'), 200, listResponse(await mapInSlices(page.users, (user) => project(representation(user))), page.totalResults, startIndex));
  }

  app.get('/Users', { config: { ...read, cost: (request) => !byUniqueKey(request.query) }, schema: { hide: true }, preValidation: wellFormedQuery([]) }, async (request, reply) => answerList(request, reply, listParameters(request.query as Record<string, unknown>)));

  // RFC 7644 §3.4.3: the same query in a body, for filters too long for a URL. A read.
  app.post('/Users/.search', { config: { ...read, cost: 'expensive', bodyType: SCIM_BODY }, schema: JSON_BODY_SCHEMA, preValidation: [wellFormedQuery([]), storableSearch] }, async (request, reply) => {
    // The query is in the body: a query string as well is refused, never ignored.
    listParameters(request.query as Record<string, unknown>, []);
    return answerList(request, reply, searchParameters(request.body));
  });

  app.post('/Users', { ...tagged, config: { ...write, requestHeaders: IDEMPOTENCY_KEY }, schema: JSON_BODY_SCHEMA, preValidation: storable }, async (request, reply) =>
    idempotency.run(request, reply, {
      path: `${SCIM_PREFIX}/Users`,
      fingerprintBody: withoutPassword(request.body),
      execute: (pending) => service.create(validatedBody(restBodyOf(request.body), 'The user'), originOf(request, 'scim'), pending),
      respond: (user) => ({
        status: 201,
        headers: { 'content-type': SCIM_CONTENT_TYPE, etag: etagOf(user), location: locationOf(user.uid) },
        body: JSON.stringify(scimUserOf(user, locationOf)),
      }),
    }),
  );

  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id.toLowerCase();
  const userNotFound = () => new ScimError(404, 'No user has this id.');

  // GET and HEAD share one route: Fastify's automatic HEAD route would give a 304 a Content-Length (RFC 9110 §8.6).
  app.route({ method: ['GET', 'HEAD'], url: '/Users/:id', ...tagged, config: readOne, schema: { hide: true }, preValidation: wellFormedQuery([]), handler: async (request, reply) => {
    const parameters = listParameters(request.query as Record<string, unknown>, READ_PARAMETERS);
    const user = await service.findUser(idOf(request));
    if (user === undefined) throw userNotFound();
    // RFC 7644 §3.14: a version the client holds is answered 304, without a body.
    const ifNoneMatch = request.headers['if-none-match'];
    const etag = etagOf(user);
    if (ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, etag)) return reply.code(304).header('etag', etag).header('content-location', locationOf(user.uid)).send(undefined as never);
    return userReply(reply, user, projector(parameters));
  } });

  // PUT replaces what SCIM shows; a PUT must not reactivate a user by leaving `active` out.
  app.put('/Users/:id', { ...tagged, config: writeOne('Replace'), schema: JSON_BODY_SCHEMA, preValidation: storable }, async (request, reply) => {
    const body = restBodyOf(request.body);
    const user = await service.rewrite(idOf(request), (current) => keepingRestOnly(current, body), originOf(request, 'scim'), writePrecondition(request));
    return userReply(reply, user);
  });

  app.patch('/Users/:id', { ...tagged, config: writeOne('Patch'), schema: JSON_BODY_SCHEMA, preValidation: storable }, async (request, reply) => {
    const operations = patchOperations(request.body);
    const user = await service.rewrite(
      idOf(request),
      (current) => {
        const { meta: _meta, ...resource } = scimUserOf(current, locationOf);
        return keepingRestOnly(current, restBodyOf(applyScimPatch(resource, operations)));
      },
      originOf(request, 'scim'),
      writePrecondition(request),
    );
    return userReply(reply, user);
  });

  app.delete('/Users/:id', { config: writeOne('Delete'), schema: { hide: true } }, async (request, reply) => {
    await service.delete(idOf(request), originOf(request, 'scim'), writePrecondition(request));
    return reply.code(204).send();
  });
}

/** A body without its `password` (any case): what a SCIM create's Idempotency-Key fingerprint covers, since the password is discarded. */
function withoutPassword(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([name]) => name.toLowerCase() !== 'password'));
}

async function storable(request: FastifyRequest): Promise<void> {
  assertStorableBody(request.body);
  assertNoCaseRepeats(request.body);
}

/** A SearchRequest holding a value no store could hold (1e400, U+0000) is refused as a SearchRequest, not as a user. */
async function storableSearch(request: FastifyRequest): Promise<void> {
  const found = findUnstorableValue(request.body);
  if (found !== undefined) throw badRequest('invalidValue', `The SearchRequest is not valid: ${found.pointer.slice(1).replaceAll('/', '.') || 'the body'} ${found.detail}.`);
  assertNoCaseRepeats(request.body);
}

/** The Operations of a PatchOp message (RFC 7644 §3.5.2). */
function patchOperations(body: unknown): PatchOperation[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('invalidSyntax', 'The body must be a PatchOp message.');
  const message = body as Record<string, unknown>;
  const schemas = message.schemas;
  if (schemas !== undefined && (!Array.isArray(schemas) || !schemas.includes(PATCH_OP))) throw badRequest('invalidValue', `schemas must be [${JSON.stringify(PATCH_OP)}].`);
  const operations = Object.entries(message).find(([name]) => name.toLowerCase() === 'operations')?.[1];
  // RFC 7644 §3.5.2: "one or more" operations.
  if (!Array.isArray(operations) || operations.length === 0) throw badRequest('invalidSyntax', 'Operations must be an array of one or more operations.');
  return operations.map((operation, i) => {
    if (operation === null || typeof operation !== 'object' || Array.isArray(operation)) throw badRequest('invalidSyntax', `Operations[${i}] must be an object.`);
    const members = Object.fromEntries(Object.entries(operation as Record<string, unknown>).map(([k, v]) => [k.toLowerCase(), v]));
    if (typeof members.op !== 'string') throw badRequest('invalidSyntax', `Operations[${i}].op must be add, replace or remove.`);
    if (members.path !== undefined && typeof members.path !== 'string') throw badRequest('invalidPath', `Operations[${i}].path must be a string.`);
    return entraManager({ op: members.op, ...(members.path === undefined ? {} : { path: members.path as string }), ...('value' in members ? { value: members.value } : {}) });
  });
}

/**
 * Microsoft Entra ID sets the manager as `{"op":"Add","path":"manager","value":[{"value":"<id>"}]}`
 * (its SCIM tutorial): the enterprise attribute without its URN, and a one-element array for a
 * single-valued attribute. Read as the enterprise manager with that element.
 */
function entraManager(operation: PatchOperation): PatchOperation {
  const path = operation.path?.trim().toLowerCase();
  if (path !== 'manager' && path !== `${ENTERPRISE_USER_SCHEMA.toLowerCase()}:manager`) return operation;
  const value = Array.isArray(operation.value) && operation.value.length === 1 ? operation.value[0] : operation.value;
  return { ...operation, path: `${ENTERPRISE_USER_SCHEMA}:manager`, ...('value' in operation ? { value } : {}) };
}
