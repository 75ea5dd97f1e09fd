/**
 * The app is the list of its rooms' plugins (src/app.ts): a list minus one plugin builds an app
 * without that room's steps (what bench/request-steps-bench.ts measures), and the full list
 * keeps them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp, SERVICE_PLUGINS } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openSqliteUserStore } from '../src/store/sqlite/sqlite-user-store.js';
import { apiKeysFixture, type ApiKeysFixture } from './helpers/auth-fixtures.js';

describe('the plugin list', () => {
  let keys: ApiKeysFixture;
  before(() => {
    keys = apiKeysFixture();
  });
  after(() => keys.cleanup());

  const appWith = (plugins = SERVICE_PLUGINS) =>
    buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent', AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file, OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' }),
      store: openSqliteUserStore({ path: ':memory:' }),
      plugins,
    });

  test('names each plugin once, the request path first', () => {
    const names = SERVICE_PLUGINS.map((plugin) => plugin.name);
    assert.equal(new Set(names).size, names.length);
    assert.equal(names[0], 'request-path');
  });

  test('the full list authenticates a read by key; without access control it is read unauthenticated', async () => {
    const full = await appWith();
    const withoutAccess = await appWith(SERVICE_PLUGINS.filter((plugin) => plugin.name !== 'access-control'));
    try {
      const url = '/users/username:nobody';
      assert.equal((await full.inject({ method: 'GET', url })).statusCode, 401);
      assert.equal((await full.inject({ method: 'GET', url, headers: { authorization: `Bearer ${keys.keys.reader}` } })).statusCode, 404);
      assert.equal((await withoutAccess.inject({ method: 'GET', url })).statusCode, 404);
    } finally {
      await full.close();
      await withoutAccess.close();
    }
  });

  test('without the metrics plugin there is no GET /metrics, and reads still answer', async () => {
    const app = await appWith(SERVICE_PLUGINS.filter((plugin) => plugin.name !== 'metrics'));
    try {
      const auth = { authorization: `Bearer ${keys.keys.scraper}` };
      assert.equal((await app.inject({ method: 'GET', url: '/metrics', headers: auth })).statusCode, 404);
      assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    } finally {
      await app.close();
    }
  });
});
