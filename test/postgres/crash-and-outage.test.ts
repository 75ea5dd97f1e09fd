/**
 * Against a private PostgreSQL cluster that the test starts itself (so a crash
 * disturbs no shared server): acknowledged writes survive `kill -9` of the
 * service together with an immediate-mode stop (a crash) of the database; and
 * while the database is down the service answers 503 problems with Retry-After,
 * then recovers by itself when it returns.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { User } from '../../src/users/user.js';
import { startChildServer, type StartedChildServer } from '../helpers/child-server.js';
import { createPrivateCluster, privateClusterSkipReason, type PrivateCluster } from '../helpers/private-postgres.js';

const skip = privateClusterSkipReason();

async function eventually(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`${what} did not happen within ${timeoutMs} ms`);
}

describe('a private PostgreSQL cluster that crashes', skip ? { skip } : {}, () => {
  let cluster: PrivateCluster;
  let service: StartedChildServer | undefined;
  before(async () => {
    cluster = await createPrivateCluster();
  });
  after(async () => {
    await service?.dispose();
    cluster?.destroy();
  });

  it('every acknowledged write survives kill -9 of the service and a crash of the database', async () => {
    service = await startChildServer({ env: { DATABASE_URL: cluster.url } });
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) => service!.post('/users', { username: `durable${i}`, email_address: `durable${i}@example.com`, legacy_ids: [`D:${i}`] })),
    );
    for (const res of created) assert.equal(res.status, 201, res.text);
    const users = created.map((res) => res.body as User);
    const updated = await Promise.all(users.slice(0, 10).map((u) => service!.put(`/users/${u.uid}`, { username: u.username, email_address: u.email_address, display_name: 'updated' })));
    for (const res of updated) assert.equal(res.status, 200, res.text);
    const deleted = await Promise.all(users.slice(10, 15).map((u) => service!.delete(`/users/${u.uid}`)));
    for (const res of deleted) assert.equal(res.status, 204, res.text);

    service.kill('SIGKILL');
    cluster.crash();
    await service.waitForExit();
    cluster.start();
    service = await startChildServer({ env: { DATABASE_URL: cluster.url } });

    for (const [i, user] of users.entries()) {
      const read = await service.get(`/users/${user.uid}`);
      if (i < 10) assert.deepEqual(read.body, updated[i]!.body);
      else if (i < 15) assert.equal(read.status, 404);
      else assert.deepEqual(read.body, user);
    }
    // Keys of deleted users are free again.
    const reuse = await service.post('/users', { username: 'DURABLE10', email_address: 'durable10@example.com', legacy_ids: ['D:10'] });
    assert.equal(reuse.status, 201, reuse.text);
  });

  it('while the database is down: 503 problems with Retry-After and /readyz 503; afterwards it recovers without a restart', async () => {
    service ??= await startChildServer({ env: { DATABASE_URL: cluster.url } });
    const before = await service.post('/users', { username: 'outage', email_address: 'outage@example.com' });
    assert.equal(before.status, 201, before.text);
    const pid = service.pid;

    cluster.crash();
    for (const res of [await service.get(`/users/${before.body.uid}`), await service.post('/users', { username: 'during', email_address: 'during@example.com' }), await service.get('/readyz')]) {
      assert.equal(res.status, 503, res.text);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.equal(res.body.type, '/problems/store-unavailable');
      assert.ok(Number(res.headers['retry-after']) > 0);
      assert.doesNotMatch(res.text, /ECONN|postgres|127\.0\.0\.1|stack/i);
    }
    assert.equal((await service.get('/healthz')).status, 200, 'the process itself stays alive');

    cluster.start();
    await eventually(async () => (await service!.get('/readyz')).status === 200, 20_000, '/readyz turning 200');
    assert.equal(service.pid, pid, 'same process');
    assert.equal((await service.get(`/users/${before.body.uid}`)).status, 200);
    assert.equal((await service.post('/users', { username: 'after', email_address: 'after@example.com' })).status, 201);
  });
});
