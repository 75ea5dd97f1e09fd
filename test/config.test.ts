import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../src/config.js';

function settingOf(env: Record<string, string>): string | undefined {
  try {
    loadConfig(env);
    return undefined;
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.setting;
  }
}

describe('loadConfig', () => {
  it('defaults to loopback:8080, SQLite at ./data/users.db with synchronous=FULL, a 64 KiB body limit', () => {
    const config = loadConfig({});
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 8080);
    // Its folder is created when missing: DATABASE_URL was not typed, so it cannot be a typo.
    assert.deepEqual(config.store, { kind: 'sqlite', path: './data/users.db', synchronous: 'FULL', secureDelete: 'ON', createDirectory: true, changeFeed: true });
    assert.equal(config.bodyLimit, 65536);
    assert.ok(config.requestTimeoutMs > 0 && config.headersTimeoutMs > 0 && config.keepAliveTimeoutMs > 0);
    assert.ok(Object.isFrozen(config) && Object.isFrozen(config.store));
  });

  it('selects the store from DATABASE_URL', () => {
    assert.deepEqual(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).store, { kind: 'sqlite', path: ':memory:', synchronous: 'FULL', secureDelete: 'ON', createDirectory: false, changeFeed: true });
    assert.deepEqual(loadConfig({ DATABASE_URL: 'sqlite:/tmp/x.db', SQLITE_SYNCHRONOUS: 'NORMAL' }).store, { kind: 'sqlite', path: '/tmp/x.db', synchronous: 'NORMAL', secureDelete: 'ON', createDirectory: false, changeFeed: true });
    assert.equal((loadConfig({ DATABASE_URL: 'sqlite:/tmp/x.db', SQLITE_SECURE_DELETE: 'OFF' }).store as { secureDelete: string }).secureDelete, 'OFF');
    const pg = { poolMax: 10, statementTimeoutMs: 5000, connectTimeoutMs: 5000, changeFeed: true };
    assert.deepEqual(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).store, { kind: 'postgres', url: 'postgres://u@h/db', ...pg });
    assert.deepEqual(loadConfig({ DATABASE_URL: 'postgresql://u@h/db', PG_POOL_MAX: '3' }).store, { kind: 'postgres', url: 'postgresql://u@h/db', ...pg, poolMax: 3 });
    assert.equal(loadConfig({ CHANGE_FEED: 'off' }).store.changeFeed, false);
  });

  it('creates the folder of a typed SQLite path only when SQLITE_CREATE_DIRECTORY=true; the default path\'s always', () => {
    const createDirectory = (env: Record<string, string>) => (loadConfig(env).store as { createDirectory: boolean }).createDirectory;
    assert.equal(createDirectory({ DATABASE_URL: 'sqlite:./dta/users.db' }), false);
    assert.equal(createDirectory({ DATABASE_URL: 'sqlite:./dta/users.db', SQLITE_CREATE_DIRECTORY: 'false' }), false);
    assert.equal(createDirectory({ DATABASE_URL: 'sqlite:./dta/users.db', SQLITE_CREATE_DIRECTORY: 'true' }), true);
    assert.equal(createDirectory({ DATABASE_URL: 'sqlite:./data/users.db' }), false, 'typed, even as the default, it may be a typo');
    assert.equal(createDirectory({}), true);
    assert.equal(createDirectory({ DATABASE_URL: '' }), true, 'empty is unset, as everywhere in the configuration');
    for (const value of ['yes', 'TRUE', '1']) assert.equal(settingOf({ DATABASE_URL: 'sqlite:/tmp/x.db', SQLITE_CREATE_DIRECTORY: value }), 'SQLITE_CREATE_DIRECTORY', value);
  });

  it('names the setting of every bad value', () => {
    assert.equal(settingOf({ PORT: 'abc' }), 'PORT');
    assert.equal(settingOf({ PORT: '65536' }), 'PORT');
    assert.equal(settingOf({ DATABASE_URL: 'mysql://x' }), 'DATABASE_URL');
    assert.equal(settingOf({ DATABASE_URL: 'sqlite:' }), 'DATABASE_URL');
    assert.equal(settingOf({ LOG_LEVEL: 'loud' }), 'LOG_LEVEL');
    assert.equal(settingOf({ CHANGE_FEED: 'yes' }), 'CHANGE_FEED');
    assert.equal(settingOf({ BODY_LIMIT: '1.5' }), 'BODY_LIMIT');
    assert.equal(settingOf({ SQLITE_SYNCHRONOUS: 'OFF' }), 'SQLITE_SYNCHRONOUS');
    assert.equal(settingOf({ SQLITE_SECURE_DELETE: 'yes' }), 'SQLITE_SECURE_DELETE');
    assert.equal(settingOf({ DATABASE_URL: 'postgres://h/db', PG_POOL_MAX: '0' }), 'PG_POOL_MAX');
    assert.equal(settingOf({ DATABASE_URL: 'postgres://h/db', PG_STATEMENT_TIMEOUT_MS: 'x' }), 'PG_STATEMENT_TIMEOUT_MS');
    assert.equal(settingOf({ AUTH_MODE: 'magic' }), 'AUTH_MODE');
    assert.equal(settingOf({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' }), 'HEADERS_TIMEOUT_MS');
  });

  it('refuses a PostgreSQL statement timeout too short to open the store, saying why, and checks the other store settings', () => {
    const pg = (env: Record<string, string>) => ({ DATABASE_URL: 'postgres://h/db', ...env });
    for (const value of ['0', '1', '99']) {
      assert.equal(settingOf(pg({ PG_STATEMENT_TIMEOUT_MS: value })), 'PG_STATEMENT_TIMEOUT_MS', value);
    }
    assert.throws(
      () => loadConfig(pg({ PG_STATEMENT_TIMEOUT_MS: '1' })),
      (error: unknown) =>
        error instanceof ConfigError &&
        /^PG_STATEMENT_TIMEOUT_MS: must be an integer from 100 to 3600000, got "1" \(.*first query on each connection.*\)$/.test(error.message) &&
        !error.message.includes('\n'),
    );
    assert.equal((loadConfig(pg({ PG_STATEMENT_TIMEOUT_MS: '100' })).store as { statementTimeoutMs: number }).statementTimeoutMs, 100);
    assert.equal(settingOf(pg({ PG_STATEMENT_TIMEOUT_MS: '3600001' })), 'PG_STATEMENT_TIMEOUT_MS');
    assert.equal(settingOf(pg({ PG_CONNECT_TIMEOUT_MS: '999' })), 'PG_CONNECT_TIMEOUT_MS');
    assert.equal(settingOf(pg({ PG_POOL_MAX: '1001' })), 'PG_POOL_MAX');
    assert.equal(settingOf(pg({ PG_POOL_MAX: '-1' })), 'PG_POOL_MAX');
    assert.equal(settingOf({ DATABASE_URL: 'sqlite:/tmp/x.db', SQLITE_SYNCHRONOUS: 'normal' }), 'SQLITE_SYNCHRONOUS');
    assert.equal(settingOf({ DATABASE_URL: 'sqlite:/tmp/x.db', SQLITE_SYNCHRONOUS: 'OFF' }), 'SQLITE_SYNCHRONOUS');
  });

  it('refuses an API key id with a control character: an id names the key in logs and in event origins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-keys-'));
    try {
      const file = join(dir, 'keys.json');
      const entry = (id: string) => ({ id, sha256: 'a'.repeat(64), scopes: ['users:read'] });
      writeFileSync(file, JSON.stringify([entry('hr-sync')]));
      assert.equal(settingOf({ AUTH_MODE: 'api-key', API_KEYS_FILE: file }), undefined);
      for (const id of ['hr\tsync', 'hr\nsync', 'hr\u0000sync', 'hr\u0085sync']) {
        writeFileSync(file, JSON.stringify([entry(id)]));
        assert.equal(settingOf({ AUTH_MODE: 'api-key', API_KEYS_FILE: file }), 'API_KEYS_FILE', JSON.stringify(id));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to serve unauthenticated on a non-loopback host unless ALLOW_UNAUTHENTICATED=true', () => {
    assert.equal(settingOf({ HOST: '0.0.0.0' }), 'HOST');
    assert.equal(settingOf({ HOST: '10.1.2.3' }), 'HOST');
    assert.equal(loadConfig({ HOST: '0.0.0.0', ALLOW_UNAUTHENTICATED: 'true' }).host, '0.0.0.0');
    assert.equal(loadConfig({ HOST: '::1' }).host, '::1');
    assert.equal(loadConfig({ HOST: 'localhost' }).host, 'localhost');
  });

  it('allows an http JWKS URL only on a loopback host, IPv6 and IPv4-mapped loopback included', () => {
    const jwt = (url: string) => ({ AUTH_MODE: 'jwt', JWT_ISSUER: 'https://i', JWT_AUDIENCE: 'a', JWT_JWKS_URL: url });
    for (const url of ['http://127.0.0.1:9/k', 'http://127.8.9.1/k', 'http://localhost:9/k', 'http://[::1]:9/k', 'http://[0:0:0:0:0:0:0:1]/k', 'http://[::ffff:127.0.0.1]/k', 'https://idp.example.com/k']) {
      assert.equal(settingOf(jwt(url)), undefined, url);
    }
    for (const url of ['http://idp.example.com/k', 'http://[::2]/k', 'http://10.0.0.1/k', 'http://[::ffff:10.0.0.1]/k', 'http://0.0.0.0/k']) {
      assert.equal(settingOf(jwt(url)), 'JWT_JWKS_URL', url);
    }
  });
});
