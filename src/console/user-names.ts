/** How the console names a user: the display name, else the name parts, else the username. */
import type { components } from '../../packages/client/src/openapi-types.js';

export type User = components['schemas']['User'];

export function nameOf(user: Pick<User, 'username' | 'display_name' | 'name'>): string {
  const parts = [user.name?.given_name, user.name?.family_name].filter(Boolean).join(' ');
  return user.display_name || user.name?.formatted || parts || user.username;
}
