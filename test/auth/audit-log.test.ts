/**
 * The audit trail: one log line per write with the credential id, method, uid
 * and outcome, and no request body or email address.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { apiKeysFixture, type ApiKeysFixture } from '../helpers/auth-fixtures.js';
import { startChildServer, type StartedChildServer } from '../helpers/child-server.js';

describe('audit log', () => {
  let keys: ApiKeysFixture;
  let dir: string;
  let service: StartedChildServer;
  before(async () => {
    keys = apiKeysFixture();
    dir = mkdtempSync(join(tmpdir(), 'user-service-audit-'));
    service = await startChildServer({ env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file, DATABASE_URL: `sqlite:${join(dir, 'u.db')}` } });
  });
  after(async () => {
    await service?.dispose();
    rmSync(dir, { recursive: true, force: true });
    keys.cleanup();
  });

  it('writes one line per write with credential, method, uid and status, and no body or email address', async () => {
    const admin = { authorization: `Bearer ${keys.keys.admin}` };
    const created = await service.post('/users', { username: 'audited', email_address: 'Audited.Person@example.com', display_name: 'SECRET NAME' }, admin);
    assert.equal(created.status, 201);
    const uid = created.body.uid as string;
    assert.equal((await service.put(`/users/${uid}`, { username: 'audited', email_address: 'Audited.Person@example.com' }, admin)).status, 200);
    assert.equal((await service.post('/users', { username: 'audited', email_address: 'other@example.com' }, admin)).status, 409);
    assert.equal((await service.delete(`/users/${uid}`, { authorization: `Bearer ${keys.keys.reader}` })).status, 403);
    assert.equal((await service.delete(`/users/${uid}`, admin)).status, 204);
    assert.equal((await service.get(`/users/${uid}`, admin)).status, 404, 'reads are not audited');
    await service.waitForLog((r) => (r.audit as { status?: number } | undefined)?.status === 204);

    const audits = service.logs().filter((r) => r.msg === 'audit').map((r) => r.audit);
    assert.deepEqual(audits, [
      { credential: keys.ids.admin, method: 'POST', route: '/users', uid, status: 201 },
      { credential: keys.ids.admin, method: 'PUT', route: '/users/:ref', uid, status: 200 },
      { credential: keys.ids.admin, method: 'POST', route: '/users', status: 409 },
      { credential: keys.ids.reader, method: 'DELETE', route: '/users/:ref', uid, status: 403 },
      { credential: keys.ids.admin, method: 'DELETE', route: '/users/:ref', uid, status: 204 },
    ]);
    const auditLines = service.stdout().split('\n').filter((line) => line.includes('"audit"'));
    for (const line of auditLines) assert.doesNotMatch(line, /Audited\.Person|example\.com|SECRET NAME/i);
    for (const key of Object.values(keys.keys)) assert.ok(!service.stdout().includes(key), 'no bearer token is ever logged');
  });

  it('logs no email address or username anywhere, also for lookups and searches', async () => {
    const admin = { authorization: `Bearer ${keys.keys.admin}` };
    await service.post('/users', { username: 'private.person', email_address: 'Private.Person@example.org' }, admin);
    await service.get('/users/email_address:private.person%40example.org', admin);
    await service.get('/users/username:private.person', admin);
    await service.get('/users?email_address=private.person@example.org&q=priv', admin);
    await service.get('/healthz');
    await service.waitForLog((r) => r.msg === 'request completed' && (r.req as { url?: string } | undefined)?.url === '/healthz');
    assert.doesNotMatch(service.stdout(), /private\.person|private\.person%40|example\.org/i);
  });
});
