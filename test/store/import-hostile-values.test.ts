/**
 * The bulk import keeps every character of what it writes, on both stores. On PostgreSQL
 * a batch travels by COPY in text format (postgres-copy.ts), where tab, newline,
 * carriage return and backslash are the format's own, `\N` means null and a
 * `text[]` literal (legacy ids) is escaped inside it: values made of exactly
 * those, with Unicode beside them, come back as given, are found by every key and
 * by their words and facets, and lose those words when an import replaces them.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { v7 as uuidv7 } from 'uuid';
import { copyField, copyRow } from '../../src/store/postgres/postgres-copy.js';
import { facetTerm, searchOf } from '../../src/store/search-column.js';
import type { UserStore } from '../../src/store/user-store.js';
import { canon } from '../../src/users/canonical.js';
import { userWords } from '../../src/users/search-words.js';
import { withDefaults, type User } from '../../src/users/user.js';
import { FACETS } from '../../src/users/user-vocabulary.js';
import { describeEachStore, openTestStore, type OpenedTestStore } from '../helpers/stores.js';

/** What COPY's text format and a text[] literal give a meaning to, alone and together, and text beside them. */
const HOSTILE = [
  'tab\there',
  'new\nline',
  'carriage\rreturn',
  'back\\slash',
  '\\N',
  '\\\\N',
  '\\t not a tab',
  'ends with a backslash\\',
  '"quoted", {braced}',
  'NULL',
  '',
  ' spaces ',
  'Zoë Ødegård Дмитрий 小明 محمد',
  '👩🏽‍💻 emoji 🎉',
  'e\u0301 combining',
  '\t\n\r\\\\N\t',
];

it('copyField escapes exactly backslash, tab, newline and carriage return, writes null as \\N and refuses U+0000', () => {
  assert.equal(copyField(null), '\\N');
  assert.equal(copyField('\\N'), '\\\\N');
  assert.equal(copyField('a\tb\nc\rd\\e'), 'a\\tb\\nc\\rd\\\\e');
  assert.equal(copyField('Zoë 👩🏽‍💻 "x" {y}'), 'Zoë 👩🏽‍💻 "x" {y}');
  assert.equal(copyRow(['a', null, '']), 'a\t\\N\t\n');
  assert.throws(() => copyField('a\u0000b'), /U\+0000/);
});

function hostileUser(value: string, n: number): User {
  const now = new Date().toISOString();
  return {
    uid: uuidv7(),
    ...withDefaults({
      username: `hostile${n}`,
      email_address: `hostile${n}@example.com`,
      legacy_ids: [`legacy:${n}:${value}`, `second:${n}`],
      display_name: `Person ${value} ${n}`,
      attributes: { [`key ${value}`]: value, nested: [value, { deeper: value }] },
      name: { given_name: `Given${value}`, family_name: value === '' ? 'Family' : value },
      title: `Title ${value}`,
      department: value === '' ? null : value,
      employee_number: `E${n}${value}`,
    }),
    created_at: now,
    updated_at: now,
    version: 1,
  };
}

/** The uids a search by `filter` finds (at most a page of 100). */
async function found(store: UserStore, filter: Parameters<UserStore['search']>[0]['filter']): Promise<string[]> {
  return (await store.search({ filter, limit: 100 })).value.map((user) => user.uid);
}

/** Every word and facet of `user` finds it; `also` words are checked the same way. */
async function assertSearchable(store: UserStore, user: User): Promise<void> {
  for (const word of userWords(user)) assert.ok((await found(store, { words: [word] })).includes(user.uid), `the word ${JSON.stringify(word)} finds ${user.username}`);
  for (const facet of FACETS) {
    const value = facet === 'manager' ? (user.manager?.value ?? null) : user[facet];
    if (value === null || value === '') continue;
    assert.ok(searchOf(user).terms.includes(facetTerm(facet, value)));
    assert.ok((await found(store, { facets: { [facet]: canon(value) } })).includes(user.uid), `${facet} ${JSON.stringify(value)} finds ${user.username}`);
  }
}

describeEachStore('import of values that mean something to COPY', (kind) => {
  let opened: OpenedTestStore;
  before(async () => {
    opened = await openTestStore(kind);
  });
  after(async () => opened.cleanup());

  it('creates each user as given, found by every key, word and facet; a replace takes the old words away', async () => {
    const { store } = opened;
    const users = HOSTILE.map(hostileUser);
    const outcomes = await store.importUsers(users, 'skip', new Date().toISOString());
    assert.deepEqual(outcomes, users.map((u) => ({ status: 'created', uid: u.uid })));
    for (const user of users) {
      assert.deepEqual(await store.findByKey('uid', user.uid), user);
      for (const legacy of user.legacy_ids) assert.equal((await store.findByKey('legacy_id', legacy))?.uid, user.uid, `legacy id ${JSON.stringify(legacy)}`);
      await assertSearchable(store, user);
    }

    const at = new Date().toISOString();
    const replaced = users.map((user, n) => ({ ...hostileUser(HOSTILE[(n + 1) % HOSTILE.length] as string, n), uid: user.uid, created_at: user.created_at }));
    const again = await store.importUsers(replaced, 'replace', at);
    assert.deepEqual(again.map((o) => o.status), users.map(() => 'updated'));
    for (const [n, user] of replaced.entries()) {
      const stored = await store.findByKey('uid', user.uid);
      assert.deepEqual(stored, { ...user, updated_at: at, version: 2 });
      await assertSearchable(store, stored as User);
      const before = users[n] as User;
      const gone = userWords(before).filter((word) => !userWords(user).some((kept) => kept.startsWith(word)));
      for (const word of gone) assert.ok(!(await found(store, { words: [word] })).includes(user.uid), `the old word ${JSON.stringify(word)} no longer finds ${user.username}`);
    }
  });
});
