/**
 * Each store loads only its own driver: the SQLite path never loads postgres.js,
 * and the PostgreSQL path never loads better-sqlite3 (STYLE principle 5). Checked in
 * a fresh process whose module resolutions are recorded by a resolve hook, for the
 * modules themselves and for the production bundle (dist/bundle/server.mjs).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT, SERVER_ENTRY } from '../helpers/child-server.js';
import { createTestDatabaseUrl, STORE_KINDS, type TestDatabaseUrl } from '../helpers/stores.js';

/** Records every resolved module URL, synchronously to a file: hooks run on their own thread, whose stderr may be lost at exit. */
const hooks = (log: string) => `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + '\\n');
  return result;
}`;

describe('store drivers load lazily', () => {
  let dir: string;
  let pg: TestDatabaseUrl | undefined;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'user-service-drivers-'));
    writeFileSync(join(dir, 'hooks.mjs'), hooks(join(dir, 'resolved.log')));
    writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`);
    if (!STORE_KINDS.find((s) => s.kind === 'postgres')?.skip) pg = await createTestDatabaseUrl('postgres');
  });
  after(async () => {
    await pg?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  function loadedWhileOpening(databaseUrl: string): string {
    rmSync(join(dir, 'resolved.log'), { force: true });
    const script = `
      import { loadConfig } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist/src/config.js')).href)};
      import { openStore } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist/src/store/open-store.js')).href)};
      const store = await openStore(loadConfig({ DATABASE_URL: ${JSON.stringify(databaseUrl)} }).store);
      await store.ping();
      await store.close();`;
    const result = spawnSync(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, '--input-type=module', '-e', script], { encoding: 'utf8', cwd: REPO_ROOT, timeout: 30_000 });
    assert.equal(result.status, 0, result.stderr);
    return readFileSync(join(dir, 'resolved.log'), 'utf8');
  }

  /** The modules the production bundle resolved from start to listening, with `env`. */
  async function loadedByBundle(databaseUrl: string): Promise<string> {
    rmSync(join(dir, 'resolved.log'), { force: true });
    const child = spawn(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, SERVER_ENTRY], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = once(child, 'exit');
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => output.includes('Server listening') && resolve());
      void exited.then(() => reject(new Error(`the bundle exited before listening:\n${output}`)));
    });
    child.kill('SIGTERM');
    await exited;
    return readFileSync(join(dir, 'resolved.log'), 'utf8');
  }

  it('the production bundle on SQLite never loads postgres.js', async () => {
    const loaded = await loadedByBundle(`sqlite:${join(dir, 'bundle.db')}`);
    assert.match(loaded, /better-sqlite3/);
    assert.doesNotMatch(loaded, /node_modules\/postgres\//);
  });

  it('the production bundle on PostgreSQL never loads better-sqlite3', async (t) => {
    if (!pg) return t.skip('PostgreSQL is unreachable here');
    const loaded = await loadedByBundle(pg.databaseUrl);
    assert.match(loaded, /node_modules\/postgres\//);
    assert.doesNotMatch(loaded, /better-sqlite3/);
  });

  it('the SQLite store never loads postgres.js', () => {
    const loaded = loadedWhileOpening(`sqlite:${join(dir, 'u.db')}`);
    assert.match(loaded, /better-sqlite3/);
    assert.doesNotMatch(loaded, /node_modules\/postgres\//);
  });

  it('the PostgreSQL store never loads better-sqlite3', (t) => {
    if (!pg) return t.skip('PostgreSQL is unreachable here');
    const loaded = loadedWhileOpening(pg.databaseUrl);
    assert.match(loaded, /node_modules\/postgres\//);
    assert.doesNotMatch(loaded, /better-sqlite3/);
  });
});

