/**
 * The instance's view of a full store (src/observability/store-space.ts): writes
 * that failed for lack of space are logged at error level with a count, at most
 * one line per interval, every failure in exactly one line; the instance is not
 * ready until a write probe succeeds. The clock and the timer are the test's.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, it, mock } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import { createStoreSpace } from '../../src/observability/store-space.js';
import { StoreFullError, StoreUnavailableError } from '../../src/store/store-errors.js';

type Line = { level: 'error' | 'info'; fields: Record<string, unknown> | undefined; msg: string };

function logger(): { log: FastifyBaseLogger; lines: Line[] } {
  const lines: Line[] = [];
  const record = (level: Line['level']) => (fieldsOrMsg: unknown, msg?: string) => {
    lines.push(typeof fieldsOrMsg === 'string' ? { level, fields: undefined, msg: fieldsOrMsg } : { level, fields: fieldsOrMsg as Record<string, unknown>, msg: msg ?? '' });
  };
  return { log: { error: record('error'), info: record('info') } as unknown as FastifyBaseLogger, lines };
}

const full = () => new StoreFullError({ cause: Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }) });

let clock = 0;
beforeEach(() => {
  clock = 1_000_000;
  mock.timers.enable({ apis: ['setTimeout'] });
});
afterEach(() => mock.timers.reset());

/** Moves the clock and the timers on by `ms`. */
function elapse(ms: number): void {
  clock += ms;
  mock.timers.tick(ms);
}

it('logs the first failed write at once, then one line per interval counting the writes since the last line', () => {
  const { log, lines } = logger();
  const space = createStoreSpace({ intervalMs: 10_000, now: () => clock });
  space.writeFailed(full(), log);
  assert.deepEqual(lines.map((l) => [l.level, l.msg, l.fields?.failed]), [['error', '1 write failed: the store is out of space', 1]]);
  assert.deepEqual(lines[0]!.fields?.cause, { type: 'StoreFullError', message: 'the store is out of space: database or disk is full', cause: { type: 'Error', message: 'database or disk is full', code: 'SQLITE_FULL' } });
  for (let i = 0; i < 4; i++) {
    elapse(1000);
    space.writeFailed(full(), log);
  }
  assert.equal(lines.length, 1, 'no line within the interval');
  elapse(6000);
  assert.deepEqual(lines.slice(1).map((l) => [l.level, l.msg, l.fields?.failed]), [['error', '4 writes failed: the store is out of space', 4]]);
  elapse(60_000);
  assert.equal(lines.length, 2, 'no line without failures');
  space.writeFailed(full(), log);
  assert.equal(lines.at(-1)!.msg, '1 write failed: the store is out of space', 'after a quiet interval, at once again');
});

it('is not ready after a failed write until a probe succeeds; a failed probe keeps it not ready; the count left is logged on recovery', async () => {
  const { log, lines } = logger();
  const space = createStoreSpace({ intervalMs: 10_000, now: () => clock });
  let probes = 0;
  assert.equal(await space.hasRoom(async () => void probes++), true);
  assert.equal(probes, 0, 'no probe while no write failed');
  space.writeFailed(full(), log);
  space.writeFailed(full(), log);
  space.writeFailed(full(), log);
  assert.equal(space.full, true);
  assert.equal(
    await space.hasRoom(async () => {
      probes++;
      throw full();
    }),
    false,
  );
  await assert.rejects(
    space.hasRoom(async () => {
      throw new StoreUnavailableError();
    }),
    StoreUnavailableError,
    'a probe that cannot reach the store says so',
  );
  assert.equal(space.full, true);
  assert.equal(await space.hasRoom(async () => void probes++), true);
  assert.equal(space.full, false);
  assert.equal(probes, 2);
  const counts = lines.filter((l) => l.level === 'error').map((l) => l.fields?.failed);
  assert.deepEqual(counts, [1, 2], 'each failed write is counted in exactly one line');
  assert.equal(lines.at(-1)!.level, 'info');
  assert.match(lines.at(-1)!.msg, /takes writes again/);
});

it('concurrent readiness checks share one probe, and a write that fails during the probe keeps the instance not ready', async () => {
  const { log } = logger();
  const space = createStoreSpace({ now: () => clock });
  space.writeFailed(full(), log);
  let release!: () => void;
  let probes = 0;
  const probe = () => {
    probes++;
    return new Promise<void>((resolve) => (release = resolve));
  };
  const first = space.hasRoom(probe);
  const second = space.hasRoom(probe);
  assert.equal(probes, 1);
  space.writeFailed(full(), log);
  release();
  assert.deepEqual(await Promise.all([first, second]), [false, false]);
  assert.equal(space.full, true);
  assert.equal(await space.hasRoom(async () => {}), true);
});

it('logs the count left when it closes', () => {
  const { log, lines } = logger();
  const space = createStoreSpace({ now: () => clock });
  space.writeFailed(full(), log);
  space.writeFailed(full(), log);
  space.close();
  assert.deepEqual(lines.map((l) => l.fields?.failed), [1, 1]);
  elapse(60_000);
  assert.equal(lines.length, 2, 'the timer was stopped');
});
