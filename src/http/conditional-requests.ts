/**
 * Conditional request headers (RFC 9110 §13.1). If-Match uses the strong
 * comparison (§8.8.3.2: a weak tag never matches); If-None-Match the weak one.
 */

/** The entity tags of a list header, or `'*'`. Malformed members are dropped, so they never match. */
export function parseEntityTags(header: string): string[] | '*' {
  if (header.trim() === '*') return '*';
  return header.match(/(?:W\/)?"[\x21\x23-\x7e\x80-\xff]*"/g) ?? [];
}

/** If-Match: whether `currentTag` satisfies it (the resource exists: §13.1.1). */
export function ifMatchHolds(header: string, currentTag: string): boolean {
  const tags = parseEntityTags(header);
  return tags === '*' || tags.includes(currentTag);
}

/** If-None-Match: whether the client's cached representation is current (then GET answers 304). */
export function ifNoneMatchMatches(header: string, currentTag: string): boolean {
  const tags = parseEntityTags(header);
  if (tags === '*') return true;
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  return tags.some((tag) => opaque(tag) === opaque(currentTag));
}
