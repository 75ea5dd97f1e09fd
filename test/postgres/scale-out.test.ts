/**
 * Scale-out on PostgreSQL: two service processes on one database. Concurrent
 * creates and updates split across both compete for the same usernames, email
 * addresses and legacy ids (in case and width variants): exactly one winner per
 * key, every other request a 409 naming that key, no 5xx, and the database ends
 * with every key held once and by the user whose fields name it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { keysOf, type User } from '../../src/users/user.js';
import { startChildServer, type StartedChildServer } from '../helpers/child-server.js';
import type { TestResponse } from '../helpers/http-client.js';
import { createTestDatabase, postgresSkipReason, type TestDatabase } from '../helpers/postgres.js';

const skip = await postgresSkipReason();
const fullwidth = (s: string) => s.replace(/[a-z]/g, (c) => String.fromCodePoint(c.codePointAt(0)! - 0x61 + 0xff41));
/** Five spellings of one key: the same canonical form. */
const variants = (s: string) => [s, s.toUpperCase(), fullwidth(s), fullwidth(s.toUpperCase()), s[0]!.toUpperCase() + s.slice(1)];

describe('two instances on one PostgreSQL database', skip ? { skip } : {}, () => {
  let db: TestDatabase;
  let a: StartedChildServer;
  let b: StartedChildServer;
  before(async () => {
    db = await createTestDatabase();
    // Both start at once: the advisory lock lets exactly one of them migrate.
    [a, b] = await Promise.all([startChildServer({ env: { DATABASE_URL: db.url } }), startChildServer({ env: { DATABASE_URL: db.url } })]);
  });
  after(async () => {
    await Promise.all([a?.dispose(), b?.dispose()]);
    await db?.drop();
  });

  it('200 concurrent creates and updates across both: one winner per key, the rest 409, no 5xx', async () => {
    const run = `r${Date.now().toString(36)}`;
    // Fifty users to update, made first.
    const targets: User[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await a.post('/users', { username: `${run}t${i}`, email_address: `${run}t${i}@example.com` });
      assert.equal(res.status, 201, res.text);
      targets.push(res.body);
    }
    type Attempt = { contested: string; key: 'username' | 'email_address' | 'legacy_id'; send: () => Promise<TestResponse> };
    const attempts: Attempt[] = [];
    for (let k = 0; k < 10; k++) {
      variants(`${run}name${k}`).forEach((username, v) => {
        const i = attempts.length;
        const server = i % 2 ? a : b;
        attempts.push({ contested: `u${k}`, key: 'username', send: () => server.post('/users', { username, email_address: `${run}u${k}v${v}@example.com` }) });
      });
      variants(`${run}mail${k}`).forEach((local, v) => {
        const server = attempts.length % 2 ? a : b;
        attempts.push({ contested: `e${k}`, key: 'email_address', send: () => server.post('/users', { username: `${run}e${k}v${v}`, email_address: `${local}@Example.COM` }) });
      });
      for (let v = 0; v < 5; v++) {
        const server = attempts.length % 2 ? a : b;
        attempts.push({ contested: `l${k}`, key: 'legacy_id', send: () => server.post('/users', { username: `${run}l${k}v${v}`, email_address: `${run}l${k}v${v}@example.com`, legacy_id: `${run}:L${k}` }) });
      }
      variants(`${run}moved${k}`).forEach((username, v) => {
        const target = targets[k * 5 + v]!;
        const server = attempts.length % 2 ? a : b;
        attempts.push({ contested: `m${k}`, key: 'username', send: () => server.put(`/users/${target.uid}`, { username, email_address: target.email_address }) });
      });
    }
    assert.equal(attempts.length, 200);

    const responses = await Promise.all(attempts.map((attempt) => attempt.send()));
    const byKey = new Map<string, number[]>();
    responses.forEach((res, i) => {
      const attempt = attempts[i]!;
      assert.ok(res.status === 201 || res.status === 200 || res.status === 409, `attempt ${i}: ${res.status} ${res.text}`);
      if (res.status === 409) assert.equal(res.body.key, attempt.key, res.text);
      byKey.set(attempt.contested, [...(byKey.get(attempt.contested) ?? []), res.status]);
    });
    for (const [contested, statuses] of byKey) {
      assert.equal(statuses.filter((s) => s !== 409).length, 1, `${contested}: ${statuses.join(',')}`);
    }
  });

  it('concurrent swaps of legacy ids between pairs of users (deadlock-prone) never answer 5xx', async () => {
    const pairs = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const [x, y] = await Promise.all(
          ['x', 'y'].map((side) => a.post('/users', { username: `swap${side}${i}p${process.pid}`, email_address: `swap${side}${i}p${process.pid}@example.com`, legacy_ids: [`swap:${side}:${i}`] })),
        );
        return [x!.body as User, y!.body as User] as const;
      }),
    );
    const swaps = pairs.flatMap(([x, y], i) => [
      (i % 2 ? a : b).put(`/users/${x.uid}`, { username: x.username, email_address: x.email_address, legacy_ids: y.legacy_ids }),
      (i % 2 ? b : a).put(`/users/${y.uid}`, { username: y.username, email_address: y.email_address, legacy_ids: x.legacy_ids }),
    ]);
    for (const res of await Promise.all(swaps)) {
      assert.ok(res.status === 200 || (res.status === 409 && res.body.key === 'legacy_id'), `${res.status} ${res.text}`);
    }
  });

  it('the database holds every key once, each naming a user whose fields produce it, and no orphans', async () => {
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const users = await sql<{ uid: string; username: string; email_address: string; legacy_ids: string[]; external_id: string | null }[]>`SELECT uid, username, email_address, legacy_ids, external_id FROM users`;
      const keys = await sql<{ key: string; value: string; uid: string }[]>`SELECT key, value, uid FROM user_keys`;
      const expected = users.flatMap((u) => keysOf(u).map((k) => `${k.key}|${k.value}|${u.uid}`)).sort();
      assert.deepEqual(keys.map((k) => `${k.key}|${k.value}|${k.uid}`).sort(), expected);
      assert.equal(new Set(expected.map((e) => e.split('|').slice(0, 2).join('|'))).size, expected.length, 'no key held twice');
    } finally {
      await sql.end();
    }
  });

  it('read-your-writes: a user created on one instance is found at once on the other by uid and every key', async () => {
    for (let i = 0; i < 20; i++) {
      const [writer, reader] = i % 2 ? [a, b] : [b, a];
      const created = await writer.post('/users', { username: `ryw${i}x${process.pid}`, email_address: `RYW${i}x${process.pid}@example.com`, legacy_ids: [`ryw:${i}:${process.pid}`] });
      assert.equal(created.status, 201, created.text);
      const user = created.body as User;
      const reads = await Promise.all([
        reader.get(`/users/${user.uid}`),
        reader.get(`/users/username:${encodeURIComponent(user.username.toUpperCase())}`),
        reader.get(`/users/email_address:${encodeURIComponent(user.email_address.toLowerCase())}`),
        reader.get(`/users/legacy_id:${encodeURIComponent(user.legacy_ids[0]!)}`),
        reader.get(`/users?legacy_id=${encodeURIComponent(user.legacy_ids[0]!)}`),
      ]);
      for (const read of reads.slice(0, 4)) assert.deepEqual([read.status, read.body], [200, user]);
      assert.deepEqual(reads[4]!.body, [user]);
    }
  });
});

