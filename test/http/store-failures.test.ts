/**
 * CONTRACT §6: a store that cannot be reached is a 503 problem with Retry-After;
 * an unexpected failure is a 500 problem that reveals no stack, SQL or driver
 * text, while the log holds the full error under the request id. The failures are
 * real: a closed store, and a table dropped behind the service's back.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import Database from '../../src/store/sqlite/sqlite-driver.js';
import postgres from 'postgres';
import { startChildServer, type StartedChildServer } from '../helpers/child-server.js';
import type { TestResponse } from '../helpers/http-client.js';
import { assertProblem } from '../helpers/problem-assertions.js';
import { createTestDatabaseUrl, describeEachStore, type TestDatabaseUrl } from '../helpers/stores.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

const INTERNALS = /user_keys|SELECT|sqlite|postgres|no such table|does not exist|relation|at \w+ \(|\.js:\d+|Error:/i;

/** A problem document (the shared checks) that also names none of the store's internals. */
function assertOpaqueProblem(res: TestResponse, status: number, type: string): void {
  assertProblem(res, status, type);
  assert.doesNotMatch(res.text, INTERNALS);
}

async function dropKeysTable(databaseUrl: string): Promise<void> {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(databaseUrl.slice('sqlite:'.length));
    db.exec('DROP TABLE user_keys');
    db.close();
    return;
  }
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  await sql`DROP TABLE user_keys`;
  await sql.end();
}

describeEachStore('a store that is closed under the service', (store) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store });
  });
  after(() => server.close());

  it('answers every store-backed route with a 503 problem and Retry-After; /readyz is 503, /healthz stays 200', async () => {
    const created = await server.post('/users', newUser());
    assert.equal(created.status, 201);
    await server.store.close();
    for (const res of [
      await server.get(`/users/${created.body.uid}`),
      await server.get('/users/username:someone'),
      await server.post('/users', newUser()),
      await server.get('/users'),
      await server.get('/readyz'),
    ]) {
      assertOpaqueProblem(res, 503, 'store-unavailable');
      assert.ok(Number(res.headers['retry-after']) >= 1);
    }
    assert.equal((await server.get('/healthz')).status, 200);
  });
});

describeEachStore('an unexpected store failure', (store) => {
  let database: TestDatabaseUrl;
  let service: StartedChildServer;
  before(async () => {
    database = await createTestDatabaseUrl(store);
    service = await startChildServer({ env: { DATABASE_URL: database.databaseUrl } });
  });
  after(async () => {
    await service?.dispose();
    await database?.remove();
  });

  it('is a 500 problem without internals, logged in full under the request id', async () => {
    assert.equal((await service.post('/users', newUser())).status, 201);
    await dropKeysTable(database.databaseUrl);
    const res = await service.request('GET', '/users/username:anyone', { headers: { 'x-request-id': 'failure-test-1' } });
    assertOpaqueProblem(res, 500, 'internal-error');
    assert.equal(res.headers['x-request-id'], 'failure-test-1');
    assert.match(res.body.detail, /failure-test-1/, 'the detail quotes the request id for operators');
    const record = await service.waitForLog((r) => r.reqId === 'failure-test-1' && r.level === 50);
    assert.match(JSON.stringify(record.err), /user_keys/, 'the log holds the driver error');
  });

  it('never logs request bodies or the Authorization header', async () => {
    const marker = `BODY-MARKER-${Date.now()}`;
    await service.request('POST', '/users', { json: newUser({ display_name: marker }), headers: { authorization: 'Bearer TOKEN-MARKER-42' } });
    await service.get('/healthz');
    // The log of a later request proves the POST's lines were written already.
    await service.waitForLog((r) => r.msg === 'request completed' && (r.req as { url?: string } | undefined)?.url === '/healthz');
    assert.doesNotMatch(service.stdout(), new RegExp(`${marker}|TOKEN-MARKER-42`));
  });
});
