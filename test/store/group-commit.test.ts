/**
 * SQLite group commit (src/store/sqlite/group-commit.ts): writes queued in one
 * turn share a transaction, each in its own savepoint; a write that fails is
 * rolled back alone, unless its failure made SQLite roll back the whole
 * transaction, in which case no write of the batch is written and every one is
 * rejected.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import Database from '../../src/store/sqlite/sqlite-driver.js';
import { createGroupCommit } from '../../src/store/sqlite/group-commit.js';

function table() {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (v TEXT NOT NULL UNIQUE)');
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  const rows = () => db.prepare('SELECT v FROM t ORDER BY v').pluck().all();
  return { db, insert, rows, commit: createGroupCommit(db, (error) => error) };
}

it('rolls back a failing write of a batch alone; the others commit together', async () => {
  const { insert, rows, commit } = table();
  const results = await Promise.allSettled([commit(() => insert.run('a')), commit(() => insert.run('a')), commit(() => insert.run('c'))]);
  assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
  assert.match(String((results[1] as PromiseRejectedResult).reason), /UNIQUE/);
  assert.deepEqual(rows(), ['a', 'c']);
});

it('a write alone in its batch that fails leaves nothing and the next batch goes on', async () => {
  const { db, insert, rows, commit } = table();
  await assert.rejects(commit(() => {
    insert.run('x');
    throw new Error('abandoned');
  }), /abandoned/);
  assert.equal(db.inTransaction, false);
  await commit(() => insert.run('y'));
  assert.deepEqual(rows(), ['y']);
});

it('when a write\'s failure rolls back the whole transaction (a full database), no write of the batch is written and all are rejected', async () => {
  const { db, insert, rows, commit } = table();
  // Room for a few small rows, not for a 20 kB one: SQLITE_FULL rolls back the transaction, not the savepoint.
  db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 2}`);
  const results = await Promise.allSettled([commit(() => insert.run('a')), commit(() => insert.run('x'.repeat(20_000))), commit(() => insert.run('c'))]);
  assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected', 'rejected']);
  for (const result of results) assert.match(String((result as PromiseRejectedResult).reason), /full/i);
  assert.deepEqual(rows(), [], 'nothing of the batch was written, and nothing after the failure ran on its own');
  assert.equal(db.inTransaction, false);
  db.pragma('max_page_count = 1073741823');
  await commit(() => insert.run('d'));
  assert.deepEqual(rows(), ['d']);
});
