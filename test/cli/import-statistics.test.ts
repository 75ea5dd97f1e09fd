/**
 * docs/deployment.md, "Planner statistics": an import that wrote users leaves PostgreSQL
 * with statistics of what it touched (ANALYZE), whatever autovacuum does; and what it
 * imported is found by a word search at once. The CLI as a real process.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import postgres from 'postgres';
import { createTestDatabaseUrl, describeEachStore, type TestDatabaseUrl } from '../helpers/stores.js';
import { storedUsers } from './stored-users.js';
import { runCli } from './run-cli.js';

describeEachStore('import: statistics and search after an import', (kind) => {
  let db: TestDatabaseUrl;
  let dir: string;

  before(async () => {
    db = await createTestDatabaseUrl(kind);
    dir = mkdtempSync(join(tmpdir(), 'import-statistics-'));
  });

  after(async () => {
    await db?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the imported users are found by any word of their names', async () => {
    const file = join(dir, 'people.csv');
    writeFileSync(file, 'username,email_address,given_name,family_name,department\nmgl,maria@example.com,María José,García-López,Sales\nsob,sean@example.com,Seán,O\'Brien,R&D\n');
    const result = await runCli(['import', file, '--database-url', db.databaseUrl]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual((await storedUsers(kind, db.databaseUrl, 'lopez jose')).map((u) => u.username), ['mgl']);
    assert.deepEqual((await storedUsers(kind, db.databaseUrl, "o'brien")).map((u) => u.username), ['sob']);
  });

  if (kind === 'postgres') {
    it('PostgreSQL has statistics of every table the import wrote', async () => {
      const sql = postgres(db.databaseUrl, { max: 1, onnotice: () => {} });
      try {
        const rows = await sql<{ relname: string; last_analyze: Date | null }[]>`
          SELECT relname, last_analyze FROM pg_stat_user_tables WHERE relname IN ('users', 'user_keys', 'user_emails', 'user_terms') ORDER BY relname`;
        assert.deepEqual(rows.map((row) => row.relname), ['user_emails', 'user_keys', 'user_terms', 'users']);
        for (const row of rows) assert.ok(row.last_analyze !== null, `${row.relname} was not analyzed`);
        const [users] = await sql<{ reltuples: number }[]>`SELECT reltuples::float8 AS reltuples FROM pg_class WHERE relname = 'users'`;
        assert.equal(Number(users?.reltuples), 2);
      } finally {
        await sql.end({ timeout: 5 });
      }
    });
  }
});
