/** Small helpers shared by the change-feed tests. */
import type { User, UserFields } from '../../src/users/user.js';

/** The writable fields of `user` with `overrides`: what a replace takes. */
export function edit(user: User, overrides: Partial<UserFields>): UserFields {
  const { username, email_address, legacy_ids, display_name, attributes } = user;
  return { username, email_address, legacy_ids, display_name, attributes, ...overrides };
}
