/**
 * A monthly merge on PostgreSQL at the default batch size (1,000) and the service's default
 * statement timeout (5 s): 3,000 changed people of a 20,000-person directory. The update
 * trigger that keeps the word and facet index once paired the old and new rows of a batch
 * by a nested loop, so a batch cost the square of its size and this merge stopped at the
 * statement timeout ("the user store is unavailable: 1000 users committed"); migration 12
 * pairs them by a hash join. The index must still agree with the users afterwards.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { v7 as uuidv7 } from 'uuid';
import { openPostgresUserStore } from '../../src/store/postgres/postgres-user-store.js';
import { parseSearch } from '../../src/users/user-search.js';
import { withDefaults } from '../../src/users/user.js';
import { createTestDatabaseUrl, STORE_KINDS, type TestDatabaseUrl } from '../helpers/stores.js';
import { parseSummary } from './import-summary.js';
import { runCli } from './run-cli.js';

const USERS = 20_000;
const CHANGED = 3_000;

const person = (i: number, now: string) =>
  withDefaults({
    uid: uuidv7(),
    username: `hr${i}`,
    email_address: `hr${i}@example.com`,
    legacy_ids: [],
    display_name: `Given${i % 300} Family${i % 700}`,
    attributes: {},
    name: { given_name: `Given${i % 300}`, family_name: `Family${i % 700}` },
    title: 'Engineer',
    department: `Dept ${i % 40}`,
    created_at: now,
    updated_at: now,
    version: 1,
  });

const postgresSkip = STORE_KINDS.find((store) => store.kind === 'postgres')?.skip;
describe('a merge of 3,000 changed people on PostgreSQL at the default batch size', postgresSkip ? { skip: postgresSkip } : {}, () => {
  let dir: string;
  let db: TestDatabaseUrl;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'user-service-merge-'));
    db = await createTestDatabaseUrl('postgres');
    const store = await openPostgresUserStore({ url: db.databaseUrl });
    try {
      const now = new Date().toISOString();
      const users = Array.from({ length: USERS }, (_, i) => person(i, now));
      for (let i = 0; i < USERS; i += 2000) await store.importUsers(users.slice(i, i + 2000), 'fail', now);
      await store.refreshStatistics();
    } finally {
      await store.close();
    }
  });
  after(async () => {
    await db?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits every batch, and the title facet and the words agree with the users', async () => {
    const file = join(dir, 'changed.jsonl');
    const lines = Array.from({ length: CHANGED }, (_, i) => JSON.stringify({ username: `hr${i}`, email_address: `hr${i}@example.com`, title: 'Staff Engineer', display_name: `Renamed${i} Family${i % 700}` }));
    writeFileSync(file, `${lines.join('\n')}\n`);
    const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--on-conflict', 'merge']);
    assert.equal(result.code, 0, result.stderr);
    const summary = parseSummary(result.stdout);
    assert.deepEqual([summary.updated, summary.rejected], [CHANGED, 0]);
    const store = await openPostgresUserStore({ url: db.databaseUrl });
    try {
      assert.equal(await store.count(parseSearch({ title: 'Staff Engineer' }).filter), CHANGED);
      assert.equal(await store.count(parseSearch({ title: 'Engineer' }).filter), USERS - CHANGED);
      // The new display names' words are found, each for its user.
      assert.equal(await store.count(parseSearch({ q: 'renamed' }).filter), CHANGED);
      assert.equal(await store.count(parseSearch({ q: 'renamed1234' }).filter), 1);
    } finally {
      await store.close();
    }
  });
});
