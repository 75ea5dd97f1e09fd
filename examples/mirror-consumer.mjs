/**
 * Keeps a copy of every user of a user service, current within moments
 * (docs/events.md, "Mirroring the users"): list the users, then follow the
 * change feed after the listing's Feed-Position, applying each event by
 * version; on a 410 (the position is older than retention), list again.
 *
 *   USERS_URL=http://127.0.0.1:8080 USERS_TOKEN=… node examples/mirror-consumer.mjs
 *
 * It mirrors into memory and prints a line per event applied; a real mirror
 * stores the copy and the last position in its own database, in one transaction.
 */
import { pathToFileURL } from 'node:url';
import { createUserClient, UserServiceError } from '@user-service/client';

/**
 * Applies one event to `replica` (a Map of uid → user) by version, so an event
 * the copy already reflects changes nothing. Returns whether the copy changed.
 */
export function applyEvent(replica, event) {
  const held = replica.get(event.subject);
  // The user has been deleted since this event, and its data erased (docs/security.md, "Erasure"):
  // its deletion comes later in the feed; the copy lets it go now.
  if (event.data.erased === true) return replica.delete(event.subject);
  if (event.type === 'user.deleted') {
    // The service never reuses a uid (only an import carrying one brings it back, with later events).
    if (held !== undefined && held.version > event.data.version) return false;
    return replica.delete(event.subject);
  }
  if (held !== undefined && held.version >= event.data.version) return false;
  replica.set(event.subject, event.data);
  return true;
}

/** Fills `replica` from a listing; resolves with the position of its first page, to follow after. */
export async function resync(users, replica) {
  replica.clear();
  let position;
  for await (const page of users.pages()) {
    position ??= page.position;
    for (const user of page.users) replica.set(user.uid, user);
  }
  return position ?? 0;
}

/**
 * Applies the events after `position` until `signal` aborts; lists again on a
 * 410. Resolves with the last position applied. `onEvent` hears each event.
 */
export async function follow(users, replica, position, { signal, onEvent } = {}) {
  while (!signal?.aborted) {
    try {
      for await (const event of users.events.follow({ after: position, signal })) {
        applyEvent(replica, event);
        position = Number(event.id);
        onEvent?.(event);
      }
    } catch (error) {
      if (!(error instanceof UserServiceError && error.status === 410)) throw error;
      position = await resync(users, replica);
    }
  }
  return position;
}

/** List, then follow: the whole recipe. */
export async function mirror(users, replica, options = {}) {
  return follow(users, replica, await resync(users, replica), options);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const users = createUserClient({ baseUrl: process.env.USERS_URL ?? 'http://127.0.0.1:8080', token: process.env.USERS_TOKEN });
  const replica = new Map();
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  const position = await mirror(users, replica, {
    signal: stop.signal,
    onEvent: (event) => console.log(`${event.id} ${event.type} ${event.subject} (${replica.size} users)`),
  });
  console.log(`stopped at position ${position} with ${replica.size} users`);
}
