/**
 * Property test, on both stores: for random users (accents, non-Latin scripts,
 * apostrophes, hyphenated and multi-part surnames, facets, inactive users, spread
 * timestamps) and random searches (words cut from their names in other cases and
 * accents, stray punctuation, filters, sorts, page sizes), walking every page through
 * its cursor returns exactly what a plain in-memory filter over the same users returns,
 * in the same order: a username or email address equal to `q` first, then the rest in
 * the sort's order (src/users/search-match.ts states it). The users come in as an import
 * does: a bulk load into the empty directory, whose words and sort indexes are built at
 * its end (src/store/deferred-indexes.ts), then a merge that changes a third of them.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { v7 as uuidv7 } from 'uuid';
import { createTestDatabaseUrl, describeEachStore, type StoreKind, type TestDatabaseUrl } from '../helpers/stores.js';
import { openPostgresUserStore } from '../../src/store/postgres/postgres-user-store.js';
import { openSqliteUserStore } from '../../src/store/sqlite/sqlite-user-store.js';
import { DRIVE_BOUND, INTERSECT_BOUND } from '../../src/store/search-plan.js';
import { createUserService, type UserService } from '../../src/users/user-service.js';
import { withDefaults, type User } from '../../src/users/user.js';
import { compareUsers, matchesSearch } from '../../src/users/search-match.js';
import { parseSearch, WALK_LIMIT } from '../../src/users/user-search.js';
import type { SearchQuery } from '../../src/users/user-schemas.js';
import { canon } from '../../src/users/canonical.js';
import type { UserStore } from '../../src/store/user-store.js';
import type { ImportUser } from '../../src/store/import-plan.js';
import { SORT_FIELDS } from '../../src/users/user-vocabulary.js';

const GIVEN = ['José', 'María José', 'Łukasz', 'Seán', 'Zoë', 'Søren', 'Nguyễn Văn', 'Ана', 'Дмитрий', '小明', 'Ólafur', 'Jose', 'Müge', 'Œdipe', 'Straße', 'İsmail', 'Ἀλέξανδρος'];
const FAMILY = ['García', 'García-López', "O'Brien", 'de la Cruz', 'van der Berg', 'Wójcik', 'Ødegård', "d'Arc", 'Müller', '王', 'Иванова', 'Nguyễn', 'garcia', 'Dvořák', 'Ñúñez'];
const DEPARTMENTS = ['Sales', 'SALES', 'R&D', 'Ventes', 'Développement'];
const TITLES = ['Engineer', 'Manager', 'Ingénieur'];
const PUNCTUATION = ['', ' ', '-', "'", '.', '  ', '%', '_', '*', '"', ' OR ', ' NEAR ', '’'];

/** A variant of a word as someone might type it: another case, or the accents dropped. */
function typed(word: string, mode: number): string {
  if (mode === 1) return word.toUpperCase();
  if (mode === 2) return word.normalize('NFD').replace(/\p{M}/gu, '');
  if (mode === 3) return word.normalize('NFD');
  return word;
}

const userArbitrary = fc.record({
  given: fc.option(fc.constantFrom(...GIVEN), { nil: undefined }),
  family: fc.option(fc.constantFrom(...FAMILY), { nil: undefined }),
  display: fc.option(fc.constantFrom(...GIVEN, ...FAMILY, 'Dr. José García', "Seán O'Brien-Murphy", ''), { nil: null }),
  handle: fc.constantFrom('jgarcia', 'jose.garcia', 'obrien', 'maria_jose', 'ana', 'zoe', 'x'),
  department: fc.option(fc.constantFrom(...DEPARTMENTS), { nil: null }),
  title: fc.option(fc.constantFrom(...TITLES), { nil: null }),
  active: fc.boolean(),
  minute: fc.integer({ min: 0, max: 50 }),
});

type UserRecord = typeof userArbitrary extends fc.Arbitrary<infer R> ? R : never;

