/**
 * A client generated from the document the service serves works as generated
 * (docs/api.md, "Generated clients"): @hey-api/openapi-ts reads /openapi.json of a
 * running server, its fetch client and SDK are type-checked and bundled with esbuild,
 * imported, and called with no header or serializer of ours. The PATCH must carry
 * `application/merge-patch+json` because the document says so (CONTRACT §9: any other
 * type is a 415). A 304 reaches such a client as neither data nor error.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createClient } from '@hey-api/openapi-ts';
import { assertTypeChecksStrictly, importBundled } from '../helpers/generated-code.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** What a generated call answers (the fetch client's default `fields` response style). */
interface Result {
  data?: any;
  error?: any;
  request: Request;
  response: Response;
}
type Call = (options: Record<string, unknown>) => Promise<Result>;
interface GeneratedSdk {
  client: { setConfig(config: { baseUrl: string }): void };
  createUser: Call;
  getUser: Call;
  patchUser: Call;
}

describe('a client generated from the served OpenAPI document by @hey-api/openapi-ts', () => {
  let server: TestServer;
  let folder: string;
  let sdk: GeneratedSdk;

  before(async () => {
    server = await startTestServer();
    folder = mkdtempSync(join(tmpdir(), 'generated-client-'));
    await createClient({
      input: `${server.baseUrl}/openapi.json`,
      output: { path: join(folder, 'src') },
      plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
      logs: { level: 'silent', file: false },
    });
    // The generated index exports the SDK; its client instance (for the base URL) lives in client.gen.ts.
    writeFileSync(join(folder, 'entry.ts'), "export * from './src/index.js';\nexport { client } from './src/client.gen.js';\n");
    sdk = await importBundled<GeneratedSdk>(folder, 'entry.ts');
    sdk.client.setConfig({ baseUrl: server.baseUrl });
  });
  after(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('type-checks strictly', () => assertTypeChecksStrictly(folder, ['src']));

  it('creates, reads, looks up and patches a user, unmodified', async () => {
    const username = `generated${process.pid}`;
    const created = await sdk.createUser({ body: { username, email_address: `${username}@example.com`, display_name: 'Before' } });
    assert.equal(created.response.status, 201, JSON.stringify(created.error));
    const uid: string = created.data.uid;
    assert.equal(created.response.headers.get('location'), `/users/${uid}`);

    const read = await sdk.getUser({ path: { ref: uid } });
    assert.equal(read.response.status, 200, JSON.stringify(read.error));
    assert.deepEqual(read.data, created.data);
    const looked = await sdk.getUser({ path: { ref: `username:${username.toUpperCase()}` } });
    assert.equal(looked.response.status, 200, JSON.stringify(looked.error));
    assert.equal(looked.data.uid, uid);

    const patched = await sdk.patchUser({ path: { ref: uid }, body: { display_name: 'Patched', attributes: { team: 'x' } } });
    assert.equal(patched.request.headers.get('content-type'), 'application/merge-patch+json', 'the media type the document declares');
    assert.equal(patched.response.status, 200, JSON.stringify(patched.error));
    assert.equal(patched.data.display_name, 'Patched');
    assert.deepEqual(patched.data.attributes, { team: 'x' });
    assert.equal(patched.data.version, 2);
    assert.deepEqual((await sdk.getUser({ path: { ref: uid } })).data, patched.data);
  });

  it('meets a 304 as neither data nor error: only the status tells', async () => {
    const created = await sdk.createUser({ body: { username: `generated304x${process.pid}`, email_address: `generated304x${process.pid}@example.com` } });
    const etag = created.response.headers.get('etag');
    const cached = await sdk.getUser({ path: { ref: created.data.uid }, headers: { 'if-none-match': etag } });
    assert.equal(cached.response.status, 304);
    assert.equal(cached.data, undefined);
    // The fetch client reports what is not 2xx as an error; a 304's empty body becomes `{}`, which is no Problem.
    assert.deepEqual(cached.error, {});
  });
});
