/** Page marks of list walks (src/store/page-marks.ts) as kept in memory: per key, for a bounded time. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MARK_TTL_MS, MemoryPageMarks } from '../../src/store/page-marks.js';

describe('page marks in memory', () => {
  it('a mark continues its walk until MARK_TTL_MS after it was set; later there is none, and the page is found among the current users', () => {
    const marks = new MemoryPageMarks(10);
    marks.set('q@101', { after: 'u100', total: 500 }, 1_000_000);
    assert.deepEqual(marks.get('q@101', 1_000_000 + MARK_TTL_MS - 1), { after: 'u100', total: 500 });
    assert.equal(marks.get('q@101', 1_000_000 + MARK_TTL_MS), undefined);
  });

  it('marks are per key; the oldest set is forgotten beyond the capacity', () => {
    const marks = new MemoryPageMarks(2);
    marks.set('a', { after: 'x', total: 1 }, 0);
    marks.set('b', { after: 'y', total: 1 }, 0);
    assert.equal(marks.get('c', 0), undefined);
    marks.set('c', { after: 'z', total: 1 }, 0);
    assert.equal(marks.get('a', 0), undefined, 'the first set is the first forgotten');
    assert.equal(marks.get('b', 0)?.after, 'y');
    assert.equal(marks.get('c', 0)?.after, 'z');
  });
});
