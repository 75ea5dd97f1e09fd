/** What migration 8 must have done to a user written before it, on either store. */
import assert from 'node:assert/strict';
import type { UserStore } from '../../src/store/user-store.js';
import { withDefaults, type User } from '../../src/users/user.js';
import { etagOf } from '../../src/users/user-etag.js';
import { representationOf } from '../../src/users/user-representation.js';

/** A user as the release before migration 8 wrote it; its keys are username `kept`, email `kept@example.com`, legacy id `k:1`. */
export function userBefore8(uid: string) {
  return { uid, username: 'Kept', email_address: 'Kept@Example.com', legacy_ids: ['k:1'], display_name: 'Kept', attributes: { a: 1 }, created_at: '2020-01-01T00:00:00.000Z', updated_at: '2021-01-01T00:00:00.000Z', version: 3 };
}

export async function assertMigratedTo8(store: UserStore, before: ReturnType<typeof userBefore8>): Promise<void> {
  const { uid } = before;
  const user = (await store.findByKey('uid', uid)) as User;
  assert.deepEqual(user, { ...withDefaults(before), emails: [{ value: 'Kept@Example.com', primary: true }] });
  const stored = (await store.lookup('username', 'kept')).value as { json: string; etag: string };
  assert.equal(stored.json, representationOf(structuredClone(user)).json, 'the stored representation carries the new members');
  assert.equal(stored.etag, etagOf(before), 'the ETag is unchanged: the user did not change');
  assert.deepEqual((await store.search({ filter: { email: 'kept@example.com' }, limit: 10 })).value.map((u) => u.uid), [uid], 'its address is in the email index');
  assert.deepEqual((await store.search({ filter: { active: true }, limit: 10 })).value.map((u) => u.uid), [uid]);
  assert.equal((await store.replace(uid, { ...user, external_id: 'ext-1' }, new Date().toISOString())).status, 'ok', 'user_keys takes the new key kind');
  assert.deepEqual((await store.search({ filter: { external_id: 'ext-1' }, limit: 10 })).value.map((u) => u.uid), [uid]);
}
