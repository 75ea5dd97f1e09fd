/**
 * The sequencer's run on PostgreSQL (migration 5's sequence_events, migration 7)
 * finds the events without a position by walking the partial index
 * events_unsequenced in id order, never by a bitmap scan.
 *
 * Why it matters: numbering an event updates its row, which leaves the old
 * version's entries (position NULL) in the indexes until VACUUM. After an import,
 * or between two autovacuums under steady writes, there are tens of thousands of
 * them. A plain index scan marks such entries dead the first time it meets them
 * and skips them after; a bitmap scan never does, and visits every dead row's heap
 * page in every run, at up to 200 runs a second. The planner picks the
 * bitmap scan when the table's statistics still count unnumbered rows, as they do
 * after an import; here the table has no statistics at all, which it treats alike.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { migratePostgres } from '../../src/store/postgres/postgres-migrations.js';
import { createTestDatabase, postgresSkipReason, type TestDatabase } from '../helpers/postgres.js';

const skip = await postgresSkipReason();

describe('the sequencer finds unnumbered events through its partial index [postgres]', { skip }, () => {
  let db: TestDatabase;
  let sql: postgres.Sql;
  const notices: string[] = [];
  before(async () => {
    db = await createTestDatabase();
    sql = postgres(db.url, { max: 1, onnotice: (notice) => notices.push(String(notice.message)) });
    await migratePostgres(sql);
  });
  after(async () => {
    await sql.end({ timeout: 1 });
    await db.drop();
  });

  it('uses an index scan of events_unsequenced when many numbered rows left dead entries behind', async () => {
    await sql`INSERT INTO events (type, subject, time, data) SELECT 'user.created', gen_random_uuid(), now(), '{}' FROM generate_series(1, 20000)`;
    const [first] = await sql<{ numbered: number }[]>`SELECT numbered FROM sequence_events(1, 100000, 'sequencer_plan_test')`;
    assert.equal(first?.numbered, 20000);
    await sql`INSERT INTO events (type, subject, time, data) VALUES ('user.created', gen_random_uuid(), now(), '{}')`;

    // auto_explain sends the plan of every statement, those inside the function too, to this client.
    await sql`LOAD 'auto_explain'`;
    await sql`SET auto_explain.log_min_duration = 0`;
    await sql`SET auto_explain.log_nested_statements = on`;
    await sql`SET client_min_messages = log`;
    notices.length = 0;
    const [run] = await sql<{ numbered: number; latest: string }[]>`SELECT numbered, latest FROM sequence_events(1, 100000, 'sequencer_plan_test')`;
    await sql`SET client_min_messages = notice`;

    assert.equal(run?.numbered, 1);
    assert.equal(Number(run?.latest), 20001);
    const plans = notices.join('\n');
    assert.match(plans, /Index Scan using events_unsequenced on events/);
    assert.doesNotMatch(plans, /Bitmap Heap Scan on events/);
  });
});
