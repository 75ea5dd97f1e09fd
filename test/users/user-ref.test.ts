import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ProblemError } from '../../src/http/problems.js';
import { canon } from '../../src/users/canonical.js';
import { LOOKUP_KEYS } from '../../src/users/user.js';
import { loggableRef, parseUserRef } from '../../src/users/user-ref.js';

const RUNS = { numRuns: 2000, seed: 20261121 };
const value = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).filter((v) => !v.includes('\u0000'));

function problemType(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof ProblemError ? error.problemType : 'not a problem';
  }
}

describe('parseUserRef', () => {
  it('splits at the first colon: the value keeps every further colon', () => {
    fc.assert(
      fc.property(fc.constantFrom('legacy_id' as const), value, (key, v) => {
        const ref = parseUserRef(`${key}:${v}`);
        return ref.kind === 'key' && ref.key === key && ref.value === v;
      }),
      RUNS,
    );
    assert.deepEqual(parseUserRef('legacy_id:crm:77:x'), { kind: 'key', key: 'legacy_id', value: 'crm:77:x' });
  });

  it('compares username and email address in canonical form, legacy ids exactly, uids in lower case', () => {
    fc.assert(
      fc.property(value, (v) => {
        const u = parseUserRef(`username:${v}`);
        const e = parseUserRef(`email_address:${v}`);
        return u.kind === 'key' && u.value === canon(v) && e.kind === 'key' && e.value === canon(v);
      }),
      RUNS,
    );
    assert.deepEqual(parseUserRef('uid:01937F4E-8C2A-7B3D-9E4F-0A1B2C3D4E5F'), { kind: 'key', key: 'uid', value: '01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f' });
    assert.deepEqual(parseUserRef('01937F4E-8C2A-7B3D-9E4F-0A1B2C3D4E5F'), { kind: 'uid', uid: '01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f' });
  });

  it('a segment without a colon is a uid', () => {
    fc.assert(
      fc.property(value.filter((v) => !v.includes(':')), (v) => {
        const ref = parseUserRef(v);
        return ref.kind === 'uid' && ref.uid === v.toLowerCase();
      }),
      RUNS,
    );
  });

  it('rejects any key outside the four allowed ones with invalid-lookup-key', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }).filter((k) => !k.includes(':') && !k.includes('\u0000') && !(LOOKUP_KEYS as readonly string[]).includes(k)), value, (k, v) => {
        return problemType(() => parseUserRef(`${k}:${v}`)) === 'invalid-lookup-key';
      }),
      RUNS,
    );
  });

  it('rejects an empty value and any U+0000 with malformed-request', () => {
    for (const key of LOOKUP_KEYS) assert.equal(problemType(() => parseUserRef(`${key}:`)), 'malformed-request');
    assert.equal(problemType(() => parseUserRef('username:a\u0000b')), 'malformed-request');
    assert.equal(problemType(() => parseUserRef('\u0000')), 'malformed-request');
  });
});

describe('loggableRef', () => {
  it('shows a uid, the key name of a lookup, and nothing of any value', () => {
    assert.equal(loggableRef('01937F4E-8C2A-7B3D-9E4F-0A1B2C3D4E5F'), '01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f');
    assert.equal(loggableRef('email_address:alice@example.com'), 'email_address:…');
    assert.equal(loggableRef('legacy_id:crm:77'), 'legacy_id:…');
    assert.equal(loggableRef('alice@example.com'), '…', 'a segment that is no uid is not shown');
    assert.equal(loggableRef('alice@example.com:x'), '…:…', 'an unknown key name could itself be an address');
  });

  it('never returns text of the value, whatever the segment', () => {
    fc.assert(
      fc.property(fc.constantFrom(...LOOKUP_KEYS, 'nokey', ''), value, (key, v) => {
        const shown = loggableRef(`${key}:${v}`);
        return shown === `${key}:…` || shown === '…:…';
      }),
      RUNS,
    );
  });
});
