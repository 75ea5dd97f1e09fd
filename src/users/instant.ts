/**
 * Instants compared with `created_at` and `updated_at` (search parameters, SCIM filters on
 * `meta.created` and `meta.lastModified`): RFC 3339 date-times with a zone, naming a real
 * instant the stores can hold. The stores keep milliseconds in UTC (`2026-01-31T12:00:00.000Z`,
 * years 0001–9999, as PostgreSQL's timestamptz and the text SQLite compares both can),
 * so a bound with finer digits becomes the millisecond bound that selects the same users.
 */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|([+-])(\d{2}):(\d{2}))$/;

export interface Instant {
  /** The instant, truncated to the millisecond, as the stores keep instants. */
  floor: string;
  /** Whether digits beyond the millisecond were not all zero (the instant lies after `floor`). */
  finer: boolean;
}

/**
 * The instant `text` names, or undefined when it is not an RFC 3339 date-time with a zone, names
 * no real date or time (30 February, hour 24, an offset beyond 23:59), is a leap second (`:60`,
 * which no store holds), or falls outside the years 0001–9999 in UTC.
 */
export function parseInstant(text: string): Instant | undefined {
  const match = RFC3339.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const fraction = match[7] ?? '';
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  let offset = 0;
  if (match[9] !== undefined) {
    const [hours, minutes] = [Number(match[10]), Number(match[11])];
    if (hours > 23 || minutes > 59) return undefined;
    offset = (match[9] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  }
  date.setUTCHours(hour, minute, second, Number(fraction.slice(0, 3).padEnd(3, '0')));
  const utc = new Date(date.getTime() - offset);
  if (utc.getUTCFullYear() < 1 || utc.getUTCFullYear() > 9999) return undefined;
  return { floor: utc.toISOString(), finer: /[1-9]/.test(fraction.slice(3)) };
}

export type BoundOp = 'gt' | 'ge' | 'lt' | 'le';

/** The millisecond bound that selects, among instants kept to the millisecond, exactly those `op instant` selects. */
export function millisecondBound(op: BoundOp, instant: Instant): { op: BoundOp; at: string } {
  if (!instant.finer) return { op, at: instant.floor };
  const ceiling = new Date(Date.parse(instant.floor) + 1).toISOString();
  // x >= t and x < t, for t between two milliseconds, hold as x >= and x < the next one; x > t and x <= t as x > and x <= the one before.
  return op === 'ge' || op === 'lt' ? { op, at: ceiling } : { op, at: instant.floor };
}
