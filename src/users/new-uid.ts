/**
 * New uids: UUIDv7 (RFC 9562), so that users created one after another sit
 * side by side in every index keyed by uid.
 *
 * uuid's own v7 asks the system's generator for 16 bytes per uid (through
 * WebCrypto's getRandomValues, 2–13 µs a call, the largest single item of a
 * create's profile). Here the random part comes from a pool refilled once per
 * 1,024 uids, and the counter that keeps uids of one millisecond in creation
 * order (RFC 9562 §6.2, method 1: a 32-bit counter seeded at random each
 * millisecond, carrying into the timestamp when it wraps) is kept here, as
 * uuid keeps it when called without options.
 */
import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

const POOL_UIDS = 1024;

export function createUidGenerator(): () => string {
  let pool = new Uint8Array(0);
  let at = 0;
  let msecs = -Infinity;
  let seq = 0;
  return () => {
    if (at + 16 > pool.length) {
      pool = randomFillSync(new Uint8Array(16 * POOL_UIDS));
      at = 0;
    }
    const random = pool.subarray(at, at + 16);
    at += 16;
    const now = Date.now();
    if (now > msecs) {
      // uuid's v7Sequence: 31 random bits, so the counter has room to grow within the millisecond.
      seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
      msecs = now;
    } else {
      seq = (seq + 1) | 0;
      if (seq === 0) msecs++;
    }
    return v7({ random, msecs, seq });
  };
}

/** The process's generator. */
export const newUid = createUidGenerator();
