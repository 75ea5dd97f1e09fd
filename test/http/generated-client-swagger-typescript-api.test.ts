/**
 * A second generator, swagger-typescript-api (docs/api.md, "Generated clients"): its
 * fetch client sends every JSON body as `application/json`, whatever media type the
 * document names, so its PATCH is the test of CONTRACT §9's second media type. The
 * client is generated from the /openapi.json a running server serves, type-checked,
 * bundled with esbuild, imported and called as generated: no header, no edit.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateApi } from 'swagger-typescript-api';
import { assertTypeChecksStrictly, importBundled } from '../helpers/generated-code.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** What a generated call resolves to (its fetch client throws the same shape for a status that is not 2xx). */
interface Answer {
  data: any;
  error: any;
  status: number;
  headers: Headers;
}
type Call = (...args: any[]) => Promise<Answer>;
interface GeneratedApi {
  users: { createUser: Call; getUser: Call; patchUser: Call };
}

/** The answer of a call, whether the client resolved or threw it. */
const settled = (call: Promise<Answer>) => call.catch((answer: Answer) => answer);

describe('a client generated from the served OpenAPI document by swagger-typescript-api', () => {
  let server: TestServer;
  let folder: string;
  let api: GeneratedApi;
  let sent: string[];

  before(async () => {
    server = await startTestServer();
    folder = mkdtempSync(join(tmpdir(), 'generated-sta-client-'));
    const { files } = await generateApi({ url: `${server.baseUrl}/openapi.json`, httpClientType: 'fetch', silent: true, output: false });
    for (const file of files) writeFileSync(join(folder, `${file.fileName}${file.fileExtension}`), file.fileContent);
    const { Api } = await importBundled<{ Api: new (config: object) => GeneratedApi }>(folder, 'Api.ts');
    sent = [];
    // The generated client's own fetch, observed: the content type it chose is what the server got.
    const customFetch = (input: string | URL | Request, init?: RequestInit) => {
      sent.push(new Headers(init?.headers).get('content-type') ?? '');
      return fetch(input, init);
    };
    api = new Api({ baseUrl: server.baseUrl, customFetch });
  });
  after(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('type-checks strictly', () => assertTypeChecksStrictly(folder, ['Api.ts']));

  it('creates and patches a user, unmodified: its PATCH goes out as application/json and is applied as a merge patch', async () => {
    const username = `stagenerated${process.pid}`;
    const created = await settled(api.users.createUser({ username, email_address: `${username}@example.com`, display_name: 'Before', attributes: { keep: 1, drop: 2 } }));
    assert.equal(created.status, 201, JSON.stringify(created.error));
    const uid: string = created.data.uid;

    const patched = await settled(api.users.patchUser(uid, { display_name: 'Patched', attributes: { drop: null, team: 'x' } }));
    assert.equal(sent.at(-1), 'application/json', 'what this generator sends');
    assert.equal(patched.status, 200, JSON.stringify(patched.error));
    assert.equal(patched.data.display_name, 'Patched');
    assert.deepEqual(patched.data.attributes, { keep: 1, team: 'x' }, 'null removed a member, the others merged');
    assert.equal(patched.data.version, 2);
    const read = await settled(api.users.getUser(uid));
    assert.deepEqual(read.data, patched.data);
  });
});
