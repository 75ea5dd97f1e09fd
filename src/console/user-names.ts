/** The console's types, as the service's OpenAPI document generates them; and how it names a user. */
import type { components } from '../../packages/client/src/openapi-types.js';

export type User = components['schemas']['User'];
/** One change event (CloudEvents), as the feed and a user's history answer it. */
export type UserEvent = components['schemas']['UserEvent'];

/** An event's data as plain fields: the user, or its uid and version (deleted; `erased` once personal data is gone). */
export const dataOf = (event: UserEvent): Record<string, unknown> => event.data as Record<string, unknown>;

export function nameOf(user: Pick<User, 'username' | 'display_name' | 'name'>): string {
  const parts = [user.name?.given_name, user.name?.family_name].filter(Boolean).join(' ');
  return user.display_name || user.name?.formatted || parts || user.username;
}
