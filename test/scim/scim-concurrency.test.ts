/**
 * SCIM at scale-out, on PostgreSQL only: three app instances (in this process,
 * each with its own store and connection pool) on one database. Concurrent SCIM
 * creates of one userName in different letter case, spread over the instances,
 * have exactly one winner and 409 `uniqueness` for every other; and a startIndex
 * walk whose pages land on different instances (as behind a load balancer) still
 * visits every user exactly once.
 *
 * PostgreSQL is required under CI=true (postgresSkipReason throws there when it is
 * unreachable); elsewhere the suite skips with the reason.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import postgres from 'postgres';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createTestDatabase, postgresSkipReason, type TestDatabase } from '../helpers/postgres.js';
import { openTestStoreAt } from '../helpers/stores.js';
import { scimRequest, type ScimResponse } from '../helpers/scim-client.js';

const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

const skip = await postgresSkipReason();



interface Instance {
  app: FastifyInstance;
  baseUrl: string;
  scim(method: string, path: string, body?: unknown): Promise<ScimResponse>;
}

/** An app instance on the database, listening on a port of its own. */
async function startInstance(databaseUrl: string): Promise<Instance> {
  const store = await openTestStoreAt('postgres', databaseUrl);
  const config = loadConfig({ LOG_LEVEL: 'silent', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', DATABASE_URL: databaseUrl });
  const app = await buildApp({ config, store });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the instance has no TCP address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return { app, baseUrl, scim: (method, path, body) => scimRequest(baseUrl, method, `/scim/v2${path}`, body === undefined ? {} : { body }) };
}

/** `word` with its letters upper-cased where the bits of `n` say: distinct `n` below 2^length give distinct spellings. */
const spelling = (word: string, n: number) => Array.from(word, (ch, i) => ((n >> i) & 1 ? ch.toUpperCase() : ch)).join('');

describe('SCIM on three instances sharing one PostgreSQL database [postgres]', skip ? { skip } : {}, () => {
  let db: TestDatabase;
  let instances: Instance[] = [];
  before(async () => {
    db = await createTestDatabase();
    // The first opens (and migrates) the database; the others join it.
    instances.push(await startInstance(db.url));
    instances.push(...(await Promise.all([startInstance(db.url), startInstance(db.url)])));
  });
  after(async () => {
    await Promise.all(instances.map((instance) => instance.app.close()));
    instances = [];
    await db?.drop();
  });

  it('50 concurrent creates of one userName in different letter case across the instances: one 201, every other 409 uniqueness, one user stored', async () => {
    const word = 'racetrack';
    // Race, RACE, race, rAcE… : fifty distinct spellings (n = 1 gives "Racetrack").
    const names = Array.from({ length: 50 }, (_, i) => spelling(word, [1, 511, 0, 10][i] ?? i * 9 + 3));
    assert.equal(new Set(names).size, 50);
    const answers = await Promise.all(
      names.map((userName, i) => instances[i % 3]!.scim('POST', '/Users', { schemas: [CORE], userName, emails: [{ value: `racer${i}@example.com`, type: 'work' }] })),
    );
    const winners = answers.filter((res) => res.status === 201);
    assert.equal(winners.length, 1, `statuses: ${answers.map((res) => res.status).join(',')}`);
    for (const res of answers) {
      if (res.status === 201) continue;
      assert.equal(res.status, 409, res.text);
      assert.match(String(res.headers['content-type']), /^application\/scim\+json(?:;|$)/, res.text);
      assert.deepEqual(res.body.schemas, [ERROR], res.text);
      assert.equal(res.body.status, '409', res.text);
      assert.equal(res.body.scimType, 'uniqueness', res.text);
    }
    const winner = winners[0]!.body;
    // Every instance finds the one user, by any spelling.
    for (const [i, instance] of instances.entries()) {
      const res = await instance.scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${spelling(word, 200 + i)}"`)}`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual([res.body.totalResults, res.body.Resources.map((r: { id: string }) => r.id)], [1, [winner.id]]);
    }
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql<{ uid: string; username: string }[]>`SELECT uid::text AS uid, username FROM users`;
      const racers = rows.filter((row) => row.username.toLowerCase() === word);
      assert.deepEqual(racers, [{ uid: winner.id, username: winner.userName }]);
      const keys = await sql<{ uid: string }[]>`SELECT uid::text AS uid FROM user_keys WHERE key = 'username' AND value = ${word}`;
      assert.deepEqual(keys.map((k) => k.uid), [winner.id]);
      const emails = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM user_keys WHERE key = 'email_address' AND value LIKE 'racer%'`;
      assert.equal(emails[0]!.n, 1, 'only the winner holds a racer email address');
    } finally {
      await sql.end();
    }
  });

  it('a startIndex walk whose pages are served by different instances visits every user exactly once, after another walk and deletions', async () => {
    const run = `lb${process.pid}`;
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await instances[i % 3]!.scim('POST', '/Users', { schemas: [CORE], userName: `${run}u${i}`, emails: [{ value: `${run}u${i}@example.com` }] });
      assert.equal(res.status, 201, res.text);
      ids.push(res.body.id);
    }
    // An earlier import, every page served by the second instance…
    // Pages as Okta's import reads them: on while a page is full and totalResults is larger.
    const walk = async (instanceOf: (page: number) => Instance): Promise<string[]> => {
      const seen: string[] = [];
      for (let page = 0, start = 1; ; page++) {
        assert.ok(page < 100, 'the walk does not end');
        const res = await instanceOf(page).scim('GET', `/Users?startIndex=${start}&count=7`);
        assert.equal(res.status, 200, res.text);
        seen.push(...res.body.Resources.map((r: { id: string }) => r.id));
        start += res.body.Resources.length;
        if (res.body.Resources.length < 7 || start > res.body.totalResults) return seen;
      }
    };
    const everyone = await walk(() => instances[1]!);
    assert.equal(new Set(everyone).size, everyone.length);
    for (const id of ids) assert.ok(everyone.includes(id), `the walk read ${id}`);
    // …then users leave the directory…
    for (const id of ids.slice(0, 3)) assert.equal((await instances[0]!.scim('DELETE', `/Users/${id}`)).status, 204);
    const expected = everyone.filter((id) => !ids.slice(0, 3).includes(id));
    // …and the next import's pages alternate between two instances: the marks they share are the new walk's.
    const seen = await walk((page) => instances[page % 2]!);
    const twice = seen.filter((id, i) => seen.indexOf(id) !== i);
    const missed = expected.filter((id) => !seen.includes(id));
    assert.deepEqual({ twice, missed }, { twice: [], missed: [] }, `${seen.length} ids read for ${expected.length} users`);
  });
});
