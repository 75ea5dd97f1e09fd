/**
 * Positions follow commit order on PostgreSQL (src/store/postgres/postgres-sequencer.ts),
 * tested with transactions held open on a connection of the test's own:
 *
 * - the outbox trap: a transaction that appended its event and has not committed
 *   while later ones commit and are read must get a position above everything read;
 * - writes that conflict are numbered in the order they commit: a write that takes
 *   a key another transaction lets go waits for it, and takes its event's place
 *   in the outbox only after it holds the key (postgres-user-writes.ts: Feed).
 *   (An import plans from what is committed and locks what it plans to change,
 *   so it never waits on a key this way: it sees the key held, or free after the
 *   commit.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { v7 as uuidv7 } from 'uuid';
import type { StoredEvent } from '../../src/events/event-log.js';
import { openPostgresUserStore } from '../../src/store/postgres/postgres-user-store.js';
import { insertUser } from '../../src/store/postgres/postgres-user-writes.js';
import type { UserStore } from '../../src/store/user-store.js';
import { withDefaults, type User } from '../../src/users/user.js';
import { edit } from './feed-fixtures.js';
import { createTestDatabase, postgresSkipReason, type TestDatabase } from '../helpers/postgres.js';

const skip = await postgresSkipReason();

let sequence = 0;
function newUser(username = `order${++sequence}`): User {
  const now = new Date().toISOString();
  return withDefaults({ uid: uuidv7(), username, email_address: `order${++sequence}@example.com`, legacy_ids: [], display_name: null, attributes: {}, created_at: now, updated_at: now, version: 1 });
}

/** Resolves once a backend of this database waits for a lock (the write under test is blocked on the held transaction). */
async function waitUntilBlocked(admin: postgres.Sql, database: string): Promise<void> {
  for (;;) {
    const [row] = await admin`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ${database} AND wait_event_type = 'Lock'`;
    if ((row?.n as number) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function everything(store: UserStore, after = 0): Promise<StoredEvent[]> {
  await store.events.settle();
  return (await store.events.read(after, 10_000)).events;
}

describe('change feed positions follow commit order [postgres]', { skip }, () => {
  let db: TestDatabase;
  let store: UserStore;
  let held: postgres.Sql;
  before(async () => {
    db = await createTestDatabase();
    store = await openPostgresUserStore({ url: db.url });
    held = postgres(db.url, { max: 2, onnotice: () => {} });
  });
  after(async () => {
    await held.end({ timeout: 1 });
    await store.close();
    await db.drop();
  });

  it('an event whose transaction commits after later ones is numbered after every position already read', async () => {
    const late = newUser();
    let commit!: () => void;
    const release = new Promise<void>((resolve) => (commit = resolve));
    let appended!: () => void;
    const inserted = new Promise<void>((resolve) => (appended = resolve));
    // The writer's own statements, in a transaction that stays open with its outbox row.
    const open = held.begin(async (tx) => {
      await insertUser(tx, late, { enabled: true }, late.created_at);
      appended();
      await release;
    });
    await inserted;

    const start = await store.events.settle();
    const others = [];
    for (let i = 0; i < 5; i++) others.push(await store.create(newUser()));
    const seen = await everything(store, start);
    assert.deepEqual(seen.map((e) => e.subject), others.map((u) => u.uid), 'the committed ones are readable; the open one is not');
    const highestSeen = seen[seen.length - 1]!.position;

    commit();
    await open;
    const later = await everything(store, highestSeen);
    assert.deepEqual(later.map((e) => e.subject), [late.uid], 'the late event is readable after what was read, never below it');
    assert.ok(later[0]!.position > highestSeen);
    const all = await everything(store, start);
    assert.deepEqual(all.map((e) => e.position), all.map((_, i) => start + i + 1), 'no gap, no event twice');
  });

  /**
   * A holds `taken`'s username and lets go of it in a transaction left open; B,
   * through the store, takes the name and blocks on A; A appends its event last
   * and commits. B's event must come after A's.
   */
  async function handoff(takeOver: (name: string) => Promise<string>): Promise<void> {
    const holder = await store.create(newUser());
    const name = holder.username;
    let commit!: () => void;
    const release = new Promise<void>((resolve) => (commit = resolve));
    let freed!: () => void;
    const keyFreed = new Promise<void>((resolve) => (freed = resolve));
    const renamed = `${name}-renamed`;
    const transaction = held.begin(async (tx) => {
      await tx`UPDATE users SET username = ${renamed}, version = version + 1 WHERE uid = ${holder.uid}`;
      await tx`UPDATE user_keys SET value = ${renamed} WHERE key = 'username' AND uid = ${holder.uid}`;
      freed();
      await release;
      await tx`INSERT INTO events (type, subject, time, data) VALUES ('user.updated', ${holder.uid}, now(), ${JSON.stringify({ ...holder, username: renamed, version: 2 })})`;
    });
    await keyFreed;
    const start = await store.events.settle();
    const taking = takeOver(name);
    await waitUntilBlocked(held, db.name);
    commit();
    await transaction;
    const taker = await taking;
    const events = await everything(store, start);
    assert.deepEqual(
      events.map((e) => e.subject),
      [holder.uid, taker],
      'the write that let the username go comes first, then the one that took it',
    );
  }

  it('a create that takes a username another transaction lets go is numbered after it', async () => {
    await handoff(async (name) => (await store.create(newUser(name))).uid);
  });

  it('a replace that takes a username another transaction lets go is numbered after it', async () => {
    const other = await store.create(newUser());
    await handoff(async (name) => {
      const outcome = await store.replace(other.uid, edit(other, { username: name }), new Date().toISOString());
      assert.equal(outcome.status, 'ok');
      return other.uid;
    });
  });

  it('instances writing at once each read a gapless, strictly increasing feed', async () => {
    const stores = [store, await openPostgresUserStore({ url: db.url }), await openPostgresUserStore({ url: db.url })];
    try {
      const start = await store.events.settle();
      const reads: number[][] = stores.map(() => []);
      let writing = true;
      const readers = stores.map(async (reader, i) => {
        let position = start;
        while (writing) {
          const { events } = await reader.events.read(position, 50);
          for (const event of events) reads[i]!.push(event.position);
          position = events[events.length - 1]?.position ?? position;
        }
      });
      const writers = stores.flatMap((writer) =>
        Array.from({ length: 4 }, async () => {
          for (let i = 0; i < 25; i++) {
            const user = await writer.create(newUser());
            await writer.replace(user.uid, edit(user, { display_name: `n${i}` }), new Date().toISOString());
          }
        }),
      );
      await Promise.all(writers);
      writing = false;
      await Promise.all(readers);
      const all = await everything(store, start);
      assert.equal(all.length, 3 * 4 * 25 * 2);
      assert.deepEqual(all.map((e) => e.position), all.map((_, i) => start + i + 1));
      for (const read of reads) {
        assert.ok(read.every((p, i) => p === (i === 0 ? start + 1 : read[i - 1]! + 1)), 'each reader saw every position once, in order, with no gap');
      }
    } finally {
      await Promise.all(stores.slice(1).map((s) => s.close()));
    }
  });
});
