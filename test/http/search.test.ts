/**
 * CONTRACT §4: `GET /users?{params}` returns a JSON array; filters combine with AND;
 * keyset paging in uid order through `Link: <…>; rel="next"` visits every matching
 * user exactly once, also while users are created and deleted; bad parameters and
 * cursors the service did not issue are 400 problems.
 *
 * Query values are percent-encoded with encodeURIComponent. A literal '+' must be
 * sent as %2B: in a query string (application/x-www-form-urlencoded) a bare '+'
 * reads as a space.
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
  [field: string]: unknown;
}

describeEachStore('GET /users (search)', (store) => {
  let server: TestServer;

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

  async function createMany(count: number, overrides: (i: number) => Record<string, unknown>): Promise<User[]> {
    const users: User[] = [];
    for (let i = 0; i < count; i += 25) {
      users.push(...(await Promise.all(Array.from({ length: Math.min(25, count - i) }, (_, j) => create(overrides(i + j))))));
    }
    return users;
  }

  async function search(query: string): Promise<TestResponse> {
    const response = await server.get(`/users?${query}`);
    assert.equal(response.status, 200, `GET /users?${query}: ${response.text}`);
    assert.ok(Array.isArray(response.body), `GET /users?${query} must answer an array`);
    return response;
  }

  const byUid = (users: User[]) => [...users].sort((a, b) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));

  async function assertInvalidQuery(query: string): Promise<void> {
    const response = await server.get(`/users?${query}`);
    assertProblem(response, 400, 'invalid-query');
    assert.equal(response.body.instance, '/users', `GET /users?${query}`);
  }

  /** The target of the first link with relation type `next` (RFC 8288 §3: quoted or token values, several relation types). */
  function nextLink(header: string | string[] | undefined): string | undefined {
    const text = Array.isArray(header) ? header.join(', ') : header ?? '';
    let i = 0;
    const skip = (chars: string) => {
      while (i < text.length && chars.includes(text[i]!)) i++;
    };
    while (i < text.length) {
      skip(' \t,');
      if (text[i] !== '<') return undefined;
      const end = text.indexOf('>', i);
      if (end === -1) return undefined;
      const target = text.slice(i + 1, end);
      i = end + 1;
      const rels: string[] = [];
      for (skip(' \t'); text[i] === ';'; skip(' \t')) {
        i++;
        skip(' \t');
        const name = /^[^=;,\s]+/.exec(text.slice(i))?.[0] ?? '';
        i += name.length;
        skip(' \t');
        let value = '';
        if (text[i] === '=') {
          i++;
          skip(' \t');
          const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(text.slice(i));
          const token = quoted ? quoted[0] : (/^[^;,\s]*/.exec(text.slice(i))?.[0] ?? '');
          value = quoted ? quoted[1]!.replace(/\\(.)/g, '$1') : token;
          i += token.length;
        }
        if (name.toLowerCase() === 'rel') rels.push(...value.toLowerCase().split(/\s+/));
      }
      if (rels.includes('next')) return target;
    }
    return undefined;
  }

  /** Follows `next` links from `/users?query`, checking that each link is same-origin `/users` and keeps the filters. */
  async function walk(query: string, onPage?: (page: User[]) => Promise<void>): Promise<{ visited: User[]; pages: User[][] }> {
    const filters = [...new URLSearchParams(query)];
    const pages: User[][] = [];
    let path: string | undefined = `/users?${query}`;
    while (path !== undefined) {
      assert.ok(pages.length < 500, 'the walk does not end');
      const response = await server.get(path);
      assert.equal(response.status, 200, `${path}: ${response.text}`);
      pages.push(response.body);
      const next = nextLink(response.headers.link);
      path = undefined;
      if (next !== undefined) {
        const url = new URL(next, server.baseUrl);
        assert.equal(url.origin, server.baseUrl, `next link ${next} leaves the service`);
        assert.equal(url.pathname, '/users');
        for (const [name, value] of filters) assert.equal(url.searchParams.get(name), value, `next link ${next} lost ${name}`);
        assert.ok(url.searchParams.get('cursor'), `next link ${next} has no cursor`);
        path = url.pathname + url.search;
        if (onPage) await onPage(response.body);
      }
    }
    return { visited: pages.flat(), pages };
  }

  function assertVisitedOnceInUidOrder(visited: User[]): void {
    const uids = visited.map((user) => user.uid);
    assert.equal(new Set(uids).size, uids.length, 'a user was visited twice');
    assert.deepEqual(uids, [...uids].sort(), 'users were not visited in uid order');
  }

  describe('search results', () => {
    it('answers an empty array with Cache-Control: no-cache when the directory is empty or nothing matches', async () => {
      for (const query of ['', `username=${encodeURIComponent('nobody-here')}`]) {
        const response = await search(query);
        assert.deepEqual(response.body, []);
        assert.equal(response.headers['cache-control'], 'no-cache');
        assert.match(String(response.headers['content-type']), /^application\/json/);
      }
    });

    describe('filters', () => {
      const u: Record<string, User> = {};
      before(async () => {
        u.alice = await create({ username: 'Alice', email_address: 'Alice.Liddell+news@Example.com', legacy_ids: ['A-1', 'crm:77'], display_name: 'Alice Liddell' });
        u.alicia = await create({ username: 'alicia', email_address: 'alicia@example.org', legacy_ids: ['a-1'], display_name: 'Zed Zulu' });
        u.bob = await create({ username: 'bob', email_address: 'bob@example.com', legacy_ids: ['B-2'], display_name: 'Alison Bob' });
        u.carol = await create({ username: 'carol', email_address: 'ALIce.b@example.net' });
        u.dave = await create({ username: 'dave', email_address: 'dave@example.com', legacy_ids: ['alice'], display_name: 'Dave' });
      });

      const cases: Array<[string, string, string[]]> = [
        ['username, case-insensitively', 'username=ALICE', ['alice']],
        ['username, across widths', `username=${encodeURIComponent('Ａｌｉｃｅ')}`, ['alice']],
        ['username, exactly rather than by prefix', 'username=ali', []],
        ['email_address, case-insensitively (+ sent as %2B)', `email_address=${encodeURIComponent('alice.liddell+news@example.COM')}`, ['alice']],
        ['legacy_id, exactly', 'legacy_id=A-1', ['alice']],
        ['legacy_id, case-sensitively', 'legacy_id=a-1', ['alicia']],
        ['legacy_id holding a colon', `legacy_id=${encodeURIComponent('crm:77')}`, ['alice']],
        ['q, as a case-insensitive start of a word of the username, email local part or display name', 'q=ALI', ['alice', 'alicia', 'bob', 'carol']],
        ['q, every word the start of one of the words', `q=${encodeURIComponent('zed z')}`, ['alicia']],
        ['q, any word of the display name', 'q=liddell', ['alice']],
        ['q, never in the middle of a word', 'q=iddell', []],
        ['q, never the domain of the email address', 'q=example', []],
        ['q AND legacy_id', 'q=ali&legacy_id=a-1', ['alicia']],
        ['q AND email_address', `q=ali&email_address=${encodeURIComponent('BOB@example.com')}`, ['bob']],
        ['username AND legacy_id of another user', 'username=alice&legacy_id=a-1', []],
      ];
      for (const [what, query, expected] of cases) {
        it(`filters by ${what}: ?${query}`, async () => {
          const response = await search(query);
          assert.deepEqual(response.body, byUid(expected.map((name) => u[name]!)));
          assert.equal(response.headers['cache-control'], 'no-cache');
        });
      }
    });
  });

  describe('search parameters', () => {
    for (const limit of ['0', '1001', '-1', '1.5', 'abc', '']) {
      it(`refuses limit=${limit} with a 400 invalid-query problem`, () => assertInvalidQuery(`limit=${limit}`));
    }
    for (const query of ['foo=1', 'username=a&username=b', 'q=', 'username=', 'legacy_id=', 'cursor=']) {
      it(`refuses ?${query} (unknown, repeated or empty parameter) with a 400`, () => assertInvalidQuery(query));
    }
    for (const query of ['q=%00', 'username=a%00b', 'email_address=a%00%40b.com', 'legacy_id=x%00', 'cursor=%00']) {
      it(`refuses U+0000 in a parameter: ?${query}`, () => assertInvalidQuery(query));
    }
    // docs/api.md: a query parameter that is not valid percent-encoded UTF-8 is a 400.
    for (const query of ['legacy_id=%zz', 'q=%ED%A0%80', 'q=%E0%A4', 'username=abc%', 'q=a&legacy_id=%zz', '%zz=1']) {
      it(`refuses malformed percent-encoding: ?${query}`, () => assertInvalidQuery(query));
    }
    for (const query of ['&&', '&', 'username=a&&limit=2', 'username=a&', '=a']) {
      it(`refuses an empty pair or parameter name: ?${query}`, () => assertInvalidQuery(query));
    }

    it('searches for the literal %zz when it is sent correctly encoded as %25zz', async () => {
      const user = await create({ legacy_ids: ['%zz'], display_name: '%zz literal' });
      const plain = await create({ legacy_ids: ['zz'], display_name: 'zz plain' });
      assert.deepEqual((await search('legacy_id=%25zz')).body, [user]);
      // In q, % is text that separates words, never a wildcard: both have the word zz.
      assert.deepEqual((await search('q=%25zz')).body, byUid([user, plain]));
    });
  });

  describe('paging', () => {
    let pageUsers: User[];
    before(async () => {
      // 250 users matching q=page, by username, email address or display name; 20 that do not.
      pageUsers = await createMany(250, (i) =>
        i % 3 === 0 ? { username: `Page_${i}` } : i % 3 === 1 ? { email_address: `PAGE.${i}@example.com` } : { display_name: `Paged person ${i}` },
      );
      await createMany(20, () => ({}));
    });

    it('returns 100 users by default, and 1 or 1000 when asked', async () => {
      const byDefault = await search('q=page');
      assert.equal(byDefault.body.length, 100);
      assert.ok(nextLink(byDefault.headers.link), 'more users follow, so a next link is expected');
      assert.equal((await search('q=page&limit=1')).body.length, 1);
      const all = await search('q=page&limit=1000');
      assert.deepEqual(all.body, byUid(pageUsers));
      assert.equal(nextLink(all.headers.link), undefined);
    });

    it('visits every matching user exactly once in uid order by following next links, and the last page has none', async () => {
      const { visited, pages } = await walk('q=page&limit=40');
      assert.deepEqual(pages.map((page) => page.length), [40, 40, 40, 40, 40, 40, 10]);
      assertVisitedOnceInUidOrder(visited);
      assert.deepEqual(visited, byUid(pageUsers));
    });

    it('keeps a filter holding + and a space in the next link', async () => {
      const plus = await createMany(3, (i) => ({ username: `plx+usx${i}`, display_name: `plx+usx ${i}` }));
      const { visited, pages } = await walk(`q=${encodeURIComponent('plx+usx')}&limit=1`);
      assert.equal(pages.length, 3);
      assert.deepEqual(visited, byUid(plus));
      assert.equal((await walk(`q=${encodeURIComponent('plx+usx 1')}&limit=1`)).visited.length, 1);
    });

    it('visits users that exist throughout exactly once while others are deleted and created during the walk', async () => {
      const initial = await createMany(120, (i) => ({ username: `walk_${i}` }));
      const deleted = new Set<string>();
      const seen = new Set<string>();
      const { visited } = await walk('q=walk&limit=15', async (page) => {
        for (const user of page) {
          assert.ok(!deleted.has(user.uid), `${user.uid} was visited after its deletion`);
          seen.add(user.uid);
        }
        const last = page[page.length - 1]!.uid;
        const victims = initial.filter((user) => user.uid > last && !deleted.has(user.uid)).slice(0, 3);
        const writes = victims.map(async (user) => {
          const response = await server.delete(`/users/${user.uid}`);
          assert.equal(response.status, 204, response.text);
          deleted.add(user.uid);
        });
        await Promise.all([...writes, create({ username: `walk_new_${seen.size}` }), create({ display_name: `Walker ${seen.size}` })]);
      });
      assert.ok(deleted.size > 0);
      assertVisitedOnceInUidOrder(visited);
      const visitedUids = new Set(visited.map((user) => user.uid));
      for (const user of initial) {
        if (deleted.has(user.uid)) assert.ok(!visitedUids.has(user.uid), `deleted ${user.uid} was visited`);
        else assert.ok(visitedUids.has(user.uid), `${user.uid} existed throughout but was not visited`);
      }
    });
  });

  describe('cursors', () => {
    let cursor: string;
    before(async () => {
      await createMany(3, (i) => ({ username: `cur_${i}` }));
      const link = nextLink((await search('q=cur&limit=1')).headers.link);
      assert.ok(link, 'a next link is expected');
      cursor = new URL(link, server.baseUrl).searchParams.get('cursor')!;
    });

    it('accepts the cursor it issued with the same filters', async () => {
      assert.equal((await search(`q=cur&limit=1&cursor=${encodeURIComponent(cursor)}`)).body.length, 1);
    });

    it('refuses made-up cursors with a 400', async () => {
      for (const forged of ['abc', 'AAAA', '!!!', 'x'.repeat(cursor.length), 'A'.repeat(cursor.length), `${cursor}A`, cursor.slice(1)]) {
        await assertInvalidQuery(`q=cur&limit=1&cursor=${encodeURIComponent(forged)}`);
      }
    });

    it('refuses a cursor with any one character changed with a 400', async () => {
      for (let i = 0; i < cursor.length; i++) {
        const tampered = cursor.slice(0, i) + (cursor[i] === 'A' ? 'B' : 'A') + cursor.slice(i + 1);
        await assertInvalidQuery(`q=cur&limit=1&cursor=${encodeURIComponent(tampered)}`);
      }
    });

    it('refuses a cursor reused with different filters with a 400', async () => {
      for (const filters of ['q=cu', 'q=cur&username=cur_1', 'username=cur_0', '']) {
        await assertInvalidQuery(`${filters}${filters ? '&' : ''}limit=1&cursor=${encodeURIComponent(cursor)}`);
      }
    });
  });
});
