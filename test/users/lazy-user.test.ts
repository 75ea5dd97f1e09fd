/**
 * A search page's user read lazily from its stored representation (src/users/lazy-user.ts):
 * the same user as the representation parsed, however it is read.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { lazyUser } from '../../src/users/lazy-user.js';

const json = JSON.stringify({ uid: 'u-1', username: 'ada', display_name: 'Ada Lovelace', attributes: { team: 'x' }, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-02T00:00:00.000Z', version: 2 });

it('reads as the representation parsed: members, keys, spread and JSON', () => {
  const user = lazyUser('u-1', json);
  const parsed = JSON.parse(json) as Record<string, unknown>;
  assert.equal(user.uid, 'u-1');
  assert.equal(user.display_name, 'Ada Lovelace');
  assert.deepEqual(Object.keys(user), Object.keys(parsed));
  assert.deepEqual({ ...user }, parsed);
  assert.equal(JSON.stringify(user), json);
  assert.equal('username' in user, true);
  assert.equal('email_address' in user, false);
});

it('its uid is read without parsing the text, and it cannot be changed', () => {
  // A text that is not JSON shows whether reading the uid parsed it.
  const user = lazyUser('u-2', '{not json');
  assert.equal(user.uid, 'u-2');
  assert.throws(() => user.username, SyntaxError);
  assert.throws(() => {
    (user as { username?: string }).username = 'x';
  }, TypeError);
});
