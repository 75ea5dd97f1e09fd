/**
 * Starts the real app on a real port over a real, fresh store (SQLite by
 * default, or PostgreSQL), for one test suite; close() removes the data.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { UserStore } from '../../src/store/user-store.js';
import { clientFor, type TestClient } from './http-client.js';
import { openTestStore, type StoreKind } from './stores.js';

export interface TestServer extends TestClient {
  app: FastifyInstance;
  store: UserStore;
  /** The DATABASE_URL of the server's data. */
  databaseUrl: string;
  close(): Promise<void>;
}

export interface TestServerOptions {
  store?: StoreKind;
  /** Extra configuration, as environment variables. */
  env?: Record<string, string>;
}

export async function startTestServer({ store: kind = 'sqlite', env = {} }: TestServerOptions = {}): Promise<TestServer> {
  const { store, databaseUrl, cleanup } = await openTestStore(kind);
  // Load shedding is off unless a test turns it on: a busy CI machine must not shed test traffic.
  const config = loadConfig({ LOG_LEVEL: 'silent', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', ...env });
  const app = await buildApp({ config, store });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
  return {
    ...clientFor(`http://127.0.0.1:${address.port}`),
    app,
    store,
    databaseUrl,
    async close() {
      await app.close(); // closes the store too (onClose hook)
      await cleanup();
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