describe('a retry storm across three instances on one PostgreSQL database', skip ? { skip } : {}, () => {
  let db: TestDatabase;
  let instances: StartedChildServer[] = [];
  before(async () => {
    db = await createTestDatabase();
    instances = await Promise.all([0, 1, 2].map(() => startChildServer({ env: { DATABASE_URL: db.url } })));
  });
  after(async () => {
    await Promise.all(instances.map((instance) => instance.dispose()));
    await db?.drop();
  });

  it('the same POST with one Idempotency-Key, 50 times at once: one user, every answer its 201 or a 409 in flight, and a later retry its 201', async () => {
    const body = { username: `storm${Date.now().toString(36)}`, email_address: `storm${process.pid}@example.com` };
    const headers = { 'idempotency-key': `"storm-${process.pid}"` };
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => instances[i % 3]!.post('/users', body, headers)));
    const created = answers.filter((r) => r.status === 201);
    assert.ok(created.length >= 1, answers.map((r) => r.status).join(','));
    for (const answer of answers) {
      if (answer.status === 201) assert.deepEqual(answer.body, created[0]!.body, 'every 201 is the same user');
      else {
        assert.equal(answer.status, 409, answer.text);
        assert.equal(answer.body.type, '/problems/idempotency-key-in-use');
      }
    }
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM users WHERE username = ${body.username}`;
      assert.equal(row?.n, 1, 'exactly one user');
    } finally {
      await sql.end();
    }
    const later = await instances[1]!.post('/users', body, headers);
    assert.equal(later.status, 201);
    assert.deepEqual(later.body, created[0]!.body);
    assert.equal(later.headers['idempotent-replayed'], 'true');
  });
});

