/**
 * An Idempotency-Key's answer is durable with its write (CONTRACT §10), on every
 * store, with the service as a real process: the retry after a restart, and after
 * a `kill -9` between the commit and the response, gets the first 201 and no
 * second user exists.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, it } from 'node:test';
import { startChildServer, type StartedChildServer } from './helpers/child-server.js';
import { createTestDatabaseUrl, describeEachStore, type TestDatabaseUrl } from './helpers/stores.js';
import { newUser } from './helpers/test-server.js';

describeEachStore('Idempotency-Key across restarts and crashes', (kind) => {
  let database: TestDatabaseUrl;
  const children: StartedChildServer[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const child = await startChildServer({ env: { DATABASE_URL: database.databaseUrl, ...env } });
    children.push(child);
    return child;
  };
  before(async () => {
    database = await createTestDatabaseUrl(kind);
  });
  after(async () => {
    await Promise.all(children.map((child) => child.dispose()));
    await database.remove();
  });

  it('after a graceful restart the retry gets the first 201', async () => {
    const first = await start();
    const body = newUser();
    const headers = { 'idempotency-key': `"restart-${process.pid}"` };
    const created = await first.post('/users', body, headers);
    assert.equal(created.status, 201);
    first.kill('SIGTERM');
    assert.deepEqual(await first.waitForExit(), { code: 0, signal: null });
    const second = await start();
    const retry = await second.post('/users', body, headers);
    assert.equal(retry.status, 201);
    assert.deepEqual(retry.body, created.body);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
  });

  it('killed with -9 after the commit and before the response: the retry gets the original 201, and one user exists', async () => {
    // The response waits 60 s after the commit: the process is killed in between.
    const doomed = await start({ TEST_DELAY_AFTER_WRITE_MS: '60000' });
    const body = newUser();
    const headers = { 'idempotency-key': `"crash-${process.pid}"` };
    const lost = doomed.post('/users', body, headers).then(
      (response) => ({ answered: response.status }),
      (error: Error) => ({ failed: error.message }),
    );
    // Committed: the user can be read (from another connection) while its create is still unanswered.
    let committed = false;
    for (let i = 0; i < 500 && !committed; i++) {
      committed = (await doomed.get(`/users/username:${String(body.username)}`)).status === 200;
      if (!committed) await sleep(20);
    }
    assert.ok(committed, 'the create committed');
    doomed.kill('SIGKILL');
    assert.ok('failed' in (await lost), 'the client never got the answer');
    await doomed.waitForExit();

    const survivor = await start();
    const retry = await survivor.post('/users', body, headers);
    assert.equal(retry.status, 201, retry.text);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.equal(retry.body.username, body.username);
    const found = await survivor.get(`/users?username=${String(body.username)}`);
    assert.equal(found.body.length, 1, 'no second user');
    assert.equal(found.body[0].uid, retry.body.uid, 'the retry names the user that was created');
    assert.equal(retry.headers.location, `/users/${retry.body.uid}`);
  });
});
