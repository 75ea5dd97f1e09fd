/**
 * A value of the wrong form is told what it must be, in words, never with its
 * schema's regular expression: every `pattern` and `format` of every request
 * schema carries its sentence (EXPECTED_KEYWORD), and a bad value at each of them,
 * sent through POST, PUT and PATCH of a real server, through SCIM and through the
 * import's record checker, is answered with that sentence (in `detail`,
 * `errors[].detail` and the import's reason) and no pattern anywhere.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createRecordChecker } from '../../src/cli/import-records.js';
import { EMAIL_ADDRESS_EXPECTED } from '../../src/users/user-formats.js';
import { ImportUserRecord } from '../../src/users/user-schemas.js';
import { EXPECTED_KEYWORD } from '../../src/validation-options.js';
import { runCli } from '../cli/run-cli.js';
import type { TestResponse } from '../helpers/http-client.js';
import { assertProblem } from '../helpers/problem-assertions.js';
import { scimRequest } from '../helpers/scim-client.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

type Schema = Record<string, any>;
type Path = (string | number)[];

/** A string no pattern or format of the service accepts (a control character inside). */
const BAD = 'x\u0007y';

/** A place in a schema whose value has a form to keep: its pattern or format, and the instance path to it. */
interface FormSite {
  path: Path;
  schema: Schema;
}

/** Follows a local `$ref` of the OpenAPI document. */
function resolved(document: Schema, schema: Schema): Schema {
  if (typeof schema.$ref !== 'string') return schema;
  return String(schema.$ref).replace(/^#\//, '').split('/').reduce((node: Schema, token) => node[token], document);
}

/** Every place under `schema` that has a pattern or a format (arrays at index 0; union branches at the union's place). */
function formSites(document: Schema, schema: Schema, path: Path = []): FormSite[] {
  const node = resolved(document, schema);
  const here: FormSite[] = typeof node.pattern === 'string' || typeof node.format === 'string' ? [{ path, schema: node }] : [];
  const properties = Object.entries((node.properties ?? {}) as Record<string, Schema>).flatMap(([name, sub]) => formSites(document, sub, [...path, name]));
  const items = node.items && typeof node.items === 'object' ? formSites(document, node.items, [...path, 0]) : [];
  const branches = ['anyOf', 'oneOf', 'allOf'].flatMap((key) => ((node[key] ?? []) as Schema[]).flatMap((sub) => formSites(document, sub, path)));
  return [...here, ...properties, ...items, ...branches];
}

/** Every `pattern` string anywhere in `value` (a document or a schema). */
function patternsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(patternsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, sub]) => (key === 'pattern' && typeof sub === 'string' ? [sub] : patternsIn(sub)));
}

/** Every string anywhere in `value`, as parsed (JSON text would double each backslash of a pattern). */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(stringsIn);
}

const pointerOf = (path: Path) => path.map((token) => `/${token}`).join('');

/** `body` with `value` at `path`, arrays and objects made on the way. */
function withValueAt(body: Record<string, unknown>, path: Path, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  let node: any = copy;
  path.forEach((token, i) => {
    if (i === path.length - 1) node[token] = value;
    else node = node[token] ??= typeof path[i + 1] === 'number' ? [] : {};
  });
  return copy;
}

