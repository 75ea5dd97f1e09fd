/**
 * Ready means caught up (PostgreSQL). Writers insert their events without a position and
 * the sequencer numbers them after commit (postgres-sequencer.ts); an instance killed
 * between a commit and the sequencer's run leaves events of acknowledged writes with no
 * position. An instance that starts must number them before it answers anything: when
 * /readyz first answers 200, the feed already holds them. The leftovers are made
 * deterministically (inserted with SQL while no instance runs, as a crash leaves them);
 * nothing here waits for a timer, and no other instance is there to number them.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import postgres from 'postgres';
import { send } from '../helpers/http-client.js';
import { spawnChildServer, startChildServer, type ChildServer } from '../helpers/child-server.js';
import { createTestDatabase, postgresSkipReason, type TestDatabase } from '../helpers/postgres.js';
import { newUser } from '../helpers/test-server.js';

const skip = await postgresSkipReason();
const children: ChildServer[] = [];
const databases: TestDatabase[] = [];
after(async () => {
  await Promise.all(children.map((child) => child.dispose()));
  await Promise.all(databases.map((db) => db.drop()));
});

/** Events committed without a position, as a crash between commit and sequencer run leaves them. */
const LEFTOVERS = 25;

describe('PostgreSQL: an instance is ready only once the events committed before it started are numbered', { skip }, () => {
  it('when /readyz first answers 200, GET /events and its Feed-Position already include every leftover event', async () => {
    const db = await createTestDatabase();
    databases.push(db);

    // A first instance makes the schema and writes two users; it stops gracefully.
    const first = await startChildServer({ env: { DATABASE_URL: db.url } });
    children.push(first);
    for (let i = 0; i < 2; i++) assert.equal((await first.post('/users', newUser())).status, 201);
    first.kill('SIGTERM');
    assert.deepEqual(await first.waitForExit(), { code: 0, signal: null }, first.describe());

    // What a crash leaves: committed events without a position (copies of the real ones, so they render).
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    let expected: number;
    try {
      await sql`INSERT INTO events (type, subject, time, data)
        SELECT type, subject, time, data FROM events, generate_series(1, ${LEFTOVERS}) ORDER BY generate_series, id LIMIT ${LEFTOVERS}`;
      const [row] = await sql<{ numbered: string; unnumbered: string }[]>`
        SELECT (SELECT position FROM feed_state WHERE name = 'latest') AS numbered, (SELECT count(*) FROM events WHERE position IS NULL) AS unnumbered`;
      assert.ok(Number(row!.unnumbered) >= LEFTOVERS, `expected at least ${LEFTOVERS} unnumbered events, found ${row!.unnumbered}`);
      expected = Number(row!.numbered) + Number(row!.unnumbered);
    } finally {
      await sql.end({ timeout: 1 });
    }

    // The second instance: the first answer it gives is already caught up.
    const second = spawnChildServer({ env: { DATABASE_URL: db.url } });
    children.push(second);
    const port = await second.waitForListening(15_000);
    const base = `http://127.0.0.1:${port}`;
    const ready = await send(base, 'GET', '/readyz');
    assert.equal(ready.status, 200, ready.text);
    const page = await send(base, 'GET', '/events?after=0&limit=1000');
    assert.equal(page.status, 200, page.text);
    assert.equal(Number(page.headers['feed-position']), expected, `Feed-Position when first ready: ${second.describe()}`);
    assert.equal(page.body.length, expected, 'every event, the leftovers included, is readable');
    assert.deepEqual(
      page.body.map((event: { id: string }) => Number(event.id)),
      Array.from({ length: expected }, (_, i) => i + 1),
      'positions 1..N, in order',
    );

    second.kill('SIGTERM');
    assert.deepEqual(await second.waitForExit(), { code: 0, signal: null }, second.describe());
  });
});
