/**
 * Credentials made in the test, with locally generated keys: an API keys file
 * (hashes only) and a JWKS file plus a token factory. No network.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';

export interface ApiKeysFixture {
  file: string;
  /** Plain keys by role (`scraper` holds metrics:read alone); `unknown` is in no file. */
  keys: { reader: string; writer: string; admin: string; scraper: string; unknown: string };
  /** The id of each role's entry (unique per fixture, so shared rate-limit counters never collide across runs). */
  ids: { reader: string; writer: string; admin: string };
  cleanup(): void;
}

export function apiKeysFixture(): ApiKeysFixture {
  const dir = mkdtempSync(join(tmpdir(), 'user-service-keys-'));
  const run = randomBytes(4).toString('hex');
  const keys = { reader: `rk-${randomBytes(16).toString('hex')}`, writer: `wk-${randomBytes(16).toString('hex')}`, admin: `ak-${randomBytes(16).toString('hex')}`, scraper: `sk-${randomBytes(16).toString('hex')}`, unknown: `uk-${randomBytes(16).toString('hex')}` };
  const ids = { reader: `reader-${run}`, writer: `writer-${run}`, admin: `admin-${run}` };
  const sha = (key: string) => createHash('sha256').update(key).digest('hex');
  const file = join(dir, 'api-keys.json');
  writeFileSync(
    file,
    JSON.stringify([
      { id: ids.reader, sha256: sha(keys.reader), scopes: ['users:read'] },
      { id: ids.writer, sha256: sha(keys.writer), scopes: ['users:write'] },
      { id: ids.admin, sha256: sha(keys.admin), scopes: ['users:read', 'users:write'] },
      { id: `scraper-${run}`, sha256: sha(keys.scraper), scopes: ['metrics:read'] },
    ]),
  );
  return { file, keys, ids, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const ISSUER = 'https://issuer.test';
export const AUDIENCE = 'user-service';

export interface JwtFixture {
  jwksFile: string;
  jwks: { keys: Record<string, unknown>[] };
  /** A token signed by the configured key, with claims overridable (undefined removes one). */
  token(claims?: Record<string, unknown>, options?: { kid?: string; alg?: 'RS256' | 'ES256' }): Promise<string>;
  /** Signed by a key that is not in the set, under an unknown kid. */
  foreignToken(claims?: Record<string, unknown>): Promise<string>;
  /** `alg: none`, no signature. */
  unsignedToken(claims?: Record<string, unknown>): string;
  /** HS256 with the RSA public key's JWK text as the HMAC secret (the classic key-confusion attack). */
  publicKeyHmacToken(claims?: Record<string, unknown>): string;
  cleanup(): void;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function jwtFixture(): Promise<JwtFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'user-service-jwks-'));
  const rsa = await generateKeyPair('RS256');
  const ec = await generateKeyPair('ES256');
  const foreign = await generateKeyPair('RS256');
  const rsaJwk = { ...(await exportJWK(rsa.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' };
  const ecJwk = { ...(await exportJWK(ec.publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' };
  const jwks = { keys: [rsaJwk, ecJwk] };
  const jwksFile = join(dir, 'jwks.json');
  writeFileSync(jwksFile, JSON.stringify(jwks));
  const now = Math.floor(Date.now() / 1000);
  const baseClaims = (claims: Record<string, unknown>): JWTPayload => {
    const all: Record<string, unknown> = { iss: ISSUER, aud: AUDIENCE, sub: 'client-1', scope: 'users:read users:write', iat: now, exp: now + 600, ...claims };
    for (const key of Object.keys(all)) if (all[key] === undefined) delete all[key];
    return all as JWTPayload;
  };
  return {
    jwksFile,
    jwks,
    async token(claims = {}, { kid, alg = 'RS256' } = {}) {
      const key = alg === 'RS256' ? rsa.privateKey : ec.privateKey;
      return new SignJWT(baseClaims(claims)).setProtectedHeader({ alg, kid: kid ?? (alg === 'RS256' ? 'rsa-1' : 'ec-1'), typ: 'JWT' }).sign(key);
    },
    async foreignToken(claims = {}) {
      return new SignJWT(baseClaims(claims)).setProtectedHeader({ alg: 'RS256', kid: 'not-in-the-set' }).sign(foreign.privateKey);
    },
    unsignedToken(claims = {}) {
      return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(baseClaims(claims))}.`;
    },
    publicKeyHmacToken(claims = {}) {
      const head = `${b64({ alg: 'HS256', typ: 'JWT', kid: 'rsa-1' })}.${b64(baseClaims(claims))}`;
      const signature = createHmac('sha256', JSON.stringify(rsaJwk)).update(head).digest('base64url');
      return `${head}.${signature}`;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
