import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { configureConnection } from '../../src/store/sqlite/sqlite-connection.js';
import { openSqliteUserStore } from '../../src/store/sqlite/sqlite-user-store.js';
import type { UserStore } from '../../src/store/user-store.js';
import { storeContractSuite } from '../store-contract.js';

function sqliteHandle() {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-store-'));
  const path = join(dir, 'users.db');
  let store: UserStore = openSqliteUserStore({ path });
  return {
    path,
    get store() {
      return store;
    },
    async reopen() {
      await store.close();
      store = openSqliteUserStore({ path });
      return store;
    },
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

storeContractSuite('SQLite file', async () => sqliteHandle());

describe('SQLite store specifics', () => {
  it('configureConnection sets WAL and synchronous=FULL by default, NORMAL only when asked', () => {
    const handle = sqliteHandle();
    for (const [options, expected] of [[{}, 2], [{ synchronous: 'NORMAL' as const }, 1]] as const) {
      const db = new Database(handle.path);
      configureConnection(db, options);
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(db.pragma('synchronous', { simple: true }), expected);
      assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
      db.close();
    }
    return handle.cleanup();
  });

  it('migrates a new file to the latest schema version exactly once', async () => {
    const handle = sqliteHandle();
    await handle.store.close();
    const probe = new Database(handle.path);
    assert.equal(probe.pragma('user_version', { simple: true }), 1);
    probe.close();
    const again = openSqliteUserStore({ path: handle.path });
    await again.close();
    await handle.cleanup();
  });
});
