import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { v7 as uuidv7 } from 'uuid';
import { decodeCursor, encodeCursor, type CursorPosition } from '../../src/users/search-cursor.js';

const key = randomBytes(32);
const at = (uid: string, values: string[] = [], exact = false, ranked: string[] = []): CursorPosition => ({ uid, values, exact, ranked });

describe('search cursor', () => {
  it('round-trips the position for the search it was issued for', () => {
    const position = at(uuidv7(), ['garcia', '2026-01-31T12:00:00.000Z'], false);
    assert.deepEqual(decodeCursor(key, encodeCursor(key, position, 'search-a'), 'search-a'), position);
    const exact = at(uuidv7(), ['josé "quoted" \\ text'], true, [uuidv7(), uuidv7()]);
    assert.deepEqual(decodeCursor(key, encodeCursor(key, exact, ''), ''), exact);
  });

  it('is refused for another search and under another key', () => {
    const cursor = encodeCursor(key, at(uuidv7()), 'search-a');
    assert.equal(decodeCursor(key, cursor, 'search-b'), undefined);
    assert.equal(decodeCursor(key, cursor, ''), undefined);
    assert.equal(decodeCursor(randomBytes(32), cursor, 'search-a'), undefined);
  });

  it('refuses a format 1 cursor (uid order, before sorting existed)', () => {
    const head = Buffer.alloc(17);
    head[0] = 1;
    assert.equal(decodeCursor(key, Buffer.concat([head, randomBytes(12)]).toString('base64url'), ''), undefined);
  });

  it('refuses every cursor with one character changed, and any string it did not issue', () => {
    const issued = encodeCursor(key, at(uuidv7(), ['x']), '');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < issued.length; i++) {
      for (const c of alphabet) {
        if (c === issued[i]) continue;
        const altered = issued.slice(0, i) + c + issued.slice(i + 1);
        assert.equal(decodeCursor(key, altered, ''), undefined, altered);
      }
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => s === issued || decodeCursor(key, s, '') === undefined),
      { numRuns: 2000, seed: 20261121 },
    );
  });
});