describe('a value of the wrong form is told what it must be, never the pattern', () => {
  let server: TestServer;
  let document: Schema;
  let patterns: string[];
  before(async () => {
    server = await startTestServer();
    document = (await server.get('/openapi.json')).body;
    patterns = [...new Set([...patternsIn(document), ...patternsIn(ImportUserRecord)])];
  });
  after(async () => server.close());

  /** Asserts that `texts` hold no pattern of any schema, nor Ajv's wording of one. */
  function assertNoPattern(texts: string[], where: string): void {
    for (const text of texts) {
      assert.doesNotMatch(text, /must match pattern|must match format/, where);
      for (const pattern of patterns) assert.ok(!text.includes(pattern), `${where}: ${JSON.stringify(text)} holds the pattern ${pattern}`);
    }
  }

  /** The 400's items and detail hold `must be SENTENCE` at `pointer`, and no pattern. */
  function assertTold(res: TestResponse, pointer: string, sentence: string, where: string): void {
    assertProblem(res, 400, 'validation-failed');
    const errors = res.body.errors as { pointer: string; detail: string }[];
    assert.ok(errors.some((e) => e.pointer === pointer && e.detail === `must be ${sentence}`), `${where}: ${JSON.stringify(errors)}`);
    assert.ok(String(res.body.detail).includes(`${pointer} must be ${sentence}`), `${where}: ${res.body.detail}`);
    assertNoPattern([res.body.detail, ...errors.map((e) => e.detail)], where);
  }

  it('every pattern and format of every request body and parameter has its sentence', () => {
    const sites: [string, FormSite][] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Schema>)) {
      for (const [method, operation] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        for (const content of Object.values((operation.requestBody?.content ?? {}) as Record<string, Schema>)) {
          for (const site of formSites(document, content.schema)) sites.push([`${where} body ${pointerOf(site.path)}`, site]);
        }
        for (const parameter of (operation.parameters ?? []) as Schema[]) {
          for (const site of formSites(document, parameter.schema ?? {})) sites.push([`${where} ${parameter.in} ${parameter.name}`, site]);
        }
      }
    }
    for (const site of formSites(document, ImportUserRecord)) sites.push([`import record ${pointerOf(site.path)}`, site]);
    // The members with a form of their own: a walk that found fewer would prove nothing.
    const pointers = new Set(sites.map(([, site]) => pointerOf(site.path)));
    for (const pointer of ['/username', '/email_address', '/legacy_ids/0', '/legacy_id', '/external_id', '/emails/0/value', '/phone_numbers/0/value', '/preferred_language', '/locale', '/timezone', '/uid', '/created_at']) {
      assert.ok(pointers.has(pointer), `no pattern or format found at ${pointer}`);
    }
    for (const [where, { schema }] of sites) {
      const sentence = schema[EXPECTED_KEYWORD];
      assert.equal(typeof sentence, 'string', `${where} has a ${schema.pattern ? 'pattern' : `format (${schema.format})`} but no ${EXPECTED_KEYWORD}`);
      assertNoPattern([sentence], where);
    }
  });

  it('a bad value at each of them: POST, PUT and PATCH answer its sentence at its pointer', async () => {
    const body = (name: string) => (document.components.schemas as Record<string, Schema>)[name]!;
    const created = await server.post('/users', newUser());
    assert.equal(created.status, 201);
    const { uid, username, email_address } = created.body;
    const writes: [string, string, Record<string, unknown>, Schema, string][] = [
      ['POST', '/users', newUser(), body('UserCreate'), 'application/json'],
      ['PUT', `/users/${uid}`, { username, email_address }, body('UserReplacement'), 'application/json'],
      ['PATCH', `/users/${uid}`, {}, body('UserPatch'), 'application/merge-patch+json'],
    ];
    for (const [method, path, base, schema, type] of writes) {
      const sites = formSites(document, schema);
      assert.ok(sites.length >= 9, `${method}: ${sites.length} places`);
      for (const site of sites) {
        const sent = withValueAt(base, site.path, BAD);
        const res = await server.request(method, path, { body: JSON.stringify(sent), headers: { 'content-type': type } });
        assertTold(res, pointerOf(site.path), site.schema[EXPECTED_KEYWORD], `${method} ${pointerOf(site.path)}`);
      }
    }
  });

  it('a bad value at each of them: the import checker gives its sentence as the reason', () => {
    const check = createRecordChecker(() => new Date().toISOString());
    const sites = formSites(document, ImportUserRecord);
    assert.ok(sites.length >= 12, `${sites.length} places`);
    for (const site of sites) {
      const pointer = pointerOf(site.path);
      const result = check(withValueAt(newUser(), site.path, BAD));
      assert.equal(result.ok, false, pointer);
      if (result.ok) continue;
      assert.ok(result.reason.includes(`${pointer} must be ${site.schema[EXPECTED_KEYWORD]}`), `${pointer}: ${result.reason}`);
      assertNoPattern([result.reason, ...(result.errors ?? []).map((e) => e.detail)], `import ${pointer}`);
    }
  });

  it('SCIM answers the same sentences, never a pattern', async () => {
    const res = await scimRequest(server.baseUrl, 'POST', '/scim/v2/Users', {
      body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `scim${process.pid}`, emails: [{ value: 'not-an-address', primary: true }], timezone: 'Europe Paris' },
    });
    assert.equal(res.status, 400, res.text);
    assert.match(res.body.detail, /must be an IANA time zone name such as Europe\/Paris/);
    assert.match(res.body.detail, /must be an email address such as name@example\.com/);
    assertNoPattern([res.body.detail], 'SCIM');
  });

  describe('a bad email address', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'user-service-expected-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('POST: 400 whose detail and item say what an email address is', async () => {
      const res = await server.post('/users', newUser({ email_address: 'alice.example.com' }));
      assertProblem(res, 400, 'validation-failed');
      assert.deepEqual(res.body.errors, [{ pointer: '/email_address', detail: `must be ${EMAIL_ADDRESS_EXPECTED}` }]);
      assert.equal(res.body.detail, `/email_address must be ${EMAIL_ADDRESS_EXPECTED}`);
      assert.match(res.body.detail, /^\/email_address must be an email address such as name@example\.com/);
    });

    it('import: the report line\'s reason starts with the sentence, not a regular expression', async () => {
      const file = join(dir, 'users.jsonl');
      writeFileSync(file, [newUser(), newUser({ email_address: 'alice.example.com' })].map((user) => JSON.stringify(user)).join('\n') + '\n');
      const result = await runCli(['import', file, '--database-url', `sqlite:${join(dir, 'users.db')}`]);
      assert.equal(result.code, 1, result.stderr);
      const report = readFileSync(`${file}.report.jsonl`, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { line: number; outcome: string; reason: string });
      assert.equal(report.length, 1, JSON.stringify(report));
      assert.equal(report[0]!.line, 2);
      assert.equal(report[0]!.outcome, 'rejected');
      assert.match(report[0]!.reason, /^\/email_address must be an email address such as name@example\.com/);
      assertNoPattern(stringsIn(report[0]), 'import report');
    });
  });
});
