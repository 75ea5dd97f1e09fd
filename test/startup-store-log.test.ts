/**
 * The start-up log names the store the service opened, in one info line: the
 * SQLite file, or PostgreSQL's host, port and database, never a password.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startChildServer, type StartedChildServer } from './helpers/child-server.js';
import { createTestDatabase, postgresSkipReason } from './helpers/postgres.js';

const postgresSkip = await postgresSkipReason();
const children: StartedChildServer[] = [];
after(() => Promise.all(children.map((child) => child.dispose())));

const storeLines = (child: StartedChildServer) => child.logs().filter((record) => record.msg === 'store opened');

describe('the start-up log names the store', () => {
  it('SQLite: the absolute path of the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'user-service-store-log-'));
    try {
      // A typed path's folder must exist (a missing one is refused as a likely typo: cli/sqlite-folder.test.ts).
      mkdirSync(join(dir, 'here'));
      const child = await startChildServer({ cwd: dir, env: { DATABASE_URL: 'sqlite:./here/users.db' } });
      children.push(child);
      const lines = storeLines(child);
      assert.equal(lines.length, 1, child.describe());
      assert.equal(lines[0]!.level, 30, 'info');
      assert.equal(lines[0]!.store, 'sqlite');
      assert.equal(lines[0]!.path, join(dir, 'here', 'users.db'));
      await child.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('PostgreSQL: host, port and database, never the password', { skip: postgresSkip }, async () => {
    const db = await createTestDatabase();
    try {
      const url = new URL(db.url);
      url.username = 'postgres';
      url.password = 'not-shown-anywhere'; // the test server trusts local connections, whatever the password
      const child = await startChildServer({ env: { DATABASE_URL: url.toString() } });
      children.push(child);
      const lines = storeLines(child);
      assert.equal(lines.length, 1, child.describe());
      assert.deepEqual({ store: lines[0]!.store, host: lines[0]!.host, port: lines[0]!.port, database: lines[0]!.database }, { store: 'postgres', host: url.hostname, port: url.port || '5432', database: db.name });
      assert.doesNotMatch(child.stdout() + child.stderr(), /not-shown-anywhere/);
      await child.dispose();
    } finally {
      await db.drop();
    }
  });
});
