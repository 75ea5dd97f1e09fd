import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactPattern } from '../../src/observability/request-log.js';

describe('redactPattern', () => {
  it('replaces every parameter and wildcard of a route pattern, keeping the fixed words', () => {
    assert.equal(redactPattern('/users/:ref'), '/users/…');
    assert.equal(redactPattern('/docs/static/*'), '/docs/static/…');
    assert.equal(redactPattern('/a/:b/c/:d'), '/a/…/c/…');
    assert.equal(redactPattern('/healthz'), '/healthz');
  });
});
