/**
 * The opaque search cursor: where the next page starts (the last user of the page: its
 * uid, its sort values, and whether it was one of the exact matches a `q` ranks first),
 * signed together with the search it was issued for. A cursor that does not decode, was
 * altered, was made up, or was issued for another search (other filters or another sort)
 * is refused (CONTRACT §4: "a cursor that was not issued by the service" is a 400).
 *
 * Layout (base64url): 1 byte format version (2), the position as JSON
 * (`[exact, uid, ranked uids, ...sort values]`), then 12 bytes of HMAC-SHA-256 over (format, position,
 * search) under the store's cursor key, which every instance sharing the store shares.
 * Cursors of format 1 (uid order only, issued before sorting existed) are no longer
 * accepted: a walk that spans the upgrade starts again.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const FORMAT = 2;
const TAG = 12;

/** Where a page starts: strictly after this user in the search's order. */
export interface CursorPosition {
  uid: string;
  /** Its values of the sort keys, one per key. */
  values: string[];
  /** Whether it is among the exact matches of `q`, served before the rest. */
  exact: boolean;
  /**
   * The uids of the exact matches of `q` when the walk began: served first and left out of
   * the rest for the whole walk, so a user who becomes or stops being one during the walk is
   * still visited once.
   */
  ranked: string[];
}

function tag(key: Buffer, head: Buffer, search: string): Buffer {
  return createHmac('sha256', key).update(head).update(search).digest().subarray(0, TAG);
}

/** A cursor for `position` in the search `search` (a canonical text of its filters and sort). */
export function encodeCursor(key: Buffer, position: CursorPosition, search: string): string {
  const head = Buffer.concat([Buffer.from([FORMAT]), Buffer.from(JSON.stringify([position.exact, position.uid, position.ranked, ...position.values]))]);
  return Buffer.concat([head, tag(key, head, search)]).toString('base64url');
}

/** The position a cursor continues after, or `undefined` if this service did not issue it for `search`. */
export function decodeCursor(key: Buffer, cursor: string, search: string): CursorPosition | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length <= TAG + 1 || bytes[0] !== FORMAT || bytes.toString('base64url') !== cursor) return undefined;
  const head = bytes.subarray(0, bytes.length - TAG);
  if (!timingSafeEqual(bytes.subarray(bytes.length - TAG), tag(key, head, search))) return undefined;
  // Signed by this service: the JSON is what encodeCursor() wrote.
  const [exact, uid, ranked, ...values] = JSON.parse(head.subarray(1).toString('utf8')) as [boolean, string, string[], ...string[]];
  return { uid, values, exact, ranked };
}
