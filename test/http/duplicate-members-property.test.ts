/**
 * The repeated-member check (http/duplicate-members.ts) against any JSON: its counting
 * fast path never refuses a document whose names are unique in every object, and a name
 * added again to any object, at any depth, written plainly or with every character as a
 * `\uXXXX` escape, is always found and named.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { repeatedMember } from '../../src/http/duplicate-members.js';

type Json = null | boolean | number | string | Json[] | { [name: string]: Json };

/** Every object in `value` with its JSON pointer. */
function objectsOf(value: Json, pointer = ''): [Record<string, Json>, string][] {
  if (value === null || typeof value !== 'object') return [];
  const here: [Record<string, Json>, string][] = Array.isArray(value) ? [] : [[value, pointer]];
  return here.concat(...Object.entries(value).map(([name, member]) => objectsOf(member, `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`)));
}

/** A name as JSON text with every UTF-16 unit escaped. */
const escaped = (name: string) => `"${[...name].map((c) => [...c].map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).join('')}"`;

/** `value`'s JSON text with the object at `target` given its first member again, last, written by `spell`. */
function withRepeat(value: Json, target: Record<string, Json>, spell: (name: string) => string): string {
  const marker = '__repeat_marker__';
  const [name, member] = Object.entries(target)[0]!;
  target[marker] = 0;
  const text = JSON.stringify(value).replace(`"${marker}":0`, () => `${spell(name)}:${JSON.stringify(member)}`);
  delete target[marker];
  return text;
}

const documents = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json>;

describe('repeatedMember', () => {
  it('finds nothing in any JSON document whose names are unique in every object', () => {
    fc.assert(
      fc.property(documents, (value) => {
        const text = JSON.stringify(value);
        assert.equal(repeatedMember(text, JSON.parse(text)), undefined, text);
      }),
      { numRuns: 2000 },
    );
  });

  it('finds and names a member repeated in any object, plainly or with escapes', () => {
    const withObject = documents.filter((value) => objectsOf(value).some(([object]) => Object.keys(object).length > 0));
    fc.assert(
      fc.property(withObject, fc.nat(), fc.boolean(), (value, pick, escape) => {
        const candidates = objectsOf(value).filter(([object]) => Object.keys(object).length > 0);
        const [target, pointer] = candidates[pick % candidates.length]!;
        const text = withRepeat(value, target, escape ? escaped : (name) => JSON.stringify(name));
        const parsed = JSON.parse(text);
        const found = repeatedMember(text, parsed);
        assert.ok(found !== undefined, text);
        // The first repeat in document order is named: it may sit in an object before the target.
        if (candidates.length === 1) assert.deepEqual(found, { name: Object.keys(target)[0], pointer });
      }),
      { numRuns: 2000 },
    );
  });

  it('finds and names a repeat nested 30,000 levels deep, as a 64 KiB body can be, without running out of stack', () => {
    for (const [open, close, step] of [['{"a":', '}', '/a'], ['[', ']', '/0'], ['{"a":[1,', ']}', '/a/1']] as const) {
      const depth = 30_000;
      const text = `${open.repeat(depth)}{"c":1,"\\u0063":2}${close.repeat(depth)}`;
      assert.deepEqual(repeatedMember(text, JSON.parse(text)), { name: 'c', pointer: step.repeat(depth) }, open);
      const unique = `${open.repeat(depth)}{"c":1,"d":2}${close.repeat(depth)}`;
      assert.equal(repeatedMember(unique, JSON.parse(unique)), undefined, open);
    }
  });
});
