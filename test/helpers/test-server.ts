/**
 * Starts the real app on a real port over a real store (a fresh SQLite file in a
 * temporary folder, removed on close), for one test file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { UserStore } from '../../src/store/user-store.js';
import { openSqliteUserStore } from '../../src/store/sqlite/sqlite-user-store.js';
import { clientFor, type TestClient } from './http-client.js';

export interface TestServer extends TestClient {
  app: FastifyInstance;
  store: UserStore;
  close(): Promise<void>;
}

/** A fresh SQLite store in its own temporary folder; the folder goes with close(). */
export function tempSqliteStore(): { store: UserStore; path: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'user-service-test-'));
  const path = join(dir, 'users.db');
  const store = openSqliteUserStore({ path });
  return { store, path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const { store, cleanup } = tempSqliteStore();
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env });
  const app = await buildApp({ config, store });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
  return {
    ...clientFor(`http://127.0.0.1:${address.port}`),
    app,
    store,
    async close() {
      await app.close();
      cleanup();
    },
  };
}

let counter = 0;
/** A valid, unique user body; `overrides` replace fields. */
export function newUser(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  const tag = `${process.pid}x${counter}`;
  return { username: `user${tag}`, email_address: `user${tag}@example.com`, ...overrides };
}
