/**
 * A member name repeated in one JSON object (I-JSON, RFC 7493 §2.3; CONTRACT §6): a
 * 400 naming it. JSON.parse keeps the last of the repeated members, while a proxy, a
 * WAF or an audit tool may read the first: the service would store another user than
 * the one they saw. Names compare after their escapes are decoded (`"a"` and `"\u0061"`
 * are one name), as every parser compares them.
 *
 * Cheap when there is none, which is every honest body: each member name in the text
 * is followed by one colon, so when the text holds no escape (a string's text is then
 * its value), colons in the text = member names + colons inside strings. JSON.parse's
 * value gives the members it kept and the colons of the strings it kept; since it keeps
 * at least one of each name and every kept string, the two sides are equal exactly when
 * no name was repeated (a dropped member adds at least its own colon). A text with an
 * escape is counted by a linear regular expression that steps from string to string
 * instead. Only when the counts differ is the text read again, by jsonc-parser's
 * visitor, to find which name and where.
 */
import { visit } from 'jsonc-parser';
import { pointerToken } from '../json-pointer.js';

/** Every JSON string in order, and whether a colon follows it (a member name). Unambiguous, so linear. */
const STRING_OR_NAME = /"(?:[^"\\]|\\.)*"(\s*:)?/g;

/** Member names in the text of a JSON document that parsed (outside strings, a `"` only opens a string): for a text with escapes. */
function namesInText(text: string): number {
  let names = 0;
  STRING_OR_NAME.lastIndex = 0;
  for (let match = STRING_OR_NAME.exec(text); match !== null; match = STRING_OR_NAME.exec(text)) if (match[1] !== undefined) names += 1;
  return names;
}

/** Occurrences of `:` in a string (native search; most strings hold none). */
function colonsIn(text: string): number {
  let colons = 0;
  for (let at = text.indexOf(':'); at !== -1; at = text.indexOf(':', at + 1)) colons += 1;
  return colons;
}

/** Members of every object in a parsed value, and the colons in its member names and string values. Iterative: no depth can exhaust the stack. */
function keptMembers(value: object): { members: number; colons: number } {
  let members = 0;
  let colons = 0;
  const pending: object[] = [value];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const isArray = Array.isArray(item);
    const names = isArray ? undefined : Object.keys(item);
    const values: unknown[] = isArray ? (item as unknown[]) : Object.values(item);
    if (names !== undefined) {
      members += names.length;
      for (const name of names) colons += colonsIn(name);
    }
    for (const member of values) {
      if (typeof member === 'string') colons += colonsIn(member);
      else if (member !== null && typeof member === 'object') pending.push(member);
    }
  }
  return { members, colons };
}

export interface RepeatedMember {
  name: string;
  /** JSON pointer (RFC 6901) of the object that holds it. */
  pointer: string;
}

/** The first member name repeated in one object, found by jsonc-parser's visitor. */
function findRepeated(text: string): RepeatedMember | undefined {
  const open: Set<string>[] = [];
  let found: RepeatedMember | undefined;
  visit(text, {
    onObjectBegin: () => {
      open.push(new Set());
      return found === undefined;
    },
    onObjectEnd: () => void open.pop(),
    onObjectProperty: (name, _offset, _length, _line, _column, path) => {
      const names = open.at(-1);
      if (found !== undefined || names === undefined) return;
      if (names.has(name)) found = { name, pointer: path().map((step) => `/${pointerToken(step)}`).join('') };
      names.add(name);
    },
  });
  return found;
}

/** The repeated member of a body whose `text` JSON.parse read as `value`, or undefined when every name is once in its object. */
export function repeatedMember(text: string, value: unknown): RepeatedMember | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const kept = keptMembers(value);
  const unique = text.includes('\\') ? namesInText(text) === kept.members : colonsIn(text) === kept.members + kept.colons;
  return unique ? undefined : findRepeated(text);
}
