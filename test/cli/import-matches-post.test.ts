/**
 * Property test, on both stores: an import gives the directory the same users as the
 * same records written through `POST /users`. Two databases grow side by side: one
 * takes each run's random people through the real HTTP server, one by
 * `user-service import` (the real CLI, JSON Lines or an HR-shaped CSV read with `--map`
 * and `--extra-columns attributes`). The first run imports into an empty directory,
 * every later one into a populated one. After each run both hold the same users, the
 * same words and facets (what a search by each finds), the same counts, the same
 * events (type, user and data, in order) and the same export. What the service assigns
 * (uids, timestamps) and who wrote an event (its origin) may differ; users are
 * matched by username.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { canon } from '../../src/users/canonical.js';
import { userWords } from '../../src/users/search-words.js';
import type { User } from '../../src/users/user.js';
import { FACETS, type Facet } from '../../src/users/user-vocabulary.js';
import type { SearchFilter, UserStore } from '../../src/store/user-store.js';
import { createTestDatabaseUrl, describeEachStore, openTestStoreAt, type StoreKind, type TestDatabaseUrl } from '../helpers/stores.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { parseSummary } from './import-summary.js';
import { runCli } from './run-cli.js';

const GIVEN = ['José', 'Łukasz', 'Seán', 'Zoë', 'Ана', 'Дмитрий', '小明', 'Ἀλέξανδρος', 'محمد', 'Nguyễn Văn', 'Ólafur'];
const FAMILY = ['García-López', "O'Brien", 'van der Berg', 'Ødegård', '王', 'Иванова', 'Dvořák', 'حسن', 'Müller'];
const TITLES = ['Engineer', 'ENGINEER', 'Ingénieur', 'Manager'];
const DEPARTMENTS = ['R&D', 'Sales', 'SALES', 'Développement'];

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

const personArbitrary = fc.record({
  handle: fc.constantFrom('ana', 'jose.garcia', 'zoe', 'o.brien', 'li'),
  given: optional(fc.constantFrom(...GIVEN)),
  family: optional(fc.constantFrom(...FAMILY)),
  title: optional(fc.constantFrom(...TITLES)),
  department: optional(fc.constantFrom(...DEPARTMENTS)),
  badge: optional(fc.constantFrom('B-1', 'B-2', 'ß-9')),
  display: optional(fc.constantFrom('Dr. José García', 'Ана Иванова', '王小明')),
  employee: optional(fc.integer({ min: 1, max: 30 })),
  active: optional(fc.boolean()),
});
type Person = typeof personArbitrary extends fc.Arbitrary<infer P> ? P : never;

/** The HR file's columns, as docs/import.md's example names them, and what the import reads them as. */
const HR_HEADER = ['Login', 'Mail', 'First Name', 'Surname', 'Job Title', 'dept', 'Badge'];
const HR_ARGS = ['--delimiter', ';', '--map', 'Login=username,Mail=email_address,First Name=given_name,Surname=family_name,Job Title=title,dept=department', '--extra-columns', 'attributes'];

/** A person as the body of POST /users (and a line of JSON Lines): only what the record gives. */
function body(person: Person, username: string, hr: boolean): Record<string, unknown> {
  const name = { ...(person.given ? { given_name: person.given } : {}), ...(person.family ? { family_name: person.family } : {}) };
  return {
    username,
    email_address: `${username}@Example.com`,
    ...(Object.keys(name).length > 0 ? { name } : {}),
    ...(person.title ? { title: person.title } : {}),
    ...(person.department ? { department: person.department } : {}),
    ...(person.badge ? { attributes: { Badge: person.badge } } : {}),
    // The HR file carries the seven columns only.
    ...(hr ? {} : { ...(person.display ? { display_name: person.display } : {}), ...(person.employee ? { employee_number: `E${person.employee}` } : {}), ...(person.active === undefined ? {} : { active: person.active }) }),
  };
}

