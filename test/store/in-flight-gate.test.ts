/**
 * The gate in front of postgres.js: at most `limit` tasks run at once, the
 * others start in arrival order as slots free up (urgent ones first), and a
 * failing task frees its slot.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inFlightGate } from '../../src/store/postgres/in-flight-gate.js';

/** A task that runs until its `finish` is called. */
function controllable() {
  let finish!: (fail?: boolean) => void;
  const done = new Promise<void>((resolve, reject) => (finish = (fail) => (fail ? reject(new Error('task failed')) : resolve())));
  return { done, finish };
}

describe('inFlightGate', () => {
  it('runs at most `limit` tasks at once and starts the rest in arrival order', async () => {
    const gate = inFlightGate(2);
    const started: number[] = [];
    const tasks = [0, 1, 2, 3, 4].map(() => controllable());
    const results = tasks.map((task, i) => gate(async () => {
      started.push(i);
      await task.done;
      return i;
    }));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, [0, 1]);
    tasks[1]?.finish();
    await results[1];
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, [0, 1, 2]);
    tasks[0]?.finish(true);
    await assert.rejects(results[0] as Promise<number>, /task failed/);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, [0, 1, 2, 3], 'a failed task frees its slot');
    for (const task of tasks) task.finish();
    assert.deepEqual(await Promise.all(results.slice(1)), [1, 2, 3, 4]);
  });

  it('starts an urgent task before every normal one already waiting, urgent ones in arrival order', async () => {
    const gate = inFlightGate(1);
    const started: string[] = [];
    const tasks = new Map<string, ReturnType<typeof controllable>>();
    const submit = (name: string, lane?: 'urgent' | 'normal') => {
      const task = controllable();
      tasks.set(name, task);
      return gate(async () => {
        started.push(name);
        await task.done;
      }, lane);
    };
    const all = [submit('running'), submit('normal-1'), submit('normal-2', 'normal'), submit('urgent-1', 'urgent'), submit('urgent-2', 'urgent')];
    await new Promise((resolve) => setImmediate(resolve));
    for (const name of ['running', 'urgent-1', 'urgent-2', 'normal-1', 'normal-2']) {
      assert.equal(started.at(-1), name);
      tasks.get(name)!.finish();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(all);
    assert.deepEqual(started, ['running', 'urgent-1', 'urgent-2', 'normal-1', 'normal-2']);
  });

  it('lets a task that finds a free slot start at once', async () => {
    const gate = inFlightGate(1);
    assert.equal(await gate(async () => 'first'), 'first');
    assert.equal(await gate(async () => 'second'), 'second');
  });
});
