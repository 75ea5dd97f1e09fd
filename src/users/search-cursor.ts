/**
 * The opaque search cursor: the last uid of a page, signed together with the
 * filters it was issued for. A cursor that does not decode, was altered, was made
 * up, or was issued for other filters is refused (CONTRACT §4: "a cursor that
 * was not issued by the service" is a 400).
 *
 * Layout (base64url): 1 byte format version, 16 bytes uid, 12 bytes of
 * HMAC-SHA-256 over (format, uid, filters) under the store's cursor key, which
 * every instance sharing the store shares.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SearchFilter } from '../store/user-store.js';

const FORMAT = 1;
const UID_END = 1 + 16;
const LENGTH = UID_END + 12;

function tag(key: Buffer, head: Buffer, filter: SearchFilter): Buffer {
  const named: unknown[] = [filter.username, filter.email_address, filter.legacy_id, filter.prefix];
  // Filters added later are signed only when used, so cursors issued before them stay valid.
  if (filter.external_id !== undefined || filter.active !== undefined) named.push(filter.external_id, filter.active);
  const filters = JSON.stringify(named);
  return createHmac('sha256', key).update(head).update(filters).digest().subarray(0, LENGTH - UID_END);
}

export function encodeCursor(key: Buffer, afterUid: string, filter: SearchFilter): string {
  const head = Buffer.alloc(UID_END);
  head[0] = FORMAT;
  Buffer.from(afterUid.replace(/-/g, ''), 'hex').copy(head, 1);
  return Buffer.concat([head, tag(key, head, filter)]).toString('base64url');
}

/** The uid a cursor continues after, or `undefined` if this service did not issue it for `filter`. */
export function decodeCursor(key: Buffer, cursor: string, filter: SearchFilter): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length !== LENGTH || bytes[0] !== FORMAT || bytes.toString('base64url') !== cursor) return undefined;
  const head = bytes.subarray(0, UID_END);
  if (!timingSafeEqual(bytes.subarray(UID_END), tag(key, head, filter))) return undefined;
  const hex = head.subarray(1).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
