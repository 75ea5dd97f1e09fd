import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { v7 as uuidv7 } from 'uuid';
import { decodeCursor, encodeCursor } from '../../src/users/search-cursor.js';

const key = randomBytes(32);

describe('search cursor', () => {
  it('round-trips the uid for the filters it was issued for', () => {
    const uid = uuidv7();
    assert.equal(decodeCursor(key, encodeCursor(key, uid, { prefix: 'al' }), { prefix: 'al' }), uid);
    assert.equal(decodeCursor(key, encodeCursor(key, uid, {}), {}), uid);
  });

  it('is refused for other filters and under another key', () => {
    const cursor = encodeCursor(key, uuidv7(), { username: 'a' });
    assert.equal(decodeCursor(key, cursor, { username: 'b' }), undefined);
    assert.equal(decodeCursor(key, cursor, {}), undefined);
    assert.equal(decodeCursor(key, cursor, { email_address: 'a' }), undefined);
    assert.equal(decodeCursor(randomBytes(32), cursor, { username: 'a' }), undefined);
  });

  it('refuses every cursor with one character changed, and any string it did not issue', () => {
    const issued = encodeCursor(key, uuidv7(), {});
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < issued.length; i++) {
      for (const c of alphabet) {
        if (c === issued[i]) continue;
        const altered = issued.slice(0, i) + c + issued.slice(i + 1);
        assert.equal(decodeCursor(key, altered, {}), undefined, altered);
      }
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => s === issued || decodeCursor(key, s, {}) === undefined),
      { numRuns: 2000, seed: 20261121 },
    );
  });
});
