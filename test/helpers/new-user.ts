/** A user as a store's create takes it: a fresh uid, `name` as its username and email local part, version 1, stamped `now`. */
import { v7 as uuidv7 } from 'uuid';
import { withDefaults, type User, type UserFields } from '../../src/users/user.js';

export function newUser(name: string, now = new Date().toISOString(), overrides: Partial<UserFields> = {}): User {
  return withDefaults({
    uid: uuidv7(),
    username: name,
    email_address: `${name}@example.com`,
    legacy_ids: [],
    display_name: null,
    attributes: {},
    created_at: now,
    updated_at: now,
    version: 1,
    ...overrides,
  });
}
