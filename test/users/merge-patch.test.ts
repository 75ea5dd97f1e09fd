import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyMergePatch } from '../../src/users/merge-patch.js';
import { RFC7396_EXAMPLES } from './rfc7396-examples.js';

describe('applyMergePatch (RFC 7396)', () => {
  for (const [original, patch, result] of RFC7396_EXAMPLES) {
    it(`${JSON.stringify(original)} + ${JSON.stringify(patch)} = ${JSON.stringify(result)} (Appendix A)`, () => {
      const before = structuredClone(original);
      assert.deepEqual(applyMergePatch(original, patch), result);
      assert.deepEqual(original, before, 'the original is not modified');
    });
  }
});

describe('applyMergePatch with members named like Object.prototype', () => {
  it('merges __proto__, constructor and toString as own members, never touching the prototype', () => {
    const target = JSON.parse('{"keep":1,"__proto__":{"a":1},"constructor":"c"}') as Parameters<typeof applyMergePatch>[0];
    const patch = JSON.parse('{"__proto__":{"b":2},"toString":"t","constructor":null}') as Parameters<typeof applyMergePatch>[1];
    const result = applyMergePatch(target, patch) as Record<string, unknown>;
    assert.equal(JSON.stringify(result), '{"keep":1,"__proto__":{"a":1,"b":2},"toString":"t"}');
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.equal(JSON.stringify(applyMergePatch({}, JSON.parse('{"__proto__":"str"}') as Parameters<typeof applyMergePatch>[1])), '{"__proto__":"str"}');
  });
});
