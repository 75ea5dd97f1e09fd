/** Small helpers shared by the change-feed tests. */
import { fieldsOf, type User, type UserFields } from '../../src/users/user.js';

/** The writable fields of `user` with `overrides`: what a replace takes. */
export function edit(user: User, overrides: Partial<UserFields>): UserFields {
  return { ...fieldsOf(user), ...overrides };
}
