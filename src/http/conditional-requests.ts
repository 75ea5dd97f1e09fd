/**
 * Conditional request headers (RFC 9110 §13.1). If-Match uses the strong
 * comparison (§8.8.3.2: a weak tag never matches); If-None-Match the weak one.
 */

/** One entity tag, exactly (RFC 9110 §8.8.3): `W/` is case-sensitive. */
const ENTITY_TAG = /^(?:W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/**
 * The entity tags of a list header read leniently, for a read's If-None-Match, or `'*'`:
 * member by member, a member that is not exactly an entity tag (`w/"x"`, `xyzzy"x"`) is
 * dropped, so it never matches. A read is safe whatever it answers; writes read strictly.
 */
export function parseEntityTags(header: string): string[] | '*' {
  if (header.trim() === '*') return '*';
  return header
    .split(',')
    .map((member) => member.replace(/^[ \t]+|[ \t]+$/g, ''))
    .filter((member) => ENTITY_TAG.test(member));
}

/**
 * One member of `#entity-tag` (RFC 9110 §8.8.3, §5.6.1): optional whitespace, an
 * entity tag or nothing (an empty member), optional whitespace, then a comma or the end.
 */
const LIST_MEMBER = /[ \t]*(?:((?:W\/)?"[\x21\x23-\x7e\x80-\xff]*")[ \t]*)?(?:,|$)/y;

/**
 * The field value `"*" / #entity-tag` (RFC 9110 §13.1.1, §13.1.2) read strictly: `'*'`,
 * the tags (at least one), or undefined when the value is anything else. Linear in the
 * value's length: each member is matched once, where the previous one ended.
 */
export function parseEntityTagList(header: string): string[] | '*' | undefined {
  if (/^[ \t]*\*[ \t]*$/.test(header)) return '*';
  const tags: string[] = [];
  for (let at = 0; ; ) {
    LIST_MEMBER.lastIndex = at;
    const member = LIST_MEMBER.exec(header);
    if (member === null) return undefined;
    if (member[1] !== undefined) tags.push(member[1]);
    if (LIST_MEMBER.lastIndex === header.length && !member[0].endsWith(',')) break;
    at = LIST_MEMBER.lastIndex;
  }
  return tags.length === 0 ? undefined : tags;
}

/**
 * If-Match, read strictly (parseEntityTagList): whether `currentTag` satisfies it (the
 * resource exists: §13.1.1). A value that is not `*` or a list of entity tags matches
 * nothing, so the write is refused; a weak tag never matches (strong comparison).
 */
export function ifMatchHolds(header: string, currentTag: string): boolean {
  const tags = parseEntityTagList(header) ?? [];
  return tags === '*' || tags.includes(currentTag);
}

/** The weak comparison (RFC 9110 §8.8.3.2): the opaque tags are equal, whether either is weak or not. */
function weaklyEqual(a: string, b: string): boolean {
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  return opaque(a) === opaque(b);
}

/** Whether parsed If-None-Match tags name the current representation (`*`: any exists). */
export function noneMatchTagsMatch(tags: readonly string[] | '*', currentTag: string): boolean {
  return tags === '*' || tags.some((tag) => weaklyEqual(tag, currentTag));
}

/** If-None-Match: whether the client's cached representation is current (then GET answers 304). */
export function ifNoneMatchMatches(header: string, currentTag: string): boolean {
  return noneMatchTagsMatch(parseEntityTags(header), currentTag);
}
