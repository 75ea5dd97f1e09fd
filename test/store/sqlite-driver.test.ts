/**
 * The SQLite driver for the running Node.js (src/store/sqlite/sqlite-driver.ts):
 * better-sqlite3 13 with Node-API 10 (Node.js 22.14+, 24), 12 without (Node.js 20).
 * The wrong one does not fail politely: 12 aborts Node.js 24 when a collected
 * statement or database is destroyed, 13 crashes Node.js 20 as it opens a file.
 * `scripts/test-on-node.sh 22|24` runs this under the other majors.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SQLITE_DRIVER_PACKAGE } from '../../src/store/sqlite/sqlite-driver.js';

const require = createRequire(import.meta.url);
const driverUrl = new URL('../../src/store/sqlite/sqlite-driver.js', import.meta.url).href;

describe('the SQLite driver', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-driver-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is better-sqlite3 13 where Node-API 10 exists, 12 where it does not', () => {
    const nodeApi = Number(process.versions.napi);
    const { version } = require(`${SQLITE_DRIVER_PACKAGE}/package.json`) as { version: string };
    assert.equal(Number(version.split('.')[0]), nodeApi >= 10 ? 13 : 12, `Node-API ${nodeApi} loaded ${SQLITE_DRIVER_PACKAGE}@${version}`);
  });

  it('survives statements and databases collected while running and at exit', () => {
    // Files opened and closed with statements and pragmas, all left to the collector,
    // collected from a timer (no JavaScript on the stack) and then at exit.
    const script = `
      const { default: Database } = await import(${JSON.stringify(driverUrl)});
      for (let i = 0; i < 300; i++) {
        const db = new Database(${JSON.stringify(join(dir, 'collected.db'))});
        db.pragma('journal_mode = WAL');
        db.prepare('CREATE TABLE IF NOT EXISTS t (v INTEGER)').run();
        db.prepare('INSERT INTO t (v) VALUES (?)').run(i);
        db.close();
      }
      await new Promise((resolve) => setTimeout(() => { globalThis.gc(); resolve(); }, 1));
      let open = new Database(${JSON.stringify(join(dir, 'collected.db'))});
      const count = open.prepare('SELECT count(*) AS n FROM t').get().n;
      open = undefined;
      globalThis.gc();
      console.log('rows', count);
    `;
    const child = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(child.signal, null, `the process died of ${child.signal}: ${child.stderr.slice(0, 400)}`);
    assert.equal(child.status, 0, child.stderr.slice(0, 400));
    assert.equal(child.stdout.trim(), 'rows 300');
  });
});
