/**
 * Every search shape of the benchmark (docs/performance.md, "Search") is read with
 * EXPLAIN on both stores, over 20,000 users with the planner's statistics gathered (as an
 * import leaves them): no plan reads the users table, or the word index, from end to end.
 * A driven page reads its driver's entries, then users by primary key; a walked page
 * reads the sort's index from the keyset on. The drive bound is lowered to 1,000 so these
 * users give both kinds of page, as a million users do with the default bound.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import Database from 'better-sqlite3';
import postgres from 'postgres';
import { v7 as uuidv7 } from 'uuid';
import { createTestDatabaseUrl, describeEachStore, type StoreKind, type TestDatabaseUrl } from '../helpers/stores.js';
import { openPostgresUserStore } from '../../src/store/postgres/postgres-user-store.js';
import { openSqliteUserStore } from '../../src/store/sqlite/sqlite-user-store.js';
import { postgresSearch } from '../../src/store/postgres/postgres-search.js';
import { sqliteSearch } from '../../src/store/sqlite/sqlite-search.js';
import { WALK_LIMIT } from '../../src/users/user-search.js';
import { connectionReads } from '../../src/store/sqlite/sqlite-reads.js';
import { parseSearch } from '../../src/users/user-search.js';
import { withDefaults, type User } from '../../src/users/user.js';
import type { SearchPage } from '../../src/store/user-store.js';
import { COUNT_BOUND, type SearchQuery } from '../../src/users/user-schemas.js';

const USERS = 20_000;
const BOUND = 1000;
const FAMILY = ['García', 'Smith', 'Müller', "O'Brien", 'Nguyễn', 'Kowalski', 'Rossi', 'Dubois', 'Tanaka', 'Silva'];
const GIVEN = ['José', 'Anna', 'Łukasz', 'Maria', 'Seán', 'Chen', 'Fatima', 'Olga', 'Pierre', 'Zoë'];

function user(i: number): User {
  const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  const given = GIVEN[i % GIVEN.length] as string;
  // García for one user in ten; a rare family name for one in a thousand.
  const family = i % 1000 === 7 ? `Quixley${i % 3}` : (FAMILY[(i * 7) % FAMILY.length] as string);
  return withDefaults({
    uid: uuidv7(),
    username: `${given}.${family}.${i}`.replace(/[^A-Za-z0-9.]/g, 'x'),
    email_address: `user${i}@example.com`,
    legacy_ids: [],
    display_name: `${given} ${family}`,
    attributes: {},
    name: { given_name: given, family_name: family },
    department: i % 500 === 3 ? 'Legal' : i % 3 === 0 ? 'Sales' : 'Engineering',
    title: 'Engineer',
    active: i % 200 !== 5,
    created_at: at,
    updated_at: at,
    version: 1,
  }) as User;
}

/** The benchmark's shapes, as GET /users parameters. */
const SHAPES: Record<string, SearchQuery> = {
  'one letter': { q: 'j' },
  'a common prefix': { q: 'garc' },
  'a rare prefix': { q: 'quixley1' },
  'two words': { q: 'jose gar' },
  'no match': { q: 'zzzzq' },
  'a filtered and sorted page': { department: 'Sales', sort: 'family_name' },
  'a rare filter, sorted': { department: 'Legal', sort: '-created_at' },
  'q and a filter, sorted': { q: 'anna', department: 'sales', sort: 'given_name,-updated_at' },
  'changed since': { updated_since: new Date(Date.UTC(2026, 0, 1) + (USERS - 50) * 60_000).toISOString() },
  'the deactivated': { active: 'false' },
  'sorted by family name, descending': { sort: '-family_name' },
  'a unique key': { username: 'jose.garcia.0' },
};

const pageOf = (query: SearchQuery, after?: { uid: string; values: string[] }): SearchPage => {
  const { filter, sort } = parseSearch(query);
  // As the service asks: a walked page reads at most a walk limit of users (WALK_LIMIT, a hundredth of a
  // million; a twentieth of these users, so the planners weigh the walk as they do on a large directory).
  return { filter, sort, limit: 21, walkLimit: Math.min(WALK_LIMIT, USERS / 20), ...(after === undefined ? {} : { after: after.uid, afterValues: after.values }) };
};

/** Plans that read a whole table: SQLite's `SCAN <table>` without an index, PostgreSQL's Seq Scan. */
function assertNoFullScan(kind: StoreKind, plan: string, shape: string): void {
  // A walk's inner page (reading `users`) is a co-routine named `u`: `SCAN u` then reads its bounded output, not the table.
  const table = /^CO-ROUTINE u$/m.test(plan) ? '(users|user_terms)' : '(u|users|user_terms)';
  if (kind === 'sqlite') assert.doesNotMatch(plan, new RegExp(`^SCAN ${table}$`, 'm'), `${shape}: a full scan\n${plan}`);
  else assert.doesNotMatch(plan, /Seq Scan on (users|user_terms|user_keys|user_emails)/, `${shape}: a sequential scan\n${plan}`);
}

