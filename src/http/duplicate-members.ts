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
 * scanner, to find which name and where.
 */
import { createScanner, SyntaxKind } from 'jsonc-parser';
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

/** An object or array open at the scanner's position: an object's names so far and the member being read, an array's element index. */
type OpenValue = { names: Set<string>; name: string | undefined; expectsName: boolean } | { index: number };

/**
 * The first member name repeated in one object, found with jsonc-parser's scanner (its
 * tokens give each name decoded). The open objects and arrays are a stack of our own,
 * not the call stack, so no nesting the body limit allows can exhaust it (a recursive
 * reader ran out of stack at about ten thousand levels, a 50 KB body).
 */
function findRepeated(text: string): RepeatedMember | undefined {
  const scanner = createScanner(text, true);
  const open: OpenValue[] = [];
  for (let token = scanner.scan(); token !== SyntaxKind.EOF; token = scanner.scan()) {
    const top = open.at(-1);
    if (token === SyntaxKind.OpenBraceToken) open.push({ names: new Set(), name: undefined, expectsName: true });
    else if (token === SyntaxKind.OpenBracketToken) open.push({ index: 0 });
    else if (token === SyntaxKind.CloseBraceToken || token === SyntaxKind.CloseBracketToken) open.pop();
    else if (top === undefined) continue;
    else if (token === SyntaxKind.CommaToken) {
      if ('index' in top) top.index += 1;
      else top.expectsName = true;
    } else if (token === SyntaxKind.ColonToken && 'names' in top) top.expectsName = false;
    else if (token === SyntaxKind.StringLiteral && 'names' in top && top.expectsName) {
      const name = scanner.getTokenValue();
      if (top.names.has(name)) return { name, pointer: pointerOf(open.slice(0, -1)) };
      top.names.add(name);
      top.name = name;
    }
  }
  return undefined;
}

/** The JSON pointer (RFC 6901) of the value the innermost of `outer` is reading: each level's member name or element index. */
function pointerOf(outer: readonly OpenValue[]): string {
  return outer.map((value) => `/${'index' in value ? value.index : pointerToken(value.name ?? '')}`).join('');
}

/** The repeated member of a body whose `text` JSON.parse read as `value`, or undefined when every name is once in its object. */
export function repeatedMember(text: string, value: unknown): RepeatedMember | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const kept = keptMembers(value);
  const unique = text.includes('\\') ? namesInText(text) === kept.members : colonsIn(text) === kept.members + kept.colons;
  return unique ? undefined : findRepeated(text);
}