function buildUsers(records: UserRecord[]): User[] {
  return records.map((record, i) => {
    const at = new Date(Date.UTC(2026, 0, 1, 0, record.minute, i % 60)).toISOString();
    const name = record.given === undefined && record.family === undefined ? null : { ...(record.given ? { given_name: record.given } : {}), ...(record.family ? { family_name: record.family } : {}) };
    return withDefaults({
      uid: uuidv7(),
      username: `${record.handle}${i}`,
      email_address: `${record.handle}.${i}@example.com`,
      legacy_ids: [],
      display_name: record.display,
      attributes: {},
      name,
      department: record.department,
      title: record.title,
      active: record.active,
      created_at: at,
      updated_at: at,
      version: 1,
    }) as User;
  });
}

const queryArbitrary = (users: User[]) =>
  fc.record({
    q: fc.option(
      fc.oneof(
        // Words cut from a user's names, typed another way, with stray punctuation between them.
        fc.tuple(fc.integer({ min: 0, max: users.length - 1 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 3 }), fc.constantFrom(...PUNCTUATION), fc.boolean()).map(([i, cut, mode, glue, two]) => {
          const user = users[i] as User;
          const words = [user.name?.family_name, user.name?.given_name, user.display_name, user.username].filter((w): w is string => !!w).flatMap((w) => w.split(/[\s-]+/));
          const first = typed((words[0] ?? 'x').slice(0, cut), mode);
          return two && words[1] ? `${first}${glue || ' '}${typed(words[1].slice(0, cut), mode)}` : `${glue}${first}`;
        }),
        // A whole username or email address: ranked first.
        fc.integer({ min: 0, max: users.length - 1 }).map((i) => (i % 2 === 0 ? (users[i] as User).username.toUpperCase() : (users[i] as User).email_address)),
        fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !s.includes('\u0000') && s.trim().length > 0 && s.isWellFormed()),
      ),
      { nil: undefined },
    ),
    department: fc.option(fc.constantFrom(...DEPARTMENTS, 'sales'), { nil: undefined }),
    title: fc.option(fc.constantFrom(...TITLES), { nil: undefined }),
    active: fc.option(fc.constantFrom('true' as const, 'false' as const), { nil: undefined }),
    updated_since: fc.option(fc.integer({ min: 0, max: 50 }).map((m) => new Date(Date.UTC(2026, 0, 1, 0, m)).toISOString()), { nil: undefined }),
    sort: fc.option(
      fc.uniqueArray(fc.constantFrom(...SORT_FIELDS.filter((f) => f !== 'uid')), { minLength: 1, maxLength: 3 }).chain((fields) =>
        fc.tuple(...fields.map((field) => fc.boolean().map((down) => `${down ? '-' : ''}${field}`))).map((keys) => keys.join(',')),
      ),
      { nil: undefined },
    ),
    limit: fc.integer({ min: 1, max: 9 }),
  });

/** What the search must return, from the users in memory. */
function expected(users: User[], query: SearchQuery): User[] {
  const { filter, sort, exact, wordless } = parseSearch(query);
  const others = { ...filter };
  delete others.words;
  const ranked = exact === undefined ? [] : users.filter((u) => (canon(u.username) === exact || canon(u.email_address) === exact) && matchesSearch(u, others)).sort(compareUsers(sort));
  const rest = wordless ? [] : users.filter((u) => !ranked.includes(u) && matchesSearch(u, filter)).sort(compareUsers(sort));
  return [...ranked, ...rest];
}

/** Every page of a search, following its cursors. */
async function walk(service: UserService, query: SearchQuery): Promise<User[]> {
  const found: User[] = [];
  for (let cursor: string | undefined, pages = 0; ; pages++) {
    assert.ok(pages < 2000, 'the walk does not end');
    const page = await service.search({ ...query, ...(cursor === undefined ? {} : { cursor }) });
    found.push(...page.users);
    if (page.nextCursor === undefined) return found;
    cursor = page.nextCursor;
  }
}

/**
 * The store under test with a drive bound (src/store/search-plan.ts): 0 walks every page
 * along the sort's index, the default drives every page of these few users from an index,
 * and 12 mixes both, as a large directory does.
 */
