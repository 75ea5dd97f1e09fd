import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { canon, prefixUpperBound } from '../../src/users/canonical.js';

const RUNS = { numRuns: 2000, seed: 20261121 };

describe('canon (RFC 8265 UsernameCaseMapped)', () => {
  it('is idempotent for every string: canon(canon(x)) === canon(x)', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (x) => canon(canon(x)) === canon(x)), RUNS);
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (x) => canon(canon(x)) === canon(x)), RUNS);
  });

  it('maps width, then case, then NFC: ＢＯＢ, Bob and bob are one key', () => {
    assert.equal(canon('ＢＯＢ'), 'bob');
    assert.equal(canon('Bob'), 'bob');
    assert.equal(canon('bob'), 'bob');
    assert.equal(canon('Ａlice＠Ｅxample.com'), 'alice@example.com');
    // Halfwidth katakana map to their standard forms and compose under NFC.
    assert.equal(canon('ｶﾞ'), 'ガ');
    // Decomposed and precomposed forms agree.
    assert.equal(canon('E\u0301mile'), canon('Émile'));
    assert.equal(canon('Émile'), 'émile');
  });

  it('lower-cases rather than case-folds, as RFC 8265 specifies: ᾀ and its upper case ἈΙ stay distinct', () => {
    assert.equal(canon('ᾀ'), 'ᾀ');
    assert.equal(canon('ἈΙ'), 'ἀι');
    assert.equal(canon('Straße'), 'straße');
    assert.notEqual(canon('STRASSE'), canon('Straße'));
  });

  it('never depends on the locale (Turkish dotted I folds the default way)', () => {
    assert.equal(canon('I'), 'i');
    assert.equal(canon('İ'), 'i\u0307');
  });

  it('takes ASCII by its shortcut to the same form the full mapping gives (width, lower case, NFC until it holds)', () => {
    const full = (x: string) => {
      let current = x;
      for (let i = 0; i < 5; i++) current = current.replace(/[\u3000\uFF01-\uFFEE]/gu, (ch) => ch.normalize('NFKC')).toLowerCase().normalize('NFC');
      return current;
    };
    fc.assert(fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 40 }), (x) => canon(x) === full(x)), RUNS);
    // One character past ASCII takes the full mapping.
    assert.equal(canon('ÀDAM'), 'àdam');
    assert.equal(canon('ＡDAM'), 'adam');
  });

  it('agrees with a case-insensitive ASCII comparison on ASCII input', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abcXYZ09._-@+'.split('')), maxLength: 30 }), (x) => canon(x.toUpperCase()) === canon(x.toLowerCase())),
      RUNS,
    );
  });
});

describe('prefixUpperBound', () => {
  const codePointOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

  it('bounds exactly the strings that start with the prefix, in UTF-8 byte order', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 6 }), (prefix, other) => {
        const upper = prefixUpperBound(prefix);
        const inRange = codePointOrder(other, prefix) >= 0 && (upper === undefined || codePointOrder(other, upper) < 0);
        return inRange === other.startsWith(prefix);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 6 }), (prefix, rest) => {
        const upper = prefixUpperBound(prefix);
        return upper === undefined || codePointOrder(prefix + rest, upper) < 0;
      }),
      RUNS,
    );
  });

  it('carries past U+10FFFF and skips the surrogate range', () => {
    assert.equal(prefixUpperBound('ab'), 'ac');
    assert.equal(prefixUpperBound('a\u{10FFFF}'), 'b');
    assert.equal(prefixUpperBound('\u{10FFFF}'), undefined);
    assert.equal(prefixUpperBound('a\uD7FF'), 'a\uE000');
  });
});
