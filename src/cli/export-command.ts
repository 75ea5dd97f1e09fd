/**
 * `user-service export`: every user in uid order, as JSON Lines (the user
 * resource, one per line) or CSV (the import columns), streamed page by page with
 * keyset paging, so memory stays flat. Importing the output into an empty store
 * gives the same users (uid, timestamps and version included).
 */
import { once } from 'node:events';
import { stringify } from 'csv-stringify/sync';
import type { UserStore } from '../store/user-store.js';
import type { User } from '../users/user.js';
import { profileColumn } from '../users/user-profile.js';

/** `profile` holds the profile members that are set, as a JSON object of their REST names (docs/api.md). */
export const CSV_COLUMNS = ['uid', 'username', 'email_address', 'legacy_ids', 'external_id', 'active', 'display_name', 'profile', 'attributes', 'created_at', 'updated_at', 'version'] as const;

const PAGE = 1000;

function csvRow(user: User): string {
  if (user.legacy_ids.some((id) => id.includes(';'))) {
    throw new Error(`user ${user.uid} has a legacy id containing ';', which the CSV column cannot carry: export as jsonl`);
  }
  return stringify([
    [
      user.uid,
      user.username,
      user.email_address,
      user.legacy_ids.join(';'),
      user.external_id ?? '',
      String(user.active),
      user.display_name ?? '',
      profileColumn(user),
      JSON.stringify(user.attributes),
      user.created_at,
      user.updated_at,
      user.version,
    ],
  ]);
}

export interface ExportResult {
  count: number;
  /**
   * The change-feed position of the first page: every event at or below it is
   * reflected in the export, so a mirror loaded from it follows the feed after
   * it (docs/events.md). Later pages may reflect later events too; applying
   * events by version makes that harmless.
   */
  position: number;
}

/** Writes every user to `out`. Waits for `out` to drain, never buffering more than a page. */
export async function exportUsers(store: UserStore, format: 'jsonl' | 'csv', out: NodeJS.WritableStream): Promise<ExportResult> {
  if (format === 'csv') out.write(stringify([[...CSV_COLUMNS]]));
  let after: string | undefined;
  let count = 0;
  let position: number | undefined;
  for (;;) {
    const page = await store.search({ filter: {}, ...(after ? { after } : {}), limit: PAGE });
    position ??= page.position;
    for (const user of page.value) {
      const ok = out.write(format === 'csv' ? csvRow(user) : `${JSON.stringify(user)}\n`);
      if (!ok) await once(out, 'drain');
    }
    count += page.value.length;
    if (page.value.length < PAGE) return { count, position };
    after = page.value[page.value.length - 1]!.uid;
  }
}
