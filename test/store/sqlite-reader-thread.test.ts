/**
 * The SQLite store's expensive reads (src/store/sqlite/reader-thread.ts, sqlite-reads.ts):
 * they run off the event loop, and a statement that walks past its deadline is stopped there.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { openSqliteUserStore } from '../../src/store/sqlite/sqlite-user-store.js';
import { startReaderThread } from '../../src/store/sqlite/reader-thread.js';
import { BUDGET_MESSAGE, connectionReads, statementRunner } from '../../src/store/sqlite/sqlite-reads.js';
import Database from '../../src/store/sqlite/sqlite-driver.js';
import { BudgetExceededError } from '../../src/store/store-errors.js';

/** A statement that reads a hundred million generated rows, each through within_budget: many seconds without a deadline. */
const ENDLESS = {
  sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000) SELECT count(*) AS n FROM c WHERE within_budget(x)',
  params: [],
  mode: 'get' as const,
};

let dir: string;
let path: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'user-service-reader-'));
  path = join(dir, 'users.db');
  // A migrated store file in WAL mode, as the service leaves it.
  await openSqliteUserStore({ path }).close();
});
after(() => rmSync(dir, { recursive: true, force: true }));

it('a read on the reader thread leaves the event loop free, and stops at its deadline with BudgetExceededError', async () => {
  const reader = startReaderThread(path);
  try {
    const order: string[] = [];
    const read = reader.reads([ENDLESS], Date.now() + 300).then(
      () => order.push('read finished'),
      (error: unknown) => order.push(error instanceof BudgetExceededError ? 'read stopped by its deadline' : `read failed: ${String(error)}`),
    );
    // The loop turns while the statement runs on the thread: the timer fires before the read settles.
    await new Promise((resolve) => setTimeout(resolve, 10)).then(() => order.push('timer'));
    await read;
    assert.deepEqual(order, ['timer', 'read stopped by its deadline']);
    // The thread serves the next read after a stopped one.
    const [row] = await reader.reads([{ sql: 'SELECT count(*) AS n FROM users', params: [], mode: 'get' }]);
    assert.deepEqual(row, { n: 0 });
  } finally {
    await reader.stop();
  }
});

it('on the store connection (an in-memory database) the same statement stops at its deadline too', async () => {
  const db = new Database(':memory:');
  try {
    await assert.rejects(connectionReads(db)([ENDLESS], Date.now() + 100), BudgetExceededError);
  } finally {
    db.close();
  }
});

it('a read sent past its deadline runs nothing', async () => {
  const reader = startReaderThread(path);
  try {
    await assert.rejects(reader.reads([ENDLESS], Date.now() - 1), BudgetExceededError);
  } finally {
    await reader.stop();
  }
});

it('a statement with `when` runs only when the count it names holds, in the same round trip (a page planned by its own count)', async () => {
  const reader = startReaderThread(path);
  try {
    const count = { sql: 'SELECT 3 AS a, 7 AS b', params: [], mode: 'row' as const };
    const probe = (n: number) => ({ sql: `SELECT ${n} AS n`, params: [], mode: 'get' as const });
    const results = await reader.reads([
      count,
      { ...probe(1), when: { result: 0, at: 0, atMost: 3 } },
      { ...probe(2), when: { result: 0, at: 0, atMost: 3, above: true } },
      { ...probe(3), when: { result: 0, at: 1, atMost: 6 } },
      { ...probe(4), when: { result: 0, at: 1, atMost: 6, above: true } },
    ]);
    assert.deepEqual(results, [[3, 7], { n: 1 }, undefined, undefined, { n: 4 }]);
  } finally {
    await reader.stop();
  }
});

it('keeps prepared statements for the 256 texts used last, however many a client sends, and answers each right', () => {
  const db = new Database(':memory:');
  try {
    const run = statementRunner(db, BUDGET_MESSAGE);
    const used = (n: number) => run([{ sql: `SELECT ${n} AS n`, params: [], mode: 'get' }]);
    for (let n = 0; n < 1000; n++) assert.deepEqual(used(n), [{ n }]);
    assert.equal(run.cachedStatements(), 256, 'a bounded cache, full');
    for (let n = 0; n < 1000; n += 7) assert.deepEqual(used(n), [{ n }], 'a text let go is prepared again');
    assert.equal(run.cachedStatements(), 256);
  } finally {
    db.close();
  }
});
