/**
 * The SQLite store's WAL checkpoints run on a thread of their own (wal-checkpointer.ts):
 * the WAL's committed frames reach the database file without a checkpoint on the
 * event loop, and closing the store stops that thread before the store's own
 * connection closes, so the last close still folds the WAL in and removes it.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { v7 as uuidv7 } from 'uuid';
import Database from '../../src/store/sqlite/sqlite-driver.js';
import { openSqliteUserStore } from '../../src/store/sqlite/sqlite-user-store.js';
import { withDefaults, type User } from '../../src/users/user.js';

const dir = mkdtempSync(join(tmpdir(), 'wal-checkpointer-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function userNumber(n: number): User {
  const now = new Date().toISOString();
  return withDefaults({ uid: uuidv7(), username: `checkpointed.${n}`, email_address: `checkpointed.${n}@example.com`, legacy_ids: [], display_name: null, attributes: {}, created_at: now, updated_at: now, version: 1 });
}

/** Users in a copy of the database file without its WAL, or -1 while a checkpoint is writing it. */
function usersInDatabaseFileAlone(path: string): number {
  const copy = join(dir, 'file-alone.db');
  for (const suffix of ['-wal', '-shm']) rmSync(`${copy}${suffix}`, { force: true });
  copyFileSync(path, copy);
  try {
    const db = new Database(copy);
    try {
      return (db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return -1;
  }
}

describe('SQLite WAL checkpointer', () => {
  // The timeout only turns a checkpointer that never reports into a failure instead of a hang.
  it('copies committed frames into the database file, off the event loop', { timeout: 120_000 }, async () => {
    const path = join(dir, 'writes.db');
    let reported = () => {};
    const store = openSqliteUserStore({ path, onCheckpoint: () => reported() });
    try {
      for (let n = 0; n < 200; n++) await store.create(userNumber(n));
      // Below the main connection's own automatic checkpoint: only the thread copies these frames.
      // Each of its reports, the database file alone (copied without its WAL) is counted, until it
      // holds every user; no deadline to miss, however long the machine takes.
      while (usersInDatabaseFileAlone(path) !== 200) await new Promise<void>((resolve) => (reported = resolve));
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
