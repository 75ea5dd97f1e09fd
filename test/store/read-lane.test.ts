/**
 * The read lane (src/store/read-lane.ts): how many expensive reads run at once, how many
 * may wait, and what a deadline does to a read that waits or runs.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { readLane } from '../../src/store/read-lane.js';
import { BudgetExceededError, ReadsSaturatedError } from '../../src/store/store-errors.js';

/** A task that runs until release() is called, recording that it started. */
function gatedTask(started: string[], name: string) {
  let release!: () => void;
  const done = new Promise<string>((resolve) => (release = () => resolve(name)));
  return { task: () => (started.push(name), done), release: () => release() };
}

it('runs at most `concurrency` reads at once, the others in arrival order', async () => {
  const lane = readLane(2, 10);
  const started: string[] = [];
  const tasks = ['a', 'b', 'c', 'd'].map((name) => gatedTask(started, name));
  const results = tasks.map((t) => lane.run(undefined, t.task));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, ['a', 'b']);
  tasks[1]!.release();
  assert.equal(await results[1], 'b');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, ['a', 'b', 'c']);
  tasks[0]!.release();
  tasks[2]!.release();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, ['a', 'b', 'c', 'd']);
  tasks[3]!.release();
  assert.deepEqual(await Promise.all(results), ['a', 'b', 'c', 'd']);
});

it('refuses a read with ReadsSaturatedError when `maxWaiting` already wait, without starting it', async () => {
  const lane = readLane(1, 1);
  const started: string[] = [];
  const running = gatedTask(started, 'running');
  const waiting = gatedTask(started, 'waiting');
  const first = lane.run(undefined, running.task);
  const second = lane.run(undefined, waiting.task);
  await assert.rejects(lane.run(undefined, async () => 'refused'), ReadsSaturatedError);
  running.release();
  waiting.release();
  assert.deepEqual([await first, await second], ['running', 'waiting']);
  assert.deepEqual(started, ['running', 'waiting']);
});

it('a read whose deadline passes while it waits never starts; one whose deadline has passed is refused at once', async () => {
  const lane = readLane(1, 10);
  const started: string[] = [];
  const running = gatedTask(started, 'running');
  const first = lane.run(undefined, running.task);
  const late = lane.run(Date.now() + 20, async () => (started.push('late'), 'late'));
  await assert.rejects(late, BudgetExceededError);
  await assert.rejects(lane.run(Date.now() - 1, async () => (started.push('past'), 'past')), BudgetExceededError);
  running.release();
  await first;
  assert.deepEqual(started, ['running']);
});

it('a read still running at its deadline is answered BudgetExceededError, and keeps its place until it stops', async () => {
  const lane = readLane(1, 10);
  const started: string[] = [];
  const slow = gatedTask(started, 'slow');
  await assert.rejects(lane.run(Date.now() + 20, slow.task), BudgetExceededError);
  const next = lane.run(undefined, async () => (started.push('next'), 'next'));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(started, ['slow'], 'the next read waits while the stopped one has not stopped');
  slow.release();
  assert.equal(await next, 'next');
});

it('a place released twice counts once', async () => {
  const lane = readLane(1, 10);
  const release = await lane.acquire(undefined);
  release();
  release();
  const again = await lane.acquire(undefined);
  const started: string[] = [];
  const waiting = lane.run(undefined, async () => (started.push('waiting'), 'waiting'));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, [], 'one place: the second release did not free another');
  again();
  assert.equal(await waiting, 'waiting');
});

it('a waiter whose signal aborts leaves the line at once, rejected with the reason, and is never given a place', async () => {
  const lane = readLane(1, 1);
  const holder = await lane.acquire(undefined);
  const left = new AbortController();
  const waiting = lane.acquire(undefined, left.signal);
  left.abort(new Error('the client left'));
  await assert.rejects(waiting, /the client left/);
  // Its place in the line is free again: another may wait (maxWaiting 1), and gets the place.
  const next = lane.acquire(undefined);
  holder();
  const release = await next;
  release();
});
