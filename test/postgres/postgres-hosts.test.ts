/**
 * DATABASE_URL naming a replicated cluster's hosts, as libpq writes it: each host
 * becomes a URL of its own (credentials, database and parameters kept, the choice of
 * session left to the service), the configuration accepts it, and the start-up log
 * and error lines name every host without the password.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { describeOpenError, storeLocation } from '../../src/store/open-store-errors.js';
import { firstHostUrl, hostUrls } from '../../src/store/postgres/postgres-hosts.js';

const CLUSTER = 'postgres://app:s%40cret@db1.internal:5432,db2.internal:5433/users?target_session_attrs=read-write&sslmode=require';

describe('the hosts of a multi-host DATABASE_URL', () => {
  it('gives one URL per host, in order, keeping credentials, database and parameters but target_session_attrs', () => {
    assert.deepEqual(hostUrls(CLUSTER), {
      urls: ['postgres://app:s%40cret@db1.internal:5432/users?sslmode=require', 'postgres://app:s%40cret@db2.internal:5433/users?sslmode=require'],
      names: ['db1.internal:5432', 'db2.internal:5433'],
    });
  });

  it('names the default port, and leaves a single-host URL as written', () => {
    assert.deepEqual(hostUrls('postgresql://h1,h2/db').names, ['h1:5432', 'h2:5432']);
    assert.deepEqual(hostUrls('postgres://u@h1:5432/db?target_session_attrs=read-write').urls, ['postgres://u@h1:5432/db?target_session_attrs=read-write']);
    assert.equal(firstHostUrl(CLUSTER), 'postgres://app:s%40cret@db1.internal:5432/users?target_session_attrs=read-write&sslmode=require');
  });

  it('is accepted by the configuration as it is written', () => {
    const store = loadConfig({ DATABASE_URL: CLUSTER }).store;
    assert.equal(store.kind === 'postgres' && store.url, CLUSTER);
  });

  it('is named host by host in the start-up log and in a start failure, never with the password', () => {
    const config = loadConfig({ DATABASE_URL: CLUSTER }).store;
    assert.deepEqual(storeLocation(config), { store: 'postgres', host: 'db1.internal:5432,db2.internal:5433', port: '5432', database: 'users' });
    const line = describeOpenError(config, Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    assert.match(line, /cannot connect to PostgreSQL at db1\.internal:5432,db2\.internal:5433 \(/);
    assert.doesNotMatch(line, /s@cret|s%40cret/);
  });
});
