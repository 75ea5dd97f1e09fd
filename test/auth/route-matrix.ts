/**
 * Every `/users…` route, each against an existing and a missing user, so an
 * authentication failure can be shown to say nothing about whether a user exists.
 */
import assert from 'node:assert/strict';
import type { TestResponse } from '../helpers/http-client.js';
import type { TestServer } from '../helpers/test-server.js';

export interface RouteCase {
  name: string;
  scope: 'users:read' | 'users:write';
  /** The request against an existing user (or the collection) and against a missing one. */
  send(server: TestServer, headers: Record<string, string>, existing: boolean): Promise<TestResponse>;
}

const MISSING_UID = '01900000-0000-7000-8000-000000000000';

export function routeCases(user: { uid: string; username: string }): RouteCase[] {
  const uid = (existing: boolean) => (existing ? user.uid : MISSING_UID);
  const body = (existing: boolean) => ({ username: existing ? user.username : 'nobody', email_address: 'x@example.com' });
  return [
    { name: 'GET /users/{uid}', scope: 'users:read', send: (s, h, e) => s.request('GET', `/users/${uid(e)}`, { headers: h }) },
    { name: 'HEAD /users/{uid}', scope: 'users:read', send: (s, h, e) => s.request('HEAD', `/users/${uid(e)}`, { headers: h }) },
    { name: 'GET /users/username:{v}', scope: 'users:read', send: (s, h, e) => s.request('GET', `/users/username:${e ? user.username : 'nobody'}`, { headers: h }) },
    { name: 'GET /users/uid:{v}', scope: 'users:read', send: (s, h, e) => s.request('GET', `/users/uid:${uid(e)}`, { headers: h }) },
    { name: 'GET /users?username=', scope: 'users:read', send: (s, h, e) => s.request('GET', `/users?username=${e ? user.username : 'nobody'}`, { headers: h }) },
    { name: 'POST /users', scope: 'users:write', send: (s, h, e) => s.request('POST', '/users', { headers: h, json: body(e) }) },
    { name: 'PUT /users/{uid}', scope: 'users:write', send: (s, h, e) => s.request('PUT', `/users/${uid(e)}`, { headers: h, json: body(e) }) },
    { name: 'DELETE /users/{uid}', scope: 'users:write', send: (s, h, e) => s.request('DELETE', `/users/${uid(e)}`, { headers: h }) },
    { name: 'PATCH /users/{uid}', scope: 'users:write', send: (s, h, e) => s.request('PATCH', `/users/${uid(e)}`, { headers: h, json: {} }) },
    { name: 'PUT /users/username:{v}', scope: 'users:write', send: (s, h, e) => s.request('PUT', `/users/username:${e ? user.username : 'nobody'}`, { headers: h, json: body(e) }) },
  ];
}

/** The refusal, as far as it may differ between requests: everything but `instance`. */
function refusal(res: TestResponse) {
  const { instance: _instance, ...rest } = (res.body ?? {}) as Record<string, unknown>;
  return { status: res.status, challenge: res.headers['www-authenticate'], body: rest };
}

/**
 * Asserts that `headers` is refused on every route with `status` (401 or 403), that
 * the refusal is a problem document with a Bearer challenge, and that it is the
 * same for an existing and a missing user.
 */
export async function assertRefusedEverywhere(server: TestServer, cases: RouteCase[], headers: Record<string, string>, status: (c: RouteCase) => 401 | 403 | 'pass'): Promise<void> {
  for (const c of cases) {
    const expected = status(c);
    if (expected === 'pass') continue;
    const [existing, missing] = [await c.send(server, headers, true), await c.send(server, headers, false)];
    for (const res of [existing, missing]) {
      assert.equal(res.status, expected, `${c.name}: ${res.status} ${res.text}`);
      assert.match(String(res.headers['www-authenticate']), /^Bearer realm="user-service"/, c.name);
      if (c.name.startsWith('HEAD')) continue;
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8', c.name);
      assert.equal(res.body.type, expected === 401 ? '/problems/unauthorized' : '/problems/forbidden', c.name);
    }
    assert.deepEqual(refusal(existing), refusal(missing), `${c.name}: the refusal must not depend on whether the user exists`);
    if (expected === 403) assert.match(String(existing.headers['www-authenticate']), new RegExp(`error="insufficient_scope", scope="${c.scope}"`), c.name);
  }
}

/** Asserts that `headers` passes authentication on every route whose scope it holds (the answer is the route's own). */
export async function assertAdmitted(server: TestServer, cases: RouteCase[], headers: Record<string, string>, scopes: string[]): Promise<void> {
  for (const c of cases) {
    if (!scopes.includes(c.scope)) continue;
    const res = await c.send(server, headers, false);
    assert.ok(res.status !== 401 && res.status !== 403, `${c.name}: ${res.status} ${res.text}`);
  }
}