/** Shapes a condition naming at most BOUND entries drives, whatever the statistics. */
const DRIVEN = new Set(['a rare prefix', 'no match', 'a rare filter, sorted', 'changed since', 'the deactivated', 'a unique key']);

for (const analyzed of [true, false]) {
describeEachStore(`search plans: no search shape scans the users (${analyzed ? 'statistics gathered' : 'no statistics since the tables were empty'})`, (kind) => {
  // SQLite gathers none either way (refreshStatistics() does nothing there).
  if (!analyzed && kind === 'sqlite') return;
  let database: TestDatabaseUrl;
  let explain: (page: SearchPage, count?: boolean) => Promise<string>;
  let close: () => Promise<void>;

  before(async () => {
    database = await createTestDatabaseUrl(kind);
    const store = kind === 'postgres' ? await openPostgresUserStore({ url: database.databaseUrl }) : openSqliteUserStore({ path: database.databaseUrl.slice('sqlite:'.length) });
    const users = Array.from({ length: USERS }, (_, i) => user(i));
    for (let i = 0; i < USERS; i += 2000) await store.importUsers(users.slice(i, i + 2000), 'fail', new Date().toISOString());
    if (analyzed) await store.refreshStatistics();
    await store.close();
    if (kind === 'sqlite') {
      const db = new Database(database.databaseUrl.slice('sqlite:'.length), { readonly: true });
      const search = sqliteSearch(connectionReads(db), BOUND);
      explain = async (page, count) => {
        const driver = await search.driverOf(page.filter, count ? COUNT_BOUND : BOUND);
        if (count && driver === undefined) return '(estimated from a sample)';
        const { sql, params } = count ? search.countQuery(page.filter, driver) : search.pageQuery(page, driver);
        return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail).join('\n');
      };
      close = async () => {
        db.close();
      };
    } else {
      const sql = postgres(database.databaseUrl, { max: 1, onnotice: () => {} });
      const search = postgresSearch(sql, BOUND);
      const run = <T>(fn: () => Promise<T>) => fn();
      explain = async (page, count) => {
        const driver = count ? await search.driverOf(run, page.filter, COUNT_BOUND) : undefined;
        if (count && driver === undefined) return '(estimated from a sample)';
        const { query } = count ? await search.countQuery(run, page.filter, driver) : await search.page(run, sql`uid`, page);
        const rows = await sql<{ 'QUERY PLAN': string }[]>`EXPLAIN ${query}`;
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      };
      close = () => sql.end({ timeout: 5 });
    }
  });

  after(async () => {
    await close?.();
    await database?.remove();
  });

  if (analyzed) it('count=true is exact through an index when a condition names at most 10,000 users, else estimated from a sample', async () => {
    const store = kind === 'postgres' ? await openPostgresUserStore({ url: database.databaseUrl }) : openSqliteUserStore({ path: database.databaseUrl.slice('sqlite:'.length) });
    try {
      const users = Array.from({ length: USERS }, (_, i) => user(i));
      const rare = parseSearch({ q: 'quixley1' }).filter;
      assert.deepEqual(await store.countMatches(rare, COUNT_BOUND), { value: users.filter((u) => u.name?.family_name === 'Quixley1').length, exact: true });
      // About 13,000 users in Engineering: no condition names at most 10,000 users.
      const broad = parseSearch({ department: 'engineering' }).filter;
      const truth = users.filter((u) => u.department === 'Engineering').length;
      const counted = await store.countMatches(broad, COUNT_BOUND);
      assert.equal(counted.exact, false);
      assert.ok(Math.abs(counted.value - truth) <= truth * 0.25, `estimated ${counted.value}, true ${truth}`);
      const everyone = await store.countMatches({}, COUNT_BOUND);
      assert.deepEqual(everyone, { value: USERS, exact: false });
    } finally {
      await store.close();
    }
  });

  for (const [shape, query] of Object.entries(SHAPES).filter(([name]) => analyzed || DRIVEN.has(name))) {
    it(`${shape}: ?${new URLSearchParams(query as Record<string, string>).toString()}`, async () => {
      const first = await explain(pageOf(query));
      assertNoFullScan(kind, first, shape);
      // A later page: the keyset narrows the same plan.
      const later = await explain(pageOf(query, { uid: '01900000-0000-7000-8000-000000000000', values: parseSearch(query).sort.map((key) => (key.field.endsWith('_at') ? '2026-01-05T00:00:00.000Z' : 'm')) }));
      assertNoFullScan(kind, later, `${shape} (a later page)`);
      // count=true: exact through an index when a condition names at most COUNT_BOUND users, else estimated from a sample (no count query).
      assertNoFullScan(kind, await explain(pageOf(query), true), `${shape} (its count)`);
    });
  }
});
}
