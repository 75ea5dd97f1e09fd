/**
 * The SQLite store's WAL checkpoints run on a thread of their own (wal-checkpointer.ts):
 * the WAL's committed frames reach the database file without a checkpoint on the
 * event loop, and closing the store stops that thread before the store's own
 * connection closes, so the last close still folds the WAL in and removes it.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { v7 as uuidv7 } from 'uuid';
import Database from '../../src/store/sqlite/sqlite-driver.js';
import { openSqliteUserStore } from '../../src/store/sqlite/sqlite-user-store.js';
import type { CheckpointReport } from '../../src/store/sqlite/wal-checkpointer.js';
import type { User } from '../../src/users/user.js';

const dir = mkdtempSync(join(tmpdir(), 'wal-checkpointer-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function userNumber(n: number): User {
  const now = new Date().toISOString();
  return { uid: uuidv7(), username: `checkpointed.${n}`, email_address: `checkpointed.${n}@example.com`, legacy_ids: [], display_name: null, attributes: {}, created_at: now, updated_at: now, version: 1 };
}

describe('SQLite WAL checkpointer', () => {
  it('copies committed frames into the database file while the store keeps writing', async () => {
    const path = join(dir, 'writes.db');
    let resolveCheckpointed!: (report: CheckpointReport) => void;
    const checkpointed = new Promise<CheckpointReport>((resolve) => (resolveCheckpointed = resolve));
    const store = openSqliteUserStore({ path, onCheckpoint: (report) => report.checkpointedFrames > 0 && resolveCheckpointed(report) });
    try {
      for (let n = 0; n < 200; n++) await store.create(userNumber(n));
      // Waits for the thread's report, however long the machine takes: no deadline to miss.
      const report = await checkpointed;
      assert.ok(report.checkpointedFrames <= report.walFrames, JSON.stringify(report));
      // A connection of its own sees every user: a checkpoint never loses a committed frame.
      const reader = new Database(path, { readonly: true });
      try {
        assert.equal((reader.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n, 200);
      } finally {
        reader.close();
      }
    } finally {
      await store.close();
    }
  });

  it('is stopped before the store closes its connection, which then removes the WAL', async () => {
    const path = join(dir, 'close.db');
    const store = openSqliteUserStore({ path });
    for (let n = 0; n < 20; n++) await store.create(userNumber(n));
    assert.ok(existsSync(`${path}-wal`));
    await store.close();
    // SQLite removes the WAL when the last connection to the file closes: the checkpointer's was closed first.
    assert.equal(existsSync(`${path}-wal`), false);
  });
});
