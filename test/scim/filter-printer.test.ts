import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Filter } from '../../src/scim/filter/filter-ast.js';
import { parseFilter } from '../../src/scim/filter/filter-parser.js';
import { printFilter } from '../../src/scim/filter/filter-printer.js';

const canonical = (text: string) => printFilter(parseFilter(text));

describe('printFilter', () => {
  it('prints keywords and literals in lower case', () => {
    assert.equal(canonical('userName EQ "x" AND NOT (title PR) OR active Eq TRUE'), 'userName eq "x" and not (title pr) or active eq true');
  });

  it('prints strings as JSON', () => {
    assert.equal(canonical(String.raw`a eq "q\" \u00e9 \/ \n"`), String.raw`a eq "q\" é / \n"`);
  });

  it('prints numbers so that they read back exactly', () => {
    assert.equal(canonical('a eq 1E3'), 'a eq 1000');
    assert.equal(canonical('a eq -0'), 'a eq -0');
    assert.equal(canonical('a eq 1e21'), 'a eq 1e+21');
  });

  it('keeps URI prefixes and sub-attributes', () => {
    const text = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value eq "x"';
    assert.equal(canonical(text), text);
  });

  it('prints parentheses only where precedence needs them', () => {
    assert.equal(canonical('((a pr) and (b pr)) or (c pr)'), 'a pr and b pr or c pr');
    assert.equal(canonical('(a pr or b pr) and c pr'), '(a pr or b pr) and c pr');
    assert.equal(canonical('a pr and (b pr and c pr)'), 'a pr and (b pr and c pr)');
    assert.equal(canonical('a pr or (b pr or c pr)'), 'a pr or (b pr or c pr)');
  });

  it('prints a value path with its trailing comparison moved inside the brackets', () => {
    assert.equal(canonical('emails[type eq "work"].value eq "a@b.c"'), 'emails[type eq "work" and value eq "a@b.c"]');
  });

  it('prints not with a parenthesised operand', () => {
    assert.equal(canonical('not(a pr)'), 'not (a pr)');
  });

  it('refuses a number that has no filter text', () => {
    const filter: Filter = { kind: 'compare', op: 'eq', path: { attr: 'a' }, value: Number.NaN };
    assert.throws(() => printFilter(filter), RangeError);
  });
});
