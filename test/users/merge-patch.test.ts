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
