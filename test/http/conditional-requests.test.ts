import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ifMatchHolds, ifNoneMatchMatches, parseEntityTagList, parseEntityTags } from '../../src/http/conditional-requests.js';

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

  it('reads If-None-Match on writes strictly: * or at least one entity tag, with empty members and whitespace allowed (§5.6.1)', () => {
    assert.equal(parseEntityTagList(' *\t'), '*');
    assert.deepEqual(parseEntityTagList('"a"'), ['"a"']);
    assert.deepEqual(parseEntityTagList(' "a" ,\tW/"b", , "c,d" ,'), ['"a"', 'W/"b"', '"c,d"']);
    assert.deepEqual(parseEntityTagList('""'), ['""']);
    for (const malformed of ['', ' ', ',', 'a', '"a" "b"', '"a"b', '*, "a"', '**', 'w/"a"', 'W/ "a"', '"a', 'a"', '"a"\r\n"b"', '"a", b']) {
      assert.equal(parseEntityTagList(malformed), undefined, JSON.stringify(malformed));
    }
  });

  it('refuses a long malformed list without trying every split of it', () => {
    assert.equal(parseEntityTagList(`${' ,'.repeat(50_000)}x`), undefined);
    assert.equal(parseEntityTagList(`${'"a",'.repeat(20_000)}"b"`)?.length, 20_001);
  });
});

