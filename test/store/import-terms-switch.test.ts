/**
 * The import writes the terms of the users it creates itself, and the insert trigger
 * leaves them to it only inside the import's own transaction (migrations 13 and 14,
 * docs/import.md "How a batch is written"). Whatever else writes keeps the trigger:
 * a create after an import, and on PostgreSQL a create while another transaction
 * holds the switch on, is found by its words, and no switch is left behind.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import postgres from 'postgres';
import { v7 as uuidv7 } from 'uuid';
import type { UserStore } from '../../src/store/user-store.js';
import { userWords } from '../../src/users/search-words.js';
import { withDefaults, type User } from '../../src/users/user.js';
import { describeEachStore, openTestStore, type OpenedTestStore } from '../helpers/stores.js';

let sequence = 0;
function person(display: string): User {
  sequence += 1;
  const now = new Date().toISOString();
  return {
    uid: uuidv7(),
    ...withDefaults({ username: `switch${sequence}`, email_address: `switch${sequence}@example.com`, legacy_ids: [], display_name: display, attributes: {}, department: 'Switchyard' }),
    created_at: now,
    updated_at: now,
    version: 1,
  };
}

async function assertFoundByWords(store: UserStore, user: User): Promise<void> {
  for (const word of userWords(user)) {
    const found = (await store.search({ filter: { words: [word] }, limit: 100 })).value.map((u) => u.uid);
    assert.ok(found.includes(user.uid), `the word ${word} finds ${user.username}`);
  }
  const department = (await store.search({ filter: { facets: { department: 'switchyard' } }, limit: 100 })).value.map((u) => u.uid);
  assert.ok(department.includes(user.uid), `the department finds ${user.username}`);
}

describeEachStore('the insert trigger leaves terms to the import only in its own transaction', (kind) => {
  let opened: OpenedTestStore;
  before(async () => {
    opened = await openTestStore(kind);
  });
  after(async () => opened.cleanup());

  it('users imported, then a user created: each found by its words and facet', async () => {
    const { store } = opened;
    const imported = [person('Ingrid Import'), person('Olaf Import')];
    assert.deepEqual((await store.importUsers(imported, 'skip', new Date().toISOString())).map((o) => o.status), ['created', 'created']);
    const created = person('Carla Create');
    await store.create(created);
    for (const user of [...imported, created]) await assertFoundByWords(store, user);
  });

  // PostgreSQL only: SQLite's switch is a row that only its own write sees (one writer at a time).
  if (kind === 'postgres') it('PostgreSQL: a create while another transaction holds the switch on gets its terms from the trigger', async () => {
    const { store, databaseUrl } = opened;
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let switched!: () => void;
      const on = new Promise<void>((resolve) => (switched = resolve));
      const holding = sql.begin(async (tx) => {
        await tx`SELECT set_config('user_service.terms_by_import', 'on', true)`;
        switched();
        await held;
      });
      await on;
      const created = person('Walter Whileheld');
      await store.create(created);
      await assertFoundByWords(store, created);
      release();
      await holding;
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});
