/**
 * Which users of a restored snapshot a newer export shows deleted (`user-service restore
 * --erase-missing-from EXPORT`, docs/security.md "Erasure and backups"): a user of the
 * snapshot that the export does not hold was deleted after the snapshot was made, if the
 * export was made after it. Nothing in an export says when it was made, so that is checked
 * from what it holds, and a doubt refuses the restore (default deny: erasing a user the
 * export merely predates would lose it):
 * - a user both hold must be at the same or a later version in the export;
 * - a user the export lacks must have been last written before a write the export shows it
 *   was made after: the export holds some user at a later version than the snapshot (so it was
 *   made after the snapshot), or at the snapshot's version whose write came later in the
 *   snapshot's change feed (`users.event_position`). Feed positions are the store's own order
 *   of writes; `updated_at` is not (an import keeps the `updated_at` of the records it creates,
 *   earlier or later than the time it runs), so an export of another store, or one made before
 *   an import, shows no such write and is refused;
 * - and, as well, before the newest write the export shows (`updated_at`).
 * The rules can refuse a sound export (one whose newest writes were all to users deleted
 * since); the operator then names the users with --erase-from.
 */
import { BackupRefusedError } from './store-backup.js';

/** What restore reads of a newer export: each user's version, and the newest `updated_at` among them. */
export interface NewerExport {
  /** The export's file, for messages. */
  readonly file: string;
  readonly versions: ReadonlyMap<string, number>;
  /** The latest `updated_at` in the export (RFC 3339 UTC, as the service writes it); undefined for an export of no user. */
  readonly newest: string | undefined;
}

export interface SnapshotUser {
  uid: string;
  version: number;
  updated_at: string;
  /** The change-feed position of the user's latest write in the snapshot (users.event_position); null when unknown. */
  position: number | null;
}

/** The uids of `users` (a snapshot's) that `newer` shows deleted since; refuses an export that may be older. */
export function deletedSince(users: Iterable<SnapshotUser>, newer: NewerExport): string[] {
  const refuse = (why: string) =>
    new BackupRefusedError(`${newer.file} may be older than the snapshot: ${why}; nothing was changed. Give an export made after the snapshot, or name the users to erase with --erase-from`);
  const missing: SnapshotUser[] = [];
  // Made after the snapshot: it holds a user at a later version. Otherwise, made after the write at `shown`.
  let afterSnapshot = false;
  let shown = 0;
  for (const user of users) {
    const version = newer.versions.get(user.uid);
    if (version === undefined) {
      missing.push(user);
      continue;
    }
    if (version < user.version) throw refuse(`user ${user.uid} is at version ${user.version} in the snapshot and ${version} in the export`);
    if (version > user.version) afterSnapshot = true;
    else if (user.position !== null && user.position > shown) shown = user.position;
  }
  for (const user of missing) {
    if (newer.newest === undefined) throw refuse('it holds no user, so it shows no deletion');
    if (user.updated_at >= newer.newest) throw refuse(`user ${user.uid}, written at ${user.updated_at}, is missing from it, and its newest write is of ${newer.newest}`);
    if (!afterSnapshot && (user.position === null || user.position >= shown)) {
      throw refuse(
        shown === 0
          ? `user ${user.uid} is missing from it, and it holds no user of the snapshot as the snapshot holds it or later (an export of another store?)`
          : `user ${user.uid} is missing from it, and was written after every user it holds at the snapshot's version (change-feed position ${user.position ?? 'unknown'}, after ${shown})`,
      );
    }
  }
  return missing.map((user) => user.uid);
}
