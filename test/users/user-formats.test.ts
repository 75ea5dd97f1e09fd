import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isEmailAddress, isLegacyId, isUsername } from '../../src/users/user-formats.js';

describe('username format', () => {
  it('accepts letters, marks, digits and . _ - @ + up to 64 characters after NFC', () => {
    for (const ok of ['alice', 'Zoë', 'ＢＯＢ', 'a.b_c-d@e+f', '名前', 'x'.repeat(64), 'E\u0301'.repeat(64), '٣٤']) assert.ok(isUsername(ok), ok);
  });
  it('rejects empty, too long, spaces, colons, slashes and symbols', () => {
    for (const bad of ['', 'x'.repeat(65), 'a b', 'a:b', 'a/b', 'a\u0000', 'a!', '😀', 'a\u200Bb']) assert.ok(!isUsername(bad), JSON.stringify(bad));
  });
});

describe('email address format', () => {
  const local64 = 'l'.repeat(64);
  const domain = `${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(57)}.com`; // 189 characters
  it('accepts local@domain up to 254 characters with a local part up to 64', () => {
    assert.equal(`${local64}@${domain}`.length, 254);
    for (const ok of ['a@b.co', 'Alice.Liddell+news@Example.com', `${local64}@${domain}`, 'ñ@例え.jp', "o'hara@x-y.org"]) assert.ok(isEmailAddress(ok), ok);
  });
  it('rejects missing parts, long parts, dots in the wrong place and spaces', () => {
    for (const bad of ['', 'a', 'a@', '@b.co', 'a@b', `l${local64}@b.co`, `${local64}@${domain}x`, 'a..b@c.co', '.a@b.co', 'a.@b.co', 'a b@c.co', 'a@-b.co', 'a@b..co', 'a@b.co.', '"q"@b.co']) {
      assert.ok(!isEmailAddress(bad), bad);
    }
  });
});

describe('legacy id format', () => {
  it('accepts 1–128 printable characters with colons, slashes and inner spaces', () => {
    for (const ok of ['A-1001', 'crm:77', 'dept/42', 'a b', 'x'.repeat(128), '100%', '😀']) assert.ok(isLegacyId(ok), ok);
  });
  it('rejects empty, too long, control characters and outer white space', () => {
    for (const bad of ['', 'x'.repeat(129), 'a\nb', 'a\u0000', '\tab', ' a', 'a ', 'a\u2028b', 'a\u200Bb', 'a\u202Eb', '\uFEFFa']) assert.ok(!isLegacyId(bad), JSON.stringify(bad));
  });
});
