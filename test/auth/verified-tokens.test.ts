/**
 * The cache of verified tokens: a token that verified is not verified again until
 * it expires or MAX_AGE_MS passes; a refused token is verified every time; the
 * cache holds at most MAX_ENTRIES tokens. The clock is the test's own.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Credential, TokenVerifier } from '../../src/auth/credential.js';
import { MAX_AGE_MS, MAX_ENTRIES, rememberVerified } from '../../src/auth/verified-tokens.js';

function counting(verify: (token: string) => Credential | undefined) {
  const calls: string[] = [];
  const verifier: TokenVerifier = (token) => {
    calls.push(token);
    return verify(token);
  };
  return { verifier, calls };
}

const reader: Credential = { id: 'reader', scopes: new Set(['users:read']) };

describe('rememberVerified', () => {
  it('verifies a good token once until MAX_AGE_MS has passed, a refused one every time', () => {
    let clock = 1_000_000;
    const { verifier, calls } = counting((token) => (token === 'good' ? reader : undefined));
    const verify = rememberVerified(verifier, () => clock);
    assert.equal(verify('good'), reader);
    assert.equal(verify('good'), reader);
    assert.equal(verify('bad'), undefined);
    assert.equal(verify('bad'), undefined);
    assert.deepEqual(calls, ['good', 'bad', 'bad']);
    clock += MAX_AGE_MS - 1;
    verify('good');
    assert.equal(calls.length, 3, 'still remembered just before MAX_AGE_MS');
    clock += 1;
    verify('good');
    assert.equal(calls.length, 4, 'verified again once MAX_AGE_MS has passed');
  });

  it('forgets a credential when it expires, and never keeps one already expired', () => {
    let clock = 5_000;
    const { verifier, calls } = counting((token) => ({ id: token, scopes: new Set(), expiresAt: token === 'short' ? 6_000 : 4_000 }));
    const verify = rememberVerified(verifier, () => clock);
    verify('short');
    verify('short');
    assert.equal(calls.length, 1);
    clock = 6_000;
    verify('short');
    assert.equal(calls.length, 2, 'verified again at its expiry');
    verify('stale');
    verify('stale');
    assert.equal(calls.filter((t) => t === 'stale').length, 2, 'an expired credential is not remembered');
  });

  it('remembers what an asynchronous verifier resolved, and answers it synchronously afterwards', async () => {
    const calls: string[] = [];
    const verify = rememberVerified(async (token) => {
      calls.push(token);
      return reader;
    });
    const first = verify('jwt');
    assert.ok(first instanceof Promise);
    assert.equal(await first, reader);
    assert.equal(verify('jwt'), reader, 'a plain value: no promise per request');
    assert.deepEqual(calls, ['jwt']);
  });

  it('holds at most MAX_ENTRIES tokens, forgetting the oldest first', () => {
    const { verifier, calls } = counting((token) => ({ id: token, scopes: new Set() }));
    const verify = rememberVerified(verifier, () => 0);
    for (let i = 0; i <= MAX_ENTRIES; i++) verify(`t${i}`);
    calls.length = 0;
    verify(`t${MAX_ENTRIES}`);
    verify('t1');
    assert.deepEqual(calls, [], 'the newest are remembered');
    verify('t0');
    assert.deepEqual(calls, ['t0'], 'the oldest was forgotten');
  });
});
