/**
 * docs/api.md, "Search": `q` finds people by any word of their names, username or email
 * local part, accents and case folded, every word required; a username or email
 * address equal to `q` first; filters on the profile, the lifecycle and the timestamps;
 * `sort` with keyset cursors; `count=true`; and hostile text in `q` is text, never
 * syntax and never a 500. A real server on a real port, on both stores.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachStore } from '../helpers/stores.js';
import type { TestResponse } from '../helpers/http-client.js';
import { assertProblem } from '../helpers/problem-assertions.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

interface User {
  uid: string;
  username: string;
  created_at: string;
  [field: string]: unknown;
}

describeEachStore('GET /users: finding people', (store) => {
  let server: TestServer;
  const run = `r${process.pid}${Date.now().toString(36)}`;

  before(async () => {
    server = await startTestServer({ store });
  });

  after(async () => {
    await server?.close();
  });

  async function create(overrides: Record<string, unknown> = {}): Promise<User> {
    const response = await server.post('/users', newUser(overrides));
    assert.equal(response.status, 201, response.text);
    return response.body;
  }

  async function search(query: string): Promise<TestResponse> {
    const response = await server.get(`/users?${query}`);
    assert.equal(response.status, 200, `GET /users?${query}: ${response.text}`);
    return response;
  }

  const uids = (response: TestResponse) => (response.body as User[]).map((user) => user.uid);
  const q = (text: string) => `q=${encodeURIComponent(text)}`;

  describe('words', () => {
    let jose: User;
    let maria: User;
    let sean: User;
    before(async () => {
      jose = await create({ display_name: `José García ${run}`, name: { given_name: 'José', family_name: 'García' } });
      maria = await create({ display_name: `María José García-López ${run}`, name: { given_name: 'María José', family_name: 'García-López' } });
      sean = await create({ username: `sobrien${run}`, display_name: `Seán O'Brien ${run}` });
    });

    for (const typed of ['garcía', 'Garcia', 'GARCÍA', 'gar', 'jose gar', 'José García', 'garc jos', 'gar\u0301cia']) {
      it(`"${typed}" finds José García`, async () => {
        const found = uids(await search(q(`${typed} ${run}`)));
        assert.ok(found.includes(jose.uid), `${typed}: ${found.join(',')}`);
      });
    }

    it('every word must start a word of the user: "jose lopez" finds only María José García-López', async () => {
      assert.deepEqual(uids(await search(q(`jose lopez ${run}`))), [maria.uid]);
    });

    it("an apostrophe is part of the word: obrien and o'brien find Seán O'Brien, brien does not", async () => {
      assert.deepEqual(uids(await search(q(`obrien ${run}`))), [sean.uid]);
      assert.deepEqual(uids(await search(q(`O’Brien ${run}`))), [sean.uid]);
      assert.deepEqual(uids(await search(q(`brien ${run}`))), []);
    });

    it('a username equal to q comes first, then the other matches', async () => {
      const named = await create({ username: `garcia${run}`, display_name: 'Zed' });
      const other = await create({ display_name: `Ana Garcia${run}` });
      const found = uids(await search(q(`garcia${run}`)));
      assert.deepEqual(found, [named.uid, other.uid]);
      // A whole email address is found, though its domain is no word.
      assert.deepEqual(uids(await search(q(named.email_address as string))), [named.uid]);
    });

    it('an upper-case Greek prefix ending in Σ finds its word (ς and σ fold alike)', async () => {
      const greek = await create({ display_name: `ΑΣΤΈΡΙΟΣ Παπάς ${run}` });
      for (const typed of ['ΑΣ', 'ασ', 'ΑΣΤ', 'αστεριος', 'ΠΑΠΑΣ', 'παπας']) assert.deepEqual(uids(await search(q(`${typed} ${run}`))), [greek.uid], typed);
    });

    it('the exact matches are fixed when a walk begins: a user who becomes or stops being one is visited once', async () => {
      const word = `cat${run}`;
      const cats = [];
      for (let i = 0; i < 4; i++) cats.push(await create({ display_name: `${word} n${i}` }));
      const exact = await create({ username: word, display_name: `${word} exact` });
      const visited: string[] = [];
      let next: string | undefined = `/users?${q(word)}&limit=1`;
      for (let page = 0; next !== undefined; page++) {
        const response = await server.get(next);
        assert.equal(response.status, 200, response.text);
        visited.push(...uids(response));
        if (page === 0) {
          assert.deepEqual(uids(response), [exact.uid], 'the exact match first');
          // The exact match stops being one; the last of the others becomes one.
          const patch = (uid: string, body: unknown) => server.request('PATCH', `/users/${uid}`, { body: JSON.stringify(body), headers: { 'content-type': 'application/merge-patch+json' } });
          assert.equal((await patch(exact.uid, { username: `${word}2` })).status, 200);
          assert.equal((await patch(cats[3]!.uid, { username: word })).status, 200);
        }
        next = /<([^>]+)>; rel="next"/.exec(String(response.headers.link ?? ''))?.[1];
      }
      assert.deepEqual(visited, [exact.uid, ...cats.map((u) => u.uid)]);
    });

    it('a user is found as soon as its create is acknowledged, and not once its delete is', async () => {
      const word = `fresh${run}`;
      const user = await create({ display_name: `Nova ${word}` });
      assert.deepEqual(uids(await search(q(word))), [user.uid]);
      assert.equal((await server.delete(`/users/${user.uid}`)).status, 204);
      assert.deepEqual(uids(await search(q(word))), []);
      const renamed = await create({ display_name: `Old ${word}x` });
      assert.equal((await server.request('PATCH', `/users/${renamed.uid}`, { body: JSON.stringify({ display_name: 'Brand New' }), headers: { 'content-type': 'application/merge-patch+json' } })).status, 200);
      assert.deepEqual(uids(await search(q(`${word}x`))), []);
    });
  });

  describe('filters, sorting and counts', () => {
    const people: User[] = [];
    before(async () => {
      const families = ['Zapata', 'alvarez', 'Álvarez', 'Young', 'Müller', 'ming'];
      for (const [i, family] of families.entries()) {
        people.push(
          await create({
            display_name: `${family} ft${run}`,
            name: { family_name: family, given_name: `G${i}` },
            department: i % 2 === 0 ? 'Sales' : 'R&D',
            title: i === 3 ? 'CEO' : 'Engineer',
            employee_number: `E-${run}-${i}`,
            manager: i > 0 ? { value: 'boss-1' } : null,
            active: i !== 4,
            external_id: `ext-${run}-${i}`,
            legacy_ids: [`leg-${run}-${i}`],
          }),
        );
      }
    });

    const scoped = (query: string) => `${q(`ft${run}`)}&${query}`;

    it('filters by a facet, case-insensitively, combined with AND', async () => {
      assert.deepEqual(uids(await search(scoped('department=sales'))), [people[0], people[2], people[4]].map((u) => u!.uid));
      assert.deepEqual(uids(await search(scoped('department=SALES&title=engineer'))), [people[0], people[2], people[4]].map((u) => u!.uid));
      assert.deepEqual(uids(await search(scoped('title=CEO'))), [people[3]!.uid]);
      assert.deepEqual(uids(await search(`employee_number=${encodeURIComponent(`e-${run}-5`)}`)), [people[5]!.uid]);
      assert.equal(uids(await search(scoped('manager=boss-1'))).length, 5);
    });

    it('filters by active, external_id and legacy_id', async () => {
      assert.deepEqual(uids(await search(scoped('active=false'))), [people[4]!.uid]);
      assert.deepEqual(uids(await search(`external_id=ext-${run}-2`)), [people[2]!.uid]);
      assert.deepEqual(uids(await search(`legacy_id=leg-${run}-1&active=true`)), [people[1]!.uid]);
    });

    it('filters by created and updated instants: updated_since for delta syncs', async () => {
      const since = people[3]!.created_at;
      assert.deepEqual(uids(await search(scoped(`created_after=${since}`))), people.slice(3).map((u) => u.uid));
      assert.deepEqual(uids(await search(scoped(`created_before=${since}`))), people.slice(0, 3).map((u) => u.uid));
      const patched = await server.request('PATCH', `/users/${people[1]!.uid}`, { body: JSON.stringify({ title: 'Lead' }), headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(patched.status, 200);
      const changed = (patched.body as User).updated_at as string;
      assert.deepEqual(uids(await search(scoped(`updated_since=${encodeURIComponent(changed)}`))), [people[1]!.uid]);
      assert.deepEqual(uids(await search(scoped(`updated_since=${encodeURIComponent(changed.replace('Z', '+00:00'))}`))), [people[1]!.uid]);
    });

    it('sorts by family name, folded, ties by uid; descending; and walks every page of a sort once', async () => {
      const byFamily = (await search(scoped('sort=family_name'))).body as User[];
      assert.deepEqual(
        byFamily.map((u) => (u.name as { family_name: string }).family_name),
        ['alvarez', 'Álvarez', 'ming', 'Müller', 'Young', 'Zapata'],
      );
      const down = (await search(scoped('sort=-family_name,given_name'))).body as User[];
      assert.deepEqual(down.map((u) => (u.name as { family_name: string }).family_name).slice(0, 2), ['Zapata', 'Young']);
      const walked: string[] = [];
      let next: string | undefined = `/users?${scoped('sort=-family_name,given_name&limit=2')}`;
      while (next !== undefined) {
        const page = await server.get(next);
        assert.equal(page.status, 200, page.text);
        walked.push(...uids(page));
        next = /<([^>]+)>; rel="next"/.exec(String(page.headers.link ?? ''))?.[1];
      }
      // Álvarez and alvarez fold alike: the given name orders them.
      const f = (u: User) => (u.name as { family_name: string }).family_name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
      const g = (u: User) => (u.name as { given_name: string }).given_name;
      const expected = [...people].sort((a, b) => (f(a) !== f(b) ? (f(a) < f(b) ? 1 : -1) : g(a) < g(b) ? -1 : 1));
      assert.deepEqual(walked, expected.map((u) => u.uid));
    });

    it('refuses a cursor reused with another sort, and sorts it does not know', async () => {
      const first = await search(scoped('sort=family_name&limit=1'));
      const cursor = /cursor=([^&>]+)/.exec(String(first.headers.link))?.[1];
      assert.ok(cursor);
      assertProblem(await server.get(`/users?${scoped(`sort=given_name&limit=1&cursor=${cursor}`)}`), 400, 'invalid-query');
      for (const sort of ['password', 'family_name,family_name', 'uid', ',', 'a,b,c,d', '-', 'family_name,-family_name', 'username,email_address']) {
        assertProblem(await server.get(`/users?sort=${encodeURIComponent(sort)}`), 400, 'invalid-query');
      }
    });

    it('count=true gives Total-Count, exact for a small match', async () => {
      const response = await search(scoped('count=true&department=sales&limit=1'));
      assert.equal(response.headers['total-count'], '3');
      assert.equal((response.body as User[]).length, 1);
      assert.equal((await search(scoped('department=sales'))).headers['total-count'], undefined);
    });

    it('refuses instants that are not RFC 3339, not real, leap seconds, or outside the years 0001–9999', async () => {
      const bad = ['yesterday', '2026-02-30T00:00:00Z', '2026-01-01', '2026-01-01T25:00:00Z', '1e3', '2026-01-01T00:00:00', '2016-12-31T23:59:60Z'];
      bad.push('0000-01-01T00:00:00Z', '9999-12-31T23:59:59-01:00', '0001-01-01T00:30:00+01:00', '2026-01-01T00:00:00+24:00');
      for (const instant of bad) {
        for (const parameter of ['updated_since', 'created_after', 'created_before']) {
          assertProblem(await server.get(`/users?${parameter}=${encodeURIComponent(instant)}`), 400, 'invalid-query');
        }
      }
      for (const good of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '2026-01-31t12:00:00z', '0004-02-29T00:00:00Z']) {
        assert.equal((await server.get(`/users?updated_since=${encodeURIComponent(good)}&limit=1`)).status, 200, good);
      }
    });

    it('a bound finer than the millisecond selects exactly the users it names', async () => {
      const at = people[2]!.created_at;
      const finer = at.replace('Z', '999Z');
      assert.ok(!uids(await search(scoped(`created_after=${encodeURIComponent(finer)}`))).includes(people[2]!.uid), 'created before the bound');
      assert.ok(uids(await search(scoped(`created_before=${encodeURIComponent(finer)}`))).includes(people[2]!.uid), 'created before the bound');
      const exact = at.replace('Z', '000Z');
      assert.ok(uids(await search(scoped(`created_after=${encodeURIComponent(exact)}`))).includes(people[2]!.uid), 'at the bound');
    });
  });

  describe('hostile text in q is text', () => {
    for (const text of ['%', '_', '*', '%%', "'", '"', '"garcía"', 'NEAR(a b)', 'a OR b', 'a AND b', '-garcia', 'gar*', '\\', '^', '$1', ':', 'a:b', '{}', '[a-z]', '; DROP TABLE users; --', '\u202e', '🙂', 'ｇａｒ']) {
      it(`q=${JSON.stringify(text)} answers 200`, async () => {
        const response = await server.get(`/users?${q(text)}&limit=5`);
        assert.equal(response.status, 200, response.text);
        assert.ok(Array.isArray(response.body));
      });
    }

    it('a 512-character word finds nothing; a longer q is a 400 naming q; 17 distinct words are a 400 that says why', async () => {
      const response = await server.get(`/users?${q('a'.repeat(512))}`);
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(response.body, []);
      const tooLong = await server.get(`/users?${q('a'.repeat(10_000))}`);
      assertProblem(tooLong, 400, 'invalid-query');
      assert.deepEqual(tooLong.body.errors.map((e: { parameter: string }) => e.parameter), ['q']);
      const words = Array.from({ length: 17 }, (_, i) => `w${i}`).join(' ');
      const refused = await server.get(`/users?${q(words)}`);
      assertProblem(refused, 400, 'invalid-query');
      assert.match(refused.text, /more than 16 distinct words/);
    });

    it('a q of punctuation only matches no word', async () => {
      for (const text of ['%', '...', ' - ']) assert.deepEqual((await search(q(text))).body, []);
    });
  });
});
