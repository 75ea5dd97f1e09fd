/**
 * Page marks of list walks (SCIM's startIndex paging, src/scim/scim-query.ts): where the
 * page that starts at a given index of a given query begins (after a uid), and the walk's
 * total. A cache, not data: a lost mark costs a slower page, never a wrong write. Each
 * mark is kept MARK_TTL_MS after it was set; every page a walk reads sets the next one.
 */
export interface PageMark {
  after: string;
  total: number;
}

/**
 * How long a mark is kept: a client walking pages asks for the next within seconds; a
 * request later than that is not part of the walk, and finds its page among the current users.
 */
export const MARK_TTL_MS = 2 * 60_000;

/** Marks in this process's memory, at most `capacity`, the oldest set first forgotten: the SQLite store's. */
export class MemoryPageMarks {
  private readonly marks = new Map<string, PageMark & { at: number }>();
  constructor(private readonly capacity = 10_000) {}

  /** The mark under `key` if it was set less than MARK_TTL_MS before `now` (ms since the epoch). */
  get(key: string, now: number): PageMark | undefined {
    const mark = this.marks.get(key);
    return mark !== undefined && now - mark.at < MARK_TTL_MS ? { after: mark.after, total: mark.total } : undefined;
  }

  set(key: string, mark: PageMark, now: number): void {
    this.marks.delete(key);
    this.marks.set(key, { ...mark, at: now });
    // Oldest first: a Map iterates in insertion order.
    if (this.marks.size > this.capacity) this.marks.delete(this.marks.keys().next().value as string);
  }
}
