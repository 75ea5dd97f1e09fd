import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { v7 as uuidv7 } from 'uuid';
import { decodeCursor, encodeCursor } from '../../src/users/search-cursor.js';

describe('search cursor', () => {
  it('round-trips the uid for the filters it was issued for', () => {
    const uid = uuidv7();
    assert.equal(decodeCursor(encodeCursor(uid, { prefix: 'al' }), { prefix: 'al' }), uid);
    assert.equal(decodeCursor(encodeCursor(uid, {}), {}), uid);
  });

  it('is refused for other filters', () => {
    const cursor = encodeCursor(uuidv7(), { username: 'a' });
    assert.equal(decodeCursor(cursor, { username: 'b' }), undefined);
    assert.equal(decodeCursor(cursor, {}), undefined);
    assert.equal(decodeCursor(cursor, { email_address: 'a' }), undefined);
  });

  it('refuses any string it did not issue', () => {
    const issued = encodeCursor(uuidv7(), {});
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => s === issued || decodeCursor(s, {}) === undefined),
      { numRuns: 2000, seed: 20261121 },
    );
    assert.equal(decodeCursor(`${issued}A`, {}), undefined);
    assert.equal(decodeCursor(issued.slice(1), {}), undefined);
  });
});
