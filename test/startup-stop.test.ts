/**
 * A graceful stop ends with one log line saying the store closed and how long the
 * stop took (CONTRACT §7: SIGTERM/SIGINT stop accepting, finish requests in flight,
 * close the store, exit 0): after SIGTERM the last stdout line is
 * `{"msg":"stopped: store closed","stop_ms":N,…}`, logged once the store's close
 * resolved, and the process exits 0. On SQLite and on PostgreSQL, as real processes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startChildServer, type StartedChildServer } from './helpers/child-server.js';
import { createTestDatabase, postgresSkipReason, type TestDatabase } from './helpers/postgres.js';
import { newUser } from './helpers/test-server.js';

const postgresSkip = await postgresSkipReason();
const children: StartedChildServer[] = [];
const dirs: string[] = [];
const databases: TestDatabase[] = [];
after(async () => {
  await Promise.all(children.map((child) => child.dispose()));
  await Promise.all(databases.map((db) => db.drop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Starts the service on `databaseUrl`, writes a user, SIGTERMs it; checks the exit and the last log lines. */
async function stopGracefully(databaseUrl: string, signal: NodeJS.Signals): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'user-service-stop-'));
  dirs.push(dir);
  const child = await startChildServer({ cwd: dir, env: { DATABASE_URL: databaseUrl } });
  children.push(child);
  assert.equal((await child.post('/users', newUser())).status, 201);

  child.kill(signal);
  assert.deepEqual(await child.waitForExit(15_000), { code: 0, signal: null }, child.describe());
  const lines = child.stdout().split('\n').filter((line) => line.trim() !== '');
  const last = JSON.parse(lines.at(-1) ?? 'null') as Record<string, unknown> | null;
  assert.ok(last, child.describe());
  assert.equal(last.msg, 'stopped: store closed', `the last stdout line: ${child.describe()}`);
  assert.equal(last.level, 30, 'info');
  assert.equal(last.signal, signal);
  assert.ok(Number.isInteger(last.stop_ms) && (last.stop_ms as number) >= 0, `stop_ms is a whole number of ms: ${JSON.stringify(last)}`);
  const stopping = child.logs().findIndex((record) => record.msg === 'stopping: finishing requests in flight');
  assert.ok(stopping >= 0 && stopping < child.logs().length - 1, 'the stop began with its own line, before the last');
  assert.equal(child.logs().filter((record) => record.msg === 'stopped: store closed').length, 1);
  assert.equal(child.stderr(), '', 'nothing on stderr');
}

describe('the last log line of a graceful stop says the store closed and how long the stop took', () => {
  it('SQLite, SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'user-service-stop-db-'));
    dirs.push(dir);
    await stopGracefully(`sqlite:${join(dir, 'users.db')}`, 'SIGTERM');
  });

  it('SQLite, SIGINT', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'user-service-stop-db-'));
    dirs.push(dir);
    await stopGracefully(`sqlite:${join(dir, 'users.db')}`, 'SIGINT');
  });

  it('PostgreSQL, SIGTERM', { skip: postgresSkip }, async () => {
    const db = await createTestDatabase();
    databases.push(db);
    await stopGracefully(db.url, 'SIGTERM');
  });
});
