/**
 * The HTTP settings: COMPRESSION is on or off; PUBLIC_URL is an absolute http(s)
 * URL or unset; CORS_ORIGINS is read once,
 * normalised as browsers serialise origins, and a bad entry stops the start with
 * one line naming the setting and the entry.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';

const originsOf = (value: string, env: Record<string, string> = {}) => {
  const cors = loadConfig({ CORS_ORIGINS: value, ...env }).cors;
  return cors === undefined ? undefined : cors.any ? '*' : [...cors.origins];
};

/** The one line that refuses `env`, which must name `setting`. */
function refusalOf(setting: string, env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.setting, setting);
    assert.ok(!error.message.includes('\n'), 'one line');
    return error.message;
  }
  assert.fail(`${setting}=${env[setting]} was accepted`);
}

const refusal = (value: string, env: Record<string, string> = {}) => refusalOf('CORS_ORIGINS', { CORS_ORIGINS: value, ...env });

describe('COMPRESSION', () => {
  it('is on by default, off with COMPRESSION=off, and refuses anything else', () => {
    assert.equal(loadConfig({}).compression, true);
    assert.equal(loadConfig({ COMPRESSION: 'off' }).compression, false);
    assert.throws(() => loadConfig({ COMPRESSION: 'gzip' }), (error) => error instanceof ConfigError && error.setting === 'COMPRESSION');
  });
});

describe('CORS_ORIGINS', () => {
  it('is off when unset or empty', () => {
    assert.equal(loadConfig({}).cors, undefined);
    assert.equal(originsOf(''), undefined);
    assert.equal(originsOf('  '), undefined);
  });

  it('normalises each origin as a browser writes it: lower case, default port dropped, IDN in punycode', () => {
    assert.deepEqual(originsOf('https://Console.Example.COM, HTTP://localhost:5173,https://x.example:443,http://x.example:80'), ['https://console.example.com', 'http://localhost:5173', 'https://x.example', 'http://x.example']);
    assert.deepEqual(originsOf('https://bücher.example'), ['https://xn--bcher-kva.example']);
    assert.deepEqual(originsOf('http://127.0.0.1:8081,http://[::1]:3000'), ['http://127.0.0.1:8081', 'http://[::1]:3000']);
    assert.deepEqual(originsOf('https://a.example,https://A.example'), ['https://a.example'], 'duplicates after normalising are one');
    assert.ok(Object.isFrozen(loadConfig({ CORS_ORIGINS: 'https://a.example' }).cors));
  });

  it('refuses what is not an origin, saying why', () => {
    const cases: [string, RegExp][] = [
      ['https://a.example/', /did you mean "https:\/\/a.example"/],
      ['https://a.example/console', /no path/],
      ['https://a.example?x=1', /no path, query or fragment/],
      ['a.example', /scheme:\/\/host/],
      ['//a.example', /scheme:\/\/host/],
      ['ftp://a.example', /https or http/],
      ['file:///tmp', /scheme:\/\/host/],
      ['https://*.example.com', /without wildcards/],
      ['https://user@a.example', /scheme:\/\/host/],
      ['https://a.example:99999', /scheme:\/\/host/],
      ['null', /sandboxed/],
      ['https://a.example,,https://b.example', /empty/],
      ['https://a.example,', /empty/],
      // The URL parser reads `\` as `/` and drops tabs: these would silently become another origin.
      ['https://evil.example\\.console.example.com', /scheme:\/\/host/],
      ['https://console.example.com\\', /scheme:\/\/host/],
      ['https://a.ex\tample', /scheme:\/\/host/],
    ];
    for (const [value, why] of cases) assert.match(refusal(value), why, value);
  });

  it('takes * alone, and only with authentication on', () => {
    assert.equal(originsOf('*', { AUTH_MODE: 'jwt', JWT_ISSUER: 'https://i', JWT_AUDIENCE: 'a', JWT_JWKS_URL: 'https://i/jwks' }), '*');
    assert.match(refusal('*'), /AUTH_MODE=api-key or jwt/);
    assert.match(refusal('*,https://a.example', { AUTH_MODE: 'jwt', JWT_ISSUER: 'https://i', JWT_AUDIENCE: 'a', JWT_JWKS_URL: 'https://i/jwks' }), /cannot be listed with others/);
  });
});

describe('PUBLIC_URL', () => {
  const publicUrlRefusal = (value: string) => refusalOf('PUBLIC_URL', { PUBLIC_URL: value });

  it('is unset by default (answers name root-relative URLs), and an empty value is unset', () => {
    assert.equal(loadConfig({}).publicUrl, undefined);
    assert.equal(loadConfig({ PUBLIC_URL: '' }).publicUrl, undefined);
  });

  it('takes an absolute http(s) URL, with or without a path, and drops its trailing slashes', () => {
    assert.equal(loadConfig({ PUBLIC_URL: 'https://users.example.com' }).publicUrl, 'https://users.example.com');
    assert.equal(loadConfig({ PUBLIC_URL: 'https://users.example.com/' }).publicUrl, 'https://users.example.com');
    assert.equal(loadConfig({ PUBLIC_URL: 'https://example.com/directory/' }).publicUrl, 'https://example.com/directory');
    assert.equal(loadConfig({ PUBLIC_URL: 'HTTP://Example.COM:8443/a/b' }).publicUrl, 'http://example.com:8443/a/b');
  });

  it('refuses, in one line naming PUBLIC_URL, what is not an absolute http(s) URL without credentials, query or fragment', () => {
    const refused: [string, RegExp][] = [
      ['users.example.com', /not an absolute URL/],
      ['/directory', /not an absolute URL/],
      ['ftp://example.com', /http:\/\/ or https:\/\//],
      ['javascript:alert(1)', /http:\/\/ or https:\/\//],
      ['https://user:secret@example.com', /credentials/],
      ['https://user@example.com', /credentials/],
      ['https://example.com/?a=1', /query/],
      ['https://example.com/?', /query/],
      ['https://example.com/#top', /fragment/],
      ['https://example.com/a b', /whitespace/],
      ['https:\\\\evil.example', /backslash/],
      [`https://example.com/${'a'.repeat(300)}`, /at most 256/],
    ];
    for (const [value, why] of refused) {
      const message = publicUrlRefusal(value);
      assert.match(message, /^PUBLIC_URL: /, value);
      assert.match(message, why, value);
      assert.ok(!message.includes('secret'), 'a credential is never repeated');
    }
  });
});
