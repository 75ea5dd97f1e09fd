/** The page marks of SCIM list walks (src/scim/scim-query.ts): kept per query and start, for a bounded time. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MARK_TTL_MS, PageMarks } from '../../src/scim/scim-query.js';

describe('SCIM page marks', () => {
  it('a mark continues its walk until MARK_TTL_MS after it was set; later the page is found among the current users', () => {
    let now = 1_000_000;
    const marks = new PageMarks(10, () => now);
    marks.set('q', 101, { after: 'u100', total: 500 });
    now += MARK_TTL_MS - 1;
    assert.deepEqual(marks.get('q', 101), { after: 'u100', total: 500, at: 1_000_000 });
    now += 1;
    assert.equal(marks.get('q', 101), undefined);
  });

  it('marks are per query and start; the oldest is forgotten beyond the capacity', () => {
    const marks = new PageMarks(2, () => 0);
    marks.set('a', 11, { after: 'x', total: 1 });
    marks.set('b', 11, { after: 'y', total: 1 });
    assert.equal(marks.get('a', 21), undefined);
    assert.equal(marks.get('a', 11)?.after, 'x');
    marks.set('c', 11, { after: 'z', total: 1 });
    assert.equal(marks.get('a', 11), undefined, 'the first set is the first forgotten');
    assert.equal(marks.get('b', 11)?.after, 'y');
    assert.equal(marks.get('c', 11)?.after, 'z');
  });
});
