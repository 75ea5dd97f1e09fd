/**
 * Starts the real app on a real port over a real, fresh store (SQLite by
 * default, or PostgreSQL), for one test suite; close() removes the data.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { UserStore } from '../../src/store/user-store.js';
import { clientFor, type TestClient } from './http-client.js';
import { compileDocument, forgetDocument, primeDocument } from './openapi-validator.js';
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
  /** Passed to buildApp: where log lines go, and an observer of every route. */
  app?: Pick<AppOptions, 'logStream' | 'onRoute'>;
}

export async function startTestServer({ store: kind = 'sqlite', env = {}, app: appOptions = {} }: TestServerOptions = {}): Promise<TestServer> {
  const { store, databaseUrl, cleanup } = await openTestStore(kind);
  // Load shedding is off unless a test turns it on: a busy CI machine must not shed test traffic.
  const config = loadConfig({ LOG_LEVEL: 'silent', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', ...env });
  const app = await buildApp({ config, store, ...appOptions });
  await app.ready();
  // Compiled before listening: the work would otherwise show as event-loop delay in the server's own process.
  const checks = await compileDocument(app.swagger() as Record<string, any>);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  await primeDocument(baseUrl, Promise.resolve(checks));
  return {
    ...clientFor(baseUrl),
    app,
    store,
    databaseUrl,
    async close() {
      forgetDocument(baseUrl);
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
