/**
 * Which users of a restored snapshot a newer export shows deleted (`user-service restore
 * --erase-missing-from EXPORT`, docs/security.md "Erasure and backups"): a user of the
 * snapshot that the export does not hold was deleted after the snapshot was made, if the
 * export was made after it. Nothing in an export says when it was made, so that is checked
 * from what it holds, and a doubt refuses the restore (default deny: erasing a user the
 * export merely predates would lose it):
 * - a user both hold must be at the same or a later version in the export;
 * - a user the export lacks must have been last written before the newest write the export
 *   shows (`updated_at`): a user created or changed after an export was made is absent
 *   from it for that reason, and would otherwise be erased.
 * The second rule can refuse a sound export (one whose newest writes were all to users
 * deleted since); the operator then names the users with --erase-from.
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
}

/** The uids of `users` (a snapshot's) that `newer` shows deleted since; refuses an export that may be older. */
export function deletedSince(users: Iterable<SnapshotUser>, newer: NewerExport): string[] {
  const refuse = (why: string) =>
    new BackupRefusedError(`${newer.file} may be older than the snapshot: ${why}; nothing was changed. Give an export made after the snapshot, or name the users to erase with --erase-from`);
  const deleted: string[] = [];
  for (const user of users) {
    const version = newer.versions.get(user.uid);
    if (version !== undefined) {
      if (version < user.version) throw refuse(`user ${user.uid} is at version ${user.version} in the snapshot and ${version} in the export`);
      continue;
    }
    if (newer.newest === undefined) throw refuse('it holds no user, so it shows no deletion');
    if (user.updated_at >= newer.newest) throw refuse(`user ${user.uid}, written at ${user.updated_at}, is missing from it, and its newest write is of ${newer.newest}`);
    deleted.push(user.uid);
  }
  return deleted;
}