async function openStore(kind: StoreKind, url: string, searchDriveBound: number, searchIntersectBound = INTERSECT_BOUND): Promise<UserStore> {
  const bounds = { searchDriveBound, searchIntersectBound };
  return kind === 'postgres' ? openPostgresUserStore({ url, ...bounds }) : openSqliteUserStore({ path: url.slice('sqlite:'.length), ...bounds });
}

describeEachStore('search: every page equals an in-memory filter over the same users', (kind) => {
  let database: TestDatabaseUrl;
  const stores: UserStore[] = [];
  let users: User[];

  before(async () => {
    database = await createTestDatabaseUrl(kind);
    const loaded = buildUsers(fc.sample(userArbitrary, { numRuns: 160, seed: 2026_11_26 }));
    const store = await openStore(kind, database.databaseUrl, DRIVE_BOUND);
    stores.push(store);
    // A bulk load into the empty directory (load then index: the words and sort indexes built at its end) …
    assert.equal(await store.beginBulkLoad(), true);
    await store.importUsers(loaded, 'fail', new Date().toISOString());
    assert.deepEqual(await store.finishBulkLoad(), { indexes: 9, words: true });
    // … then a merge of 50 of them changed as a monthly HR file changes people (names, display name, department, title, status).
    const changes = fc.sample(userArbitrary, { numRuns: 50, seed: 2026_12_01 }).map((record, i): ImportUser => {
      const user = loaded[i * 3] as User;
      const name = { ...(record.given ? { given_name: record.given } : {}), ...(record.family ? { family_name: record.family } : {}) };
      const given = { display_name: record.display, department: record.department, title: record.title, active: record.active, ...(Object.keys(name).length > 0 ? { name } : {}) };
      return { ...user, ...given, given } as ImportUser;
    });
    const merged = await store.importUsers(changes, 'merge', new Date().toISOString());
    assert.ok(merged.filter((o) => o.status === 'updated').length >= 40, 'most of the merged people changed');
    // The users as stored after both: what every search below must agree with.
    users = await Promise.all(loaded.map(async (user) => (await store.findByKey('uid', user.uid)) as User));
  });

  after(async () => {
    for (const store of stores) await store.close();
    await database?.remove();
  });

  // [drive bound, intersect bound, walk limit]: the defaults; walking only; one condition or two intersected
  // driving most pages; a mix of all three plans, as in a large directory; and walks that end after 7 users
  // read, so most pages end at the walk limit, short or empty, and continue after it.
  for (const [bound, intersect, walkLimit] of [[DRIVE_BOUND, INTERSECT_BOUND, WALK_LIMIT], [0, 0, WALK_LIMIT], [0, 1000, WALK_LIMIT], [12, 40, WALK_LIMIT], [0, 0, 7], [12, 40, 7]] as const) {
    it(`for random searches, walking every page gives the in-memory answer in the same order (drive bound ${bound}, intersect bound ${intersect}, walk limit ${walkLimit})`, async () => {
      const store = await openStore(kind, database.databaseUrl, bound, intersect);
      stores.push(store);
      const service = createUserService({ store, walkLimit });
      await fc.assert(
        fc.asyncProperty(queryArbitrary(users), async (raw) => {
          const query = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])) as SearchQuery;
          const want = expected(users, query).map((u) => u.uid);
          const got = (await walk(service, query)).map((u) => u.uid);
          assert.deepEqual(got, want, JSON.stringify(query));
        }),
        { numRuns: 120, seed: 20261126 + bound + intersect + walkLimit },
      );
    });
  }

  it('a count equals the number of matches', async () => {
    const service = createUserService({ store: stores[0] as UserStore });
    for (const q of ['garcia', 'jo', 'o', 'zzz']) {
      const query = { q, count: 'true' } as SearchQuery;
      const { count } = await service.search(query);
      assert.deepEqual(count, { value: expected(users, query).length, exact: true }, q);
    }
  });
});
