/**
 * The OpenAPI document tells the whole truth: Redocly's recommended ruleset finds
 * no error and only the warnings docs/api.md justifies; every route the app serves
 * is an operation with a name and a summary; security follows AUTH_MODE. (Every
 * response of the HTTP suite is also checked against it: helpers/openapi-validator.ts.)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BaseResolver, createConfig, lintDocument, makeDocumentFromString } from '@redocly/openapi-core';
import { isPublic } from '../../src/http/route-access.js';
import { AUDIENCE, ISSUER, apiKeysFixture, jwtFixture, type ApiKeysFixture, type JwtFixture } from '../helpers/auth-fixtures.js';
import { REPO_ROOT } from '../helpers/child-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

type Document = Record<string, any>;
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];

/** The lint warnings docs/api.md justifies: its table under "Lint warnings", as `rule pointer` lines. */
function justifiedWarnings(): string[] {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'api.md'), 'utf8');
  const section = doc.split('### Lint warnings')[1]?.split('\n#')[0] ?? '';
  return [...section.matchAll(/^\| `([a-z0-9-]+)` \| `([^`]+)` \|/gm)].map((m) => `${m[1]} ${m[2]}`).sort();
}

async function lint(document: Document): Promise<{ errors: string[]; warnings: string[] }> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintDocument({ document: makeDocumentFromString(JSON.stringify(document), '/openapi.json'), config, externalRefResolver: new BaseResolver(config.resolve) });
  const describe = (p: (typeof problems)[number]) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}`;
  return {
    errors: problems.filter((p) => p.severity === 'error').map((p) => `${describe(p)}: ${p.message}`),
    warnings: problems.filter((p) => p.severity === 'warn').map(describe).sort(),
  };
}

function operations(document: Document): [string, string, Record<string, any>][] {
  return Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m] !== undefined).map((m) => [m, path, item[m]] as [string, string, Record<string, any>]),
  );
}

/** `/users/:ref` → `/users/{ref}`. */
const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const modes = {
  none: async () => ({ env: {}, cleanup: () => {} }),
  'api-key': async () => {
    const keys: ApiKeysFixture = apiKeysFixture();
    return { env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file }, cleanup: () => keys.cleanup() };
  },
  jwt: async () => {
    const jwt: JwtFixture = await jwtFixture();
    return { env: { AUTH_MODE: 'jwt', JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, JWT_JWKS_FILE: jwt.jwksFile }, cleanup: () => jwt.cleanup() };
  },
};

