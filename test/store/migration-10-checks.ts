/** What migration 10 must have done to records written before it, on either store: a later delete still erases them. */
import assert from 'node:assert/strict';
import { ERASED_FINGERPRINT, erasedEventData } from '../../src/store/erasure.js';
import type { UserStore } from '../../src/store/user-store.js';
import { userBefore8 } from './migration-8-checks.js';

/** The user written before migration 10, its create's stored answer (scope `client-a`, key `k-create`) and its event (position 1). */
export function recordsBefore10(uid: string) {
  const user = userBefore8(uid);
  return {
    user,
    event: { type: 'user.created', subject: uid, time: user.created_at, data: JSON.stringify(user) },
    answer: { scope: 'client-a', key: 'k-create', fingerprint: 'fp-create', status: 201, headers: JSON.stringify({ 'content-type': 'application/json' }), body: JSON.stringify(user) },
  };
}

export async function assertErasedAfter10(store: UserStore, uid: string): Promise<void> {
  const now = Date.now();
  const kept = await store.findIdempotency('client-a', 'k-create', now);
  assert.equal(kept?.fingerprint, 'fp-create', 'the answer is kept as it was until the user is deleted');
  const [event] = (await store.events.read(0, 10)).events;
  assert.equal(event?.origin, undefined, 'an event written before origins were kept has none');
  assert.equal((await store.delete(uid)).status, 'ok');
  const erased = await store.findIdempotency('client-a', 'k-create', now);
  assert.equal(erased?.fingerprint, ERASED_FINGERPRINT, 'the answer found through the subject migration 10 filled in is a tombstone');
  assert.equal(erased?.response.body, '');
  await store.events.settle();
  const events = (await store.events.read(0, 10)).events;
  assert.equal(events[0]?.data, erasedEventData(uid, 3), 'the event written before migration 10 is erased');
  assert.equal(events[1]?.type, 'user.deleted');
}
