/**
 * CONTRACT §1 and §5: uniqueness is enforced by the store inside one transaction,
 * so concurrent writers racing for one key get exactly one success and 409s naming
 * the key, and no interleaving of creates, updates and deletes ever leaves a key
 * held by two users. Runs against a real server on a real port.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachStore } from '../helpers/stores.js';
import type { TestResponse } from '../helpers/http-client.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

describeEachStore('Concurrent writers', (store) => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ store });
  });

  after(async () => {
    await server?.close();
  });

  interface User {
    uid: string;
    username: string;
    email_address: string;
    legacy_ids: string[];
    version: number;
  }

  function assertConflict(response: TestResponse, key: string, holderUid: string): void {
    assert.equal(response.status, 409, `expected 409, got ${response.status} ${response.text}`);
    assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
    assert.equal(response.body.key, key);
    assert.ok(!response.text.includes(holderUid), 'a 409 must not reveal the uid of the holder');
  }

  function statuses(responses: TestResponse[]): Record<number, number> {
    const counts: Record<number, number> = {};
    for (const response of responses) counts[response.status] = (counts[response.status] ?? 0) + 1;
    return counts;
  }

  /** A small deterministic PRNG (mulberry32), so a failing storm can be replayed. */
  function prng(seed: number): () => number {
    return () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  describe('concurrent writers racing for one key', () => {
    it('gives exactly one 201 and 39 409s naming username to 40 concurrent POSTs of one username in case and width variants', async () => {
      const variants = ['race', 'RACE', 'Race', 'rAcE', 'Ｒａｃｅ', 'ｒａｃｅ', 'ＲＡＣＥ', 'raCE'];
      const responses = await Promise.all(
        Array.from({ length: 40 }, (_, i) => server.post('/users', newUser({ username: variants[i % variants.length] }))),
      );
      assert.deepEqual(statuses(responses), { 201: 1, 409: 39 }, responses.map((r) => `${r.status} ${r.text}`).join('\n'));
      const winner = responses.find((response) => response.status === 201)!.body as User;
      for (const response of responses) if (response.status === 409) assertConflict(response, 'username', winner.uid);

      const holders = await server.get('/users?username=RACE');
      assert.equal(holders.status, 200);
      assert.deepEqual(holders.body.map((user: User) => user.uid), [winner.uid]);
      for (const variant of variants) {
        const lookup = await server.get(`/users/username:${encodeURIComponent(variant)}`);
        assert.equal(lookup.body?.uid, winner.uid, `username:${variant} must find the one holder`);
      }
    });

    it('gives exactly one 200 and 39 409s naming email_address to 40 concurrent PUTs of different users onto one email address', async () => {
      const created = await Promise.all(Array.from({ length: 40 }, () => server.post('/users', newUser())));
      const users = created.map((response) => {
        assert.equal(response.status, 201, response.text);
        return response.body as User;
      });
      const variants = ['Shared@Example.com', 'shared@example.com', 'SHARED@EXAMPLE.COM', 'ｓｈａｒｅｄ@example.com', 'sHaReD@eXaMpLe.CoM'];
      const responses = await Promise.all(
        users.map((user, i) => server.put(`/users/${user.uid}`, { username: user.username, email_address: variants[i % variants.length] })),
      );
      assert.deepEqual(statuses(responses), { 200: 1, 409: 39 }, responses.map((r) => `${r.status} ${r.text}`).join('\n'));
      const winner = responses.find((response) => response.status === 200)!.body as User;
      for (const response of responses) if (response.status === 409) assertConflict(response, 'email_address', winner.uid);

      const holders = await server.get(`/users?email_address=${encodeURIComponent('SHARED@example.COM')}`);
      assert.deepEqual(holders.body.map((user: User) => user.uid), [winner.uid]);
      // A refused write changed nothing: the losers keep their own address and version.
      for (const user of users.filter((u) => u.uid !== winner.uid)) {
        const read = await server.get(`/users/${user.uid}`);
        assert.equal(read.body.email_address, user.email_address);
        assert.equal(read.body.version, 1);
      }
    });
  });

  describe('a storm of creates, updates and deletes competing for a few legacy ids', () => {
    it('answers without 5xx and leaves every key held by at most one user, found by lookup', async () => {
      const random = prng(20261121);
      const pool = Array.from({ length: 6 }, (_, i) => `storm:${i}`);
      const pick = () => pool.filter(() => random() < 0.3).slice(0, 3);
      const seeded: User[] = [];
      for (let i = 0; i < 8; i++) {
        const response = await server.post('/users', newUser({ legacy_ids: i < 3 ? [pool[i]] : [] }));
        assert.equal(response.status, 201, response.text);
        seeded.push(response.body);
      }
      const kinds: string[] = [];
      const operations: Array<Promise<TestResponse>> = [];
      for (let i = 0; i < 120; i++) {
        const roll = random();
        const target = seeded[Math.floor(random() * seeded.length)]!;
        if (roll < 0.5) {
          kinds.push('create');
          operations.push(server.post('/users', newUser({ legacy_ids: pick() })));
        } else if (roll < 0.85) {
          kinds.push('update');
          operations.push(server.put(`/users/${target.uid}`, { ...newUser(), legacy_ids: pick() }));
        } else {
          kinds.push('delete');
          operations.push(server.delete(`/users/${target.uid}`));
        }
      }
      const responses = await Promise.all(operations);
      const allowed: Record<string, number[]> = { create: [201, 409], update: [200, 404, 409], delete: [204, 404] };
      responses.forEach((response, i) => {
        const kind = kinds[i]!;
        assert.ok(allowed[kind]!.includes(response.status), `${kind} #${i} answered ${response.status} ${response.text}`);
        if (response.status === 409) assert.equal(response.body.key, 'legacy_id', response.text);
      });
      assert.ok(responses.some((r) => r.status === 409), 'the storm should have produced conflicts');

      const listed = await server.get('/users?limit=1000');
      assert.equal(listed.status, 200);
      const survivors = listed.body as User[];
      const holders = new Map<string, string>();
      for (const user of survivors) {
        const keys = [`username:${user.username.toLowerCase()}`, `email_address:${user.email_address.toLowerCase()}`, ...user.legacy_ids.map((id) => `legacy_id:${id}`)];
        for (const key of keys) {
          assert.equal(holders.get(key), undefined, `${key} is held by ${holders.get(key)} and ${user.uid}`);
          holders.set(key, user.uid);
          const lookup = await server.get(`/users/${key.slice(0, key.indexOf(':') + 1)}${encodeURIComponent(key.slice(key.indexOf(':') + 1))}`);
          assert.equal(lookup.status, 200, `lookup ${key}: ${lookup.text}`);
          assert.equal(lookup.body.uid, user.uid, `lookup ${key} finds another user`);
        }
      }
      // Legacy ids no survivor holds are free: their lookup is a 404.
      for (const legacyId of pool.filter((id) => !holders.has(`legacy_id:${id}`))) {
        assert.equal((await server.get(`/users/legacy_id:${encodeURIComponent(legacyId)}`)).status, 404);
      }
    });
  });
});