for (const [mode, setUp] of Object.entries(modes)) {
  describe(`the OpenAPI document with AUTH_MODE=${mode}`, () => {
    let server: TestServer;
    let document: Document;
    let cleanup: () => void;
    before(async () => {
      const fixture = await setUp();
      cleanup = fixture.cleanup;
      server = await startTestServer({ env: fixture.env });
      document = (await server.get('/openapi.json')).body;
    });
    after(async () => {
      await server.close();
      cleanup();
    });

    it('passes Redocly\'s recommended ruleset with no error, and only the warnings docs/api.md justifies', async () => {
      const { errors, warnings } = await lint(document);
      assert.deepEqual(errors, []);
      assert.deepEqual(warnings, justifiedWarnings());
    });

    it('names and summarises every operation, each name once', () => {
      const ids = operations(document).map(([method, path, op]) => {
        assert.match(String(op.operationId), /^[a-z][A-Za-z]+$/, `${method} ${path}`);
        assert.ok(typeof op.summary === 'string' && op.summary.length > 0, `${method} ${path} has no summary`);
        return op.operationId;
      });
      assert.equal(new Set(ids).size, ids.length, `duplicate operationIds: ${ids.join(', ')}`);
    });

    it('defines every tag an operation uses in the document\'s top-level tags (Spectral operation-tag-defined)', () => {
      const defined = new Set((document.tags as { name: string }[]).map((tag) => tag.name));
      for (const [method, path, op] of operations(document)) {
        assert.ok(Array.isArray(op.tags) && op.tags.length > 0, `${method} ${path} has no tag`);
        for (const tag of op.tags) assert.ok(defined.has(tag), `${method} ${path} uses the undefined tag ${tag}`);
      }
    });

    it('documents every method of every route the app serves, HEAD included (the generated 405s and the docs page are not operations)', () => {
      const served = server.app.routeTable.filter((entry) => !entry.hidden);
      assert.ok(served.length >= 10);
      for (const entry of served) {
        for (const method of entry.methods) assert.ok(document.paths[openapiPath(entry.url)]?.[method.toLowerCase()], `${method} ${entry.url} is served but not documented`);
      }
      for (const [method, path] of operations(document)) {
        assert.ok(server.app.routeTable.some((e) => openapiPath(e.url) === path && e.methods.includes(method.toUpperCase())), `${method} ${path} is documented but not served`);
      }
    });

    it(mode === 'none' ? 'says of every operation that it needs no credential' : 'requires the bearer scheme with the route\'s scope, and says the public routes need none', () => {
      for (const [method, path, op] of operations(document)) {
        const entry = server.app.routeTable.find((e) => openapiPath(e.url) === path && e.methods.includes(method.toUpperCase()));
        assert.ok(entry, `${method} ${path}`);
        if (mode === 'none' || isPublic(entry.access)) assert.deepEqual(op.security, [], `${method} ${path}`);
        // A route open to any valid credential needs the scheme with no particular scope.
        else assert.deepEqual(op.security, [{ bearer: entry.access === 'credential' ? [] : [entry.access] }], `${method} ${path}`);
      }
      if (mode === 'none') assert.equal(document.components.securitySchemes, undefined);
      else assert.deepEqual(Object.keys(document.components.securitySchemes), ['bearer']);
    });

    it('declares the conditional request headers and the headers every answer carries', () => {
      const read = document.paths['/users/{ref}'].get;
      assert.ok(read.parameters.some((p: any) => p.in === 'header' && p.name === 'if-none-match'));
      const verbs: Record<string, string> = { put: 'Replace', patch: 'Patch', delete: 'Delete' };
      for (const [method, verb] of Object.entries(verbs)) {
        const write = document.paths['/users/{ref}'][method];
        for (const name of ['if-match', 'if-none-match']) {
          const header = write.parameters.find((p: any) => p.in === 'header' && p.name === name);
          assert.ok(header, `${method} declares ${name}`);
          assert.match(header.description, new RegExp(`^${verb} only if .*412`), `${method} ${name}: a description of its own method`);
        }
        assert.ok(write.responses['412'], `${method} declares its 412`);
      }
      for (const [method, path, op] of operations(document)) {
        for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
          assert.equal(response.headers?.['X-Request-Id']?.required, true, `${method} ${path} ${status} must declare X-Request-Id`);
        }
      }
      assert.equal(read.responses['200'].headers.ETag.required, true);
      assert.equal(document.paths['/users'].post.responses['201'].headers.Location.required, true);
      assert.equal(document.paths['/users/{ref}'].put.responses['405'].headers.Allow.required, true);
    });

    it('describes the ref path parameter per method: GET and HEAD take a uid or {key}:{value}, writes a uid only', () => {
      const path = document.paths['/users/{ref}'];
      const ref = (method: string) => path[method].parameters.find((p: any) => p.in === 'path' && p.name === 'ref');
      /** The example values of a parameter: one `example`, or the values of `examples`. */
      const examplesOf = (parameter: any): string[] => (parameter.example !== undefined ? [parameter.example] : Object.values(parameter.examples ?? {}).map((e: any) => e.value));
      for (const method of ['get', 'head']) {
        assert.match(ref(method).description, /\{key\}:\{value\}/, method);
        assert.ok(examplesOf(ref(method)).includes('username:alice'), `${method} has a lookup example`);
      }
      for (const method of ['put', 'patch', 'delete']) {
        assert.match(ref(method).description, /^The uid of the user\..*405/, method);
        const examples = examplesOf(ref(method));
        assert.ok(examples.length > 0 && examples.every((example) => !example.includes(':')), `${method} shows only uids as examples: ${examples}`);
      }
    });

    it('declares a 304 without content on every GET and HEAD that reads If-None-Match, and on nothing else', () => {
      for (const [method, path, op] of operations(document)) {
        const readsIfNoneMatch = (op.parameters ?? []).some((p: any) => p.in === 'header' && p.name === 'if-none-match');
        const notModified = op.responses['304'];
        if (readsIfNoneMatch && (method === 'get' || method === 'head')) {
          assert.ok(notModified, `${method} ${path} reads If-None-Match: it may answer 304`);
          assert.equal(notModified.content, undefined, `${method} ${path}: a 304 has no body`);
          assert.equal(notModified.headers.ETag.required, true, `${method} ${path}: a 304 names the current tag`);
        } else {
          assert.equal(notModified, undefined, `${method} ${path} cannot answer 304`);
        }
      }
      for (const method of ['get', 'head']) assert.ok(document.paths['/users/{ref}'][method].responses['304'], `${method} /users/{ref}`);
    });

    it('types limit as an integer, and names the request bodies', () => {
      const limit = document.paths['/users'].get.parameters.find((p: any) => p.name === 'limit');
      assert.equal(limit.schema.type, 'integer');
      assert.deepEqual(document.paths['/users'].post.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/UserCreate' });
      assert.deepEqual(document.paths['/users/{ref}'].put.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/UserReplacement' });
    });

    it('declares the PATCH body as the server takes it: a merge patch under both media types it reads, where username and email_address cannot be null', () => {
      const patchBody = { schema: { $ref: '#/components/schemas/UserPatch' } };
      assert.deepEqual(document.paths['/users/{ref}'].patch.requestBody.content, { 'application/merge-patch+json': patchBody, 'application/json': patchBody });
      const { properties } = document.components.schemas.UserPatch;
      for (const key of ['username', 'email_address']) assert.equal(properties[key].type, 'string', `${key} is a string, never null (a null is a 400)`);
      assert.deepEqual(properties.display_name.anyOf?.map((s: any) => s.type) ?? properties.display_name.type, ['string', 'null'], 'an optional field may be null: it is removed');
    });
  });
}
