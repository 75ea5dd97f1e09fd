/**
 * `npm run migrate` (`user-service migrate`): applies pending migrations of the
 * configured store and exits; a second run applies none. Both stores.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { POSTGRES_MIGRATIONS } from '../src/store/postgres/postgres-migrations.js';
import { SQLITE_MIGRATIONS } from '../src/store/sqlite/sqlite-migrations.js';
import { REPO_ROOT } from './helpers/child-server.js';
import { createTestDatabaseUrl, describeEachStore, openTestStoreAt, type TestDatabaseUrl } from './helpers/stores.js';

function migrate(env: Record<string, string>, command = 'migrate', timeout = 30_000) {
  return spawnSync(process.execPath, [join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js'), command], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout,
  });
}

describeEachStore('npm run migrate', (kind) => {
  let database: TestDatabaseUrl;
  before(async () => {
    database = await createTestDatabaseUrl(kind);
  });
  after(() => database.remove());

  it('applies the migrations once, then reports the schema current', async () => {
    const first = migrate({ DATABASE_URL: database.databaseUrl });
    assert.equal(first.status, 0, first.stderr);
    const latest = kind === 'sqlite' ? SQLITE_MIGRATIONS.length : POSTGRES_MIGRATIONS.length;
    assert.match(first.stdout, new RegExp(`schema at version ${latest} \\(${latest} migrations? applied\\)`));
    const second = migrate({ DATABASE_URL: database.databaseUrl });
    assert.equal(second.status, 0, second.stderr);
    assert.match(second.stdout, /\(0 migrations applied\)/);
    // The migrated database serves a store without further changes.
    const store = await openTestStoreAt(kind, database.databaseUrl);
    assert.deepEqual(await store.search({ filter: {}, limit: 1 }), { value: [], position: 0 });
    await store.close();
  });

  it('stops with one line naming a bad setting', () => {
    const bad = migrate({ DATABASE_URL: 'mysql://x' });
    assert.equal(bad.status, 2);
    assert.equal(bad.stderr.trim().split('\n').length, 1);
    assert.match(bad.stderr, /DATABASE_URL/);
  });
});

it('migrate and mark-restored give up on a PostgreSQL server that never answers within PG_CONNECT_TIMEOUT_MS (postgres.js alone waits 30 s)', async () => {
  // The kernel completes the TCP handshake; nothing ever answers the startup message.
  const silent = net.createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as net.AddressInfo;
  try {
    for (const command of ['migrate', 'mark-restored']) {
      // Killed (status null) if it waits postgres.js's own 30 s; it ends after about 1 s.
      const result = migrate({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/none`, PG_CONNECT_TIMEOUT_MS: '1000' }, command, 20_000);
      assert.equal(result.status, 1, `${command}: ${result.stderr}`);
      assert.equal(result.stderr, `user-service: DATABASE_URL: cannot connect to PostgreSQL at 127.0.0.1:${port} (no answer within PG_CONNECT_TIMEOUT_MS)\n`, command);
    }
  } finally {
    silent.close();
  }
});
