/**
 * A user read with its stored representation, parsed only when a member other than its uid
 * is read: a REST page sends the stored text as it is (representationOf() finds it without
 * reading the user), so its users are never parsed; a SCIM page, which reads every member,
 * parses each once. Users are never mutated (user-representation.ts), so the parsed object
 * stands for the user whole.
 */
import type { User } from './user.js';

export function lazyUser(uid: string, json: string): User {
  let parsed: User | undefined;
  const user = (): User => (parsed ??= JSON.parse(json) as User);
  return new Proxy({} as User, {
    get: (_target, key) => (key === 'uid' ? uid : Reflect.get(user(), key)),
    has: (_target, key) => Reflect.has(user(), key),
    ownKeys: () => Reflect.ownKeys(user()),
    getOwnPropertyDescriptor: (_target, key) => Reflect.getOwnPropertyDescriptor(user(), key),
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}
