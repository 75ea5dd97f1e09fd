/**
 * The opaque search cursor: the last uid of a page, bound to the filters it was
 * issued for. A cursor that does not decode, or that was issued for other
 * filters, is refused (CONTRACT §4: "a cursor that was not issued by the service").
 *
 * Layout (base64url): 1 byte format version, 16 bytes uid, 8 bytes of SHA-256 over
 * the compared filters.
 */
import { createHash } from 'node:crypto';
import type { SearchFilter } from '../store/user-store.js';

const FORMAT = 1;
const LENGTH = 1 + 16 + 8;

function fingerprint(filter: SearchFilter): Buffer {
  const ordered = [filter.username, filter.email_address, filter.legacy_id, filter.prefix];
  return createHash('sha256').update(JSON.stringify(ordered)).digest().subarray(0, 8);
}

export function encodeCursor(afterUid: string, filter: SearchFilter): string {
  const bytes = Buffer.alloc(LENGTH);
  bytes[0] = FORMAT;
  Buffer.from(afterUid.replace(/-/g, ''), 'hex').copy(bytes, 1);
  fingerprint(filter).copy(bytes, 17);
  return bytes.toString('base64url');
}

/** The uid a cursor continues after, or `undefined` if the cursor is not one this service issued for `filter`. */
export function decodeCursor(cursor: string, filter: SearchFilter): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length !== LENGTH || bytes[0] !== FORMAT || bytes.toString('base64url') !== cursor) return undefined;
  if (!bytes.subarray(17).equals(fingerprint(filter))) return undefined;
  const hex = bytes.subarray(1, 17).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
