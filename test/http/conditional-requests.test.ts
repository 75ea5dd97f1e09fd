import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ifMatchHolds, ifNoneMatchMatches, parseEntityTags } from '../../src/http/conditional-requests.js';

describe('conditional request headers (RFC 9110 §13.1)', () => {
  it('parses lists of tags, weak tags and *', () => {
    assert.deepEqual(parseEntityTags('"a", W/"b" ,"c"'), ['"a"', 'W/"b"', '"c"']);
    assert.equal(parseEntityTags(' * '), '*');
    assert.deepEqual(parseEntityTags('garbage'), []);
  });

  it('If-Match uses the strong comparison: a weak tag never matches', () => {
    assert.ok(ifMatchHolds('"x"', '"x"'));
    assert.ok(ifMatchHolds('"y", "x"', '"x"'));
    assert.ok(ifMatchHolds('*', '"x"'));
    assert.ok(!ifMatchHolds('W/"x"', '"x"'));
    assert.ok(!ifMatchHolds('"y"', '"x"'));
    assert.ok(!ifMatchHolds('x', '"x"'));
  });

  it('If-None-Match uses the weak comparison', () => {
    assert.ok(ifNoneMatchMatches('W/"x"', '"x"'));
    assert.ok(ifNoneMatchMatches('"x"', '"x"'));
    assert.ok(ifNoneMatchMatches('*', '"x"'));
    assert.ok(!ifNoneMatchMatches('"y"', '"x"'));
  });
});
