/**
 * Load then index through the real CLI, on both stores (docs/import.md, "Into an empty
 * directory"): an import into an empty directory says that it builds the indexes it set
 * aside and ends with every index the migrations make; an import into a populated one sets
 * none aside; an import killed mid-load (SIGKILL: no handler runs) keeps every committed
 * user, and `user-service migrate` builds what it left unbuilt.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { SQLITE_DEFERRED_INDEXES } from '../../src/store/sqlite/sqlite-bulk-load.js';
import { countUsers, indexDefinitions, missingIndexes } from '../helpers/index-definitions.js';
import { createTestDatabaseUrl, describeEachStore, type TestDatabaseUrl } from '../helpers/stores.js';
import { until } from '../helpers/until.js';
import { parseSummary } from './import-summary.js';
import { runCli, startCli } from './run-cli.js';
import { storedUsers } from './stored-users.js';

const DEFERRED = SQLITE_DEFERRED_INDEXES.map((index) => index.name).sort();
const line = (tag: string, i: number) => JSON.stringify({ username: `${tag}.${i}`, email_address: `${tag}.${i}@example.com`, display_name: `Pat ${tag} ${i}` });
const lines = (tag: string, from: number, to: number) => `${Array.from({ length: to - from + 1 }, (_, i) => line(tag, from + i)).join('\n')}\n`;

describeEachStore('import: load then index', (kind) => {
  let dir: string;
  let empty: TestDatabaseUrl;
  let migrated: Map<string, string>;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'user-service-bulk-load-'));
    empty = await createTestDatabaseUrl(kind);
    assert.equal((await runCli(['migrate', '--database-url', empty.databaseUrl])).code, 0);
    migrated = await indexDefinitions(kind, empty.databaseUrl);
  });
  after(async () => {
    await empty.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('into an empty directory: says it builds the indexes set aside, and ends with every index; into a populated one: sets none aside', async () => {
    const file = join(dir, 'first.jsonl');
    writeFileSync(file, lines('first', 1, 30));
    const first = await runCli(['import', file, '--database-url', empty.databaseUrl, '--batch-size', '7']);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(parseSummary(first.stdout).created, 30);
    assert.match(first.stderr, /^user-service: building the indexes set aside for the load into an empty directory$/m);
    assert.match(first.stderr, new RegExp(`^user-service: the word and facet index and ${DEFERRED.length} indexes built in \\d+\\.\\d s$`, 'm'));
    assert.deepEqual(await indexDefinitions(kind, empty.databaseUrl), migrated);
    assert.equal((await storedUsers(kind, empty.databaseUrl, 'first')).length, 30);

    const more = join(dir, 'more.jsonl');
    writeFileSync(more, lines('more', 1, 5));
    const second = await runCli(['import', more, '--database-url', empty.databaseUrl]);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(parseSummary(second.stdout).created, 5);
    assert.doesNotMatch(second.stderr, /set aside|indexes built/);
    assert.deepEqual(await indexDefinitions(kind, empty.databaseUrl), migrated);
  });

  it('killed mid-load: the committed users stay, the indexes and words stay aside until `user-service migrate` builds them', async (t) => {
    const db = await createTestDatabaseUrl(kind);
    try {
      assert.equal((await runCli(['migrate', '--database-url', db.databaseUrl])).code, 0);
      const file = join(dir, 'pipe.jsonl');
      spawnSync('mkfifo', [file]);
      // The report named in the test's folder: a killed run cannot remove the empty one it would leave in the system's.
      const { child, exited } = startCli(['import', file, '--database-url', db.databaseUrl, '--batch-size', '10', '--report', join(dir, 'killed.report.jsonl')]);
      const pipe = createWriteStream(file);
      pipe.on('error', () => {}); // its reader is killed below
      pipe.write(lines('killed', 1, 25));
      // Counted beside the store: opening one would build the indexes this test expects aside.
      await until(() => countUsers(kind, db.databaseUrl), (n) => n === 20, t.signal);
      child.kill('SIGKILL');
      await exited;
      pipe.destroy();
      assert.deepEqual(missingIndexes(migrated, await indexDefinitions(kind, db.databaseUrl)), DEFERRED);
      assert.equal(await countUsers(kind, db.databaseUrl), 20);

      if (kind === 'sqlite') {
        // verify says the load is not finished: no damage, and not the store's final state either.
        const verified = await runCli(['verify', db.databaseUrl.slice('sqlite:'.length)]);
        assert.notEqual(verified.code, 0, verified.stdout);
        assert.match(`${verified.stdout}${verified.stderr}`, /the word and facet index and 9 indexes \(users_by_sort_username, .*\) set aside by an import into an empty directory are not built yet/);
      }
      const migrate = await runCli(['migrate', '--database-url', db.databaseUrl]);
      assert.equal(migrate.code, 0, migrate.stderr);
      assert.deepEqual(await indexDefinitions(kind, db.databaseUrl), migrated);
      // Found by a word of theirs: the word index was rebuilt.
      assert.equal((await storedUsers(kind, db.databaseUrl, 'killed')).length, 20);
      if (kind === 'sqlite') assert.equal((await runCli(['verify', db.databaseUrl.slice('sqlite:'.length)])).code, 0);
    } finally {
      await db.remove();
    }
  });
});
