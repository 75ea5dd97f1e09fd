/**
 * Erasure on delete (CONTRACT §13; docs/security.md, "Erasure"). A store's delete, in its
 * own transaction, also:
 * - rewrites the `data` of every earlier event of the user to `erasedEventData`: the
 *   event keeps its position, type, subject, time and origin, so the feed stays gapless
 *   and ordered, and a consumer replaying it still ends with the user absent;
 * - replaces every stored Idempotency-Key answer that carries the user (its `subject`)
 *   by a tombstone: the fingerprint becomes ERASED_FINGERPRINT and the answer empty.
 *   A tombstone, not a deletion, so a retry of the create cannot create the user again;
 *   a replay answers 410 `resource-erased` (http/idempotency.ts).
 */

/** The fingerprint of an erased Idempotency-Key record: no request's fingerprint is empty. */
export const ERASED_FINGERPRINT = '';

/** The stored answer of an erased record (never sent: a replay answers 410 `resource-erased`). */
export const ERASED_RESPONSE = { status: 410, headers: {}, body: '' } as const;

/**
 * The data of an event of a user since deleted: what the feed's order and a mirror need, and
 * nothing personal. The stores build this same text in SQL from each event's own version (their
 * deletes); the event-log contract test holds them to it.
 */
export const erasedEventData = (uid: string, version: number): string => `{"uid":"${uid}","version":${version},"erased":true}`;
