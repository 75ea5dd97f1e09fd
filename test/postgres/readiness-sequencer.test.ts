/**
 * The sequencer's flush() (what PostgreSQL's `events.settle()` waits for, and what an
 * instance waits for before it listens) is honest: it resolves only once a run that
 * started after the call numbered everything waiting, and rejects when those runs
 * failed, instead of resolving as if the feed were caught up. A run the statement
 * timeout cancels makes the next runs take fewer events, so a backlog still drains.
 * No database: the sequencer's one statement is answered by a fake.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type postgres from 'postgres';
import { createSequencer } from '../../src/store/postgres/postgres-sequencer.js';
import { StoreUnavailableError } from '../../src/store/store-errors.js';

/** A fake feed: `waiting` committed events without a position; `answer` decides how each run ends, given how many events it would number. */
function fakeFeed(waiting: number, answer: (work: number) => 'ok' | Error = () => 'ok') {
  const state = { waiting, latest: 0, runs: [] as number[] };
  // sequence_events(lock, take, channel): the second value of the tagged template.
  const sql = ((_strings: TemplateStringsArray, ...values: unknown[]) => {
    const take = Number(values[1]);
    state.runs.push(take);
    const outcome = answer(Math.min(take, state.waiting));
    if (outcome !== 'ok') return Promise.reject(outcome);
    const numbered = Math.min(take, state.waiting);
    state.waiting -= numbered;
    state.latest += numbered;
    return Promise.resolve([{ latest: String(state.latest), numbered }]);
  }) as unknown as postgres.Sql;
  const run = <T>(fn: () => Promise<T>) => fn();
  const errors: unknown[] = [];
  const sequencer = createSequencer(sql, run, () => {}, (error) => errors.push(error));
  return { state, sequencer, errors };
}

/** PostgreSQL's statement timeout (57014), as the store's run() wraps it. */
const timeout = () => new StoreUnavailableError({ cause: Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }) });

describe('the PostgreSQL sequencer: flush() means caught up', () => {
  it('resolves once every waiting event is numbered, over as many runs as it takes', async () => {
    const { state, sequencer } = fakeFeed(25_000);
    await sequencer.flush();
    assert.equal(state.waiting, 0);
    assert.equal(state.latest, 25_000);
    assert.deepEqual(state.runs, [10_000, 10_000, 10_000]);
  });

  it('rejects with the failure of the run it waited for, and resolves again once a run succeeds', async () => {
    let down = true;
    const { state, sequencer, errors } = fakeFeed(3, () => (down ? new StoreUnavailableError() : 'ok'));
    await assert.rejects(sequencer.flush(), StoreUnavailableError);
    assert.equal(state.waiting, 3, 'nothing was numbered');
    assert.equal(errors.length, 1, 'the failure is also reported as background work');
    down = false;
    await sequencer.flush();
    assert.equal(state.waiting, 0);
  });

  it('a failure of a run that started before the call does not fail it: it waits for a run of its own', async () => {
    let calls = 0;
    const { state, sequencer } = fakeFeed(5, () => (++calls === 1 ? new StoreUnavailableError() : 'ok'));
    sequencer.kick(); // this run fails
    await sequencer.flush();
    assert.equal(state.waiting, 0);
    assert.ok(calls >= 2);
  });

  it('after a run the statement timeout cancelled, the next runs take half as many events until they fit, then the full size again', async () => {
    // Up to 3,000 events fit in one statement before the timeout.
    const { state, sequencer } = fakeFeed(7_000, (work) => (work > 3_000 ? timeout() : 'ok'));
    await assert.rejects(sequencer.flush(), (error: unknown) => error instanceof StoreUnavailableError);
    await assert.rejects(sequencer.flush(), (error: unknown) => error instanceof StoreUnavailableError);
    await sequencer.flush();
    assert.equal(state.waiting, 0);
    assert.equal(state.latest, 7_000);
    assert.deepEqual(state.runs, [10_000, 5_000, 2_500, 2_500, 2_500]);
    state.waiting = 1;
    await sequencer.flush();
    assert.equal(state.runs.at(-1), 10_000, 'caught up: runs take the full size again');
  });
});
