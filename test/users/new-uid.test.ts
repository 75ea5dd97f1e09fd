/**
 * New uids (src/users/new-uid.ts): UUIDv7 from pooled randomness, in creation
 * order within a process even when many are made in one millisecond.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createUidGenerator } from '../../src/users/new-uid.js';
import { isUid } from '../../src/users/user.js';

it('makes valid, distinct UUIDv7s in strictly increasing order, across pool refills and many in one millisecond', () => {
  const next = createUidGenerator();
  const uids = Array.from({ length: 5000 }, next);
  for (const uid of uids) assert.ok(isUid(uid), uid);
  assert.equal(new Set(uids).size, uids.length);
  for (let i = 1; i < uids.length; i++) assert.ok(uids[i - 1]! < uids[i]!, `${uids[i - 1]} < ${uids[i]}`);
  // 5,000 uids take far less than 5,000 ms: some shared a millisecond and were ordered by the counter.
  const millis = new Set(uids.map((uid) => uid.slice(0, 13)));
  assert.ok(millis.size < uids.length, 'several uids per millisecond');
});

it('stamps the current time in the first 48 bits', () => {
  const before = Date.now();
  const uid = createUidGenerator()();
  const after = Date.now();
  const stamped = parseInt(uid.replace(/-/g, '').slice(0, 12), 16);
  assert.ok(stamped >= before && stamped <= after, `${stamped} in [${before}, ${after}]`);
});

it('two generators draw different random parts', () => {
  const [a, b] = [createUidGenerator()(), createUidGenerator()()];
  assert.notEqual(a.slice(14), b.slice(14));
});
