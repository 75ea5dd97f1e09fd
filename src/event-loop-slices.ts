/**
 * Work over many items done a slice per turn of the event loop: between two slices the loop
 * serves whatever else waits (a read by key behind a page of a thousand users). A slice of
 * SLICE items costs a few milliseconds at most for the per-user work it is used for
 * (a stored row made a user, a user mapped to SCIM).
 */
const SLICE = 200;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `items.map(fn)`, yielding to the event loop after every SLICE items (not at all for a short list). */
export async function mapInSlices<T, R>(items: readonly T[], fn: (item: T) => R): Promise<R[]> {
  if (items.length <= SLICE) return items.map(fn);
  const out: R[] = [];
  for (let i = 0; i < items.length; i += SLICE) {
    if (i > 0) await nextTurn();
    const end = Math.min(items.length, i + SLICE);
    for (let j = i; j < end; j++) out.push(fn(items[j] as T));
  }
  return out;
}