const cell = (text: unknown) => (typeof text === 'string' ? (/[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text) : '');

function hrRow(record: Record<string, any>): string {
  return [record.username, record.email_address, record.name?.given_name, record.name?.family_name, record.title, record.department, record.attributes?.Badge].map(cell).join(';');
}

/** A user without what the service assigns, its manager and previous keys named by username. */
function comparable(user: Record<string, unknown>): Record<string, unknown> {
  const { uid: _uid, created_at: _created, updated_at: _updated, ...rest } = user;
  return rest;
}

async function allUsers(store: UserStore): Promise<User[]> {
  return (await store.search({ filter: {}, limit: 10_000 })).value;
}

/** Usernames a filter finds, sorted, and its exact and bounded counts. */
async function found(store: UserStore, filter: SearchFilter): Promise<{ usernames: string[]; count: number; matches: unknown }> {
  const users = (await store.search({ filter, limit: 10_000 })).value;
  return { usernames: users.map((u) => u.username).sort(), count: await store.count(filter), matches: await store.countMatches(filter, 1000) };
}

/** Every event in order: its type, the user's username, and its data without what the service assigns. */
async function events(store: UserStore, usernameOf: Map<string, string>): Promise<unknown[]> {
  const page = await store.events.read(0, 10_000);
  return page.events.map((event) => ({ type: event.type, user: usernameOf.get(event.subject), data: comparable(JSON.parse(event.data) as Record<string, unknown>) }));
}

async function exported(databaseUrl: string): Promise<unknown[]> {
  const result = await runCli(['export', '--database-url', databaseUrl]);
  assert.equal(result.code, 0, result.stderr);
  return result.stdout.trim().split('\n').filter((line) => line !== '').map((line) => comparable(JSON.parse(line) as Record<string, unknown>)).sort((a, b) => String(a.username).localeCompare(String(b.username)));
}

/** What a directory holds, in terms that do not depend on who assigned uids and timestamps. */
async function directory(kind: StoreKind, databaseUrl: string, words: readonly string[], facets: readonly [Facet, string][]): Promise<Record<string, unknown>> {
  const store = await openTestStoreAt(kind, databaseUrl);
  try {
    const users = await allUsers(store);
    const usernameOf = new Map(users.map((u) => [u.uid, u.username]));
    const byWord: Record<string, unknown> = {};
    for (const word of words) byWord[word] = await found(store, { words: [word] });
    const byFacet: Record<string, unknown> = {};
    for (const [facet, value] of facets) byFacet[`${facet}=${value}`] = await found(store, { facets: { [facet]: value } });
    return {
      users: users.map((u) => comparable(u as unknown as Record<string, unknown>)).sort((a, b) => String(a.username).localeCompare(String(b.username))),
      all: await found(store, {}),
      inactive: await found(store, { active: false }),
      byWord,
      byFacet,
      events: await events(store, usernameOf),
      export: await exported(databaseUrl),
    };
  } finally {
    await store.close();
  }
}

describeEachStore('an import gives the same directory as POST /users', (kind) => {
  let server: TestServer;
  let imported: TestDatabaseUrl;
  let dir: string;
  before(async () => {
    server = await startTestServer({ store: kind });
    imported = await createTestDatabaseUrl(kind);
    dir = mkdtempSync(join(tmpdir(), 'import-matches-post-'));
  });
  after(async () => {
    await server?.close();
    await imported?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('same users, words, facets, counts, events and export, into an empty and then a populated directory', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(personArbitrary, { minLength: 1, maxLength: 6 }), fc.boolean(), async (people, hr) => {
        run += 1;
        const records = people.map((person, i) => body(person, `${person.handle}.${run}.${i}`, hr));
        for (const record of records) {
          const response = await server.post('/users', record);
          assert.equal(response.status, 201, response.text);
        }
        const file = join(dir, `run-${run}.${hr ? 'csv' : 'jsonl'}`);
        writeFileSync(file, hr ? `${[HR_HEADER.join(';'), ...records.map(hrRow)].join('\r\n')}\r\n` : `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
        const result = await runCli(['import', file, ...(hr ? HR_ARGS : []), '--database-url', imported.databaseUrl]);
        assert.equal(result.code, 0, result.stderr);
        assert.equal(parseSummary(result.stdout).created, records.length, result.stdout);

        const reference = await openTestStoreAt(kind, server.databaseUrl);
        let users: User[];
        try {
          users = await allUsers(reference);
        } finally {
          await reference.close();
        }
        const words = [...new Set(users.flatMap((u) => userWords(u)))];
        const facets = [...new Set(users.flatMap((u) => FACETS.flatMap((facet) => {
          const value = facet === 'manager' ? u.manager?.value : u[facet];
          return value ? [`${facet}\u0000${canon(value)}`] : [];
        })))].map((pair) => pair.split('\u0000') as [Facet, string]);
        assert.deepEqual(await directory(kind, imported.databaseUrl, words, facets), await directory(kind, server.databaseUrl, words, facets));
      }),
      { numRuns: 4 },
    );
  });
});
