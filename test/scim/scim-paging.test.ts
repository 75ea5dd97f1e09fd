/**
 * SCIM list paging (RFC 7644 §3.4.2.4) and access control on /scim/v2, on every
 * store: a startIndex walk during writes visits every user that exists throughout
 * exactly once; `totalResults` of a userName equality is exact; with API keys on,
 * no SCIM request succeeds without a credential or with too narrow a one, under
 * any spelling of the path, and the refusals are SCIM errors.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { apiKeysFixture, type ApiKeysFixture } from '../helpers/auth-fixtures.js';
import { describeEachStore } from '../helpers/stores.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { scimRequest, type ScimResponse } from '../helpers/scim-client.js';

const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const SEARCH_REQUEST = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';



/** What is wrong with `res` as the SCIM error `status` (RFC 7644 §3.12); empty when nothing is. */
function scimErrorProblems(res: ScimResponse, status: number): string[] {
  const problems: string[] = [];
  if (res.status !== status) problems.push(`status ${res.status}, expected ${status}`);
  if (!/^application\/scim\+json(?:;|$)/.test(String(res.headers['content-type']))) problems.push(`content-type ${res.headers['content-type']}`);
  if (JSON.stringify(res.body?.schemas) !== JSON.stringify([ERROR])) problems.push('schemas is not [Error]');
  if (res.body?.status !== String(status)) problems.push(`body status ${JSON.stringify(res.body?.status)}, expected "${status}"`);
  if (typeof res.body?.detail !== 'string') problems.push('no detail');
  return problems;
}

let counter = 0;
const tag = () => `${process.pid}x${++counter}`;
const userBody = (name: string) => ({ schemas: [CORE], userName: name, emails: [{ value: `${name}@example.com`, type: 'work' }] });

describeEachStore('SCIM list paging and access control', (kind) => {
  describe('paging', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ store: kind });
    });
    after(() => server.close());

    const scim = (method: string, path: string, body?: unknown) => scimRequest(server.baseUrl, method, `/scim/v2${path}`, body === undefined ? {} : { body });
    async function create(name: string): Promise<string> {
      const res = await scim('POST', '/Users', userBody(name));
      assert.equal(res.status, 201, res.text);
      return res.body.id;
    }

    it('a startIndex walk (count 7) over 60 users, with users created and deleted between pages, visits every survivor exactly once', async () => {
      const run = `walk${tag()}`;
      const initial: string[] = [];
      for (let i = 0; i < 60; i++) initial.push(await create(`${run}u${String(i).padStart(2, '0')}`));
      const before = await scim('GET', '/Users?count=0');
      const everyone: string[] = [];
      for (let start = 1; start <= before.body.totalResults; start += 1000) {
        everyone.push(...(await scim('GET', `/Users?startIndex=${start}&count=1000`)).body.Resources.map((r: { id: string }) => r.id));
      }
      const deleted = new Set<string>();
      const seen: string[] = [];
      let created = 0;
      let deletedAhead = 0;
      // Unvisited users to delete, from the far end; visited ones, from those just seen.
      const ahead = [...initial].reverse();
      // The walk goes on as Okta's import does (okta-fixtures.ts, "Retrieve Users"): while a page is
      // full and totalResults is larger than the last index read.
      let startIndex = 1;
      for (let page = 0; ; page++) {
        assert.ok(page < 100, 'the walk does not end');
        const res = await scim('GET', `/Users?startIndex=${startIndex}&count=7`);
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body.schemas, [LIST_RESPONSE]);
        assert.equal(res.body.startIndex, startIndex);
        assert.equal(res.body.itemsPerPage, res.body.Resources.length);
        assert.ok(res.body.Resources.length <= 7);
        assert.equal(Number.isInteger(res.body.totalResults), true);
        const ids: string[] = res.body.Resources.map((r: { id: string }) => r.id);
        seen.push(...ids);
        startIndex += ids.length;
        if (ids.length < 7 || startIndex > res.body.totalResults) break;
        // Between pages: one user created, one visited user deleted, one not yet visited user deleted.
        await create(`${run}new${created++}`);
        const visited = ids.find((id) => !deleted.has(id));
        const unvisited = ahead.find((id) => !deleted.has(id) && !seen.includes(id));
        for (const id of [visited, unvisited]) {
          if (id === undefined) continue;
          const removed = await scim('DELETE', `/Users/${id}`);
          assert.equal(removed.status, 204, removed.text);
          deleted.add(id);
          if (id === unvisited) deletedAhead += 1;
        }
      }
      assert.ok(deletedAhead > 0 && deleted.size > deletedAhead && created > 0, 'the walk ran while users were created and deleted on both sides of it');
      const counts = new Map<string, number>();
      for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
      const twice = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
      assert.deepEqual(twice, [], 'no user appears twice');
      const survivors = everyone.filter((id) => !deleted.has(id));
      const missed = survivors.filter((id) => !counts.has(id));
      assert.deepEqual(missed, [], 'every user that existed throughout the walk was visited');
    });

    it('totalResults of a userName equality is exact: 1 for the user (any case, any page), 0 for no user', async () => {
      const run = `exact${tag()}`;
      for (let i = 0; i < 5; i++) await create(`${run}n${i}`);
      const id = await create(`${run}Target`);
      const query = (filter: string, extra = '') => scim('GET', `/Users?filter=${encodeURIComponent(filter)}${extra}`);
      for (const spelling of [`${run}Target`, `${run}target`.toUpperCase(), `${run}target`]) {
        const res = await query(`userName eq "${spelling}"`);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.totalResults, 1, res.text);
        assert.deepEqual(res.body.Resources.map((r: { id: string }) => r.id), [id]);
      }
      const counted = await query(`userName eq "${run}Target"`, '&count=0');
      assert.deepEqual([counted.body.totalResults, counted.body.itemsPerPage, counted.body.Resources], [1, 0, []]);
      const second = await query(`userName eq "${run}Target"`, '&startIndex=2');
      assert.deepEqual([second.body.totalResults, second.body.startIndex, second.body.Resources], [1, 2, []]);
      for (const filter of [`userName eq "${run}nobody"`, `userName eq "${run}Target" and active eq false`, `userName eq "${run}Targe"`]) {
        const res = await query(filter);
        assert.equal(res.status, 200, res.text);
        assert.deepEqual([res.body.totalResults, res.body.itemsPerPage, res.body.Resources], [0, 0, []], filter);
      }
      const deactivated = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] });
      assert.equal(deactivated.status, 200, deactivated.text);
      assert.equal((await query(`userName eq "${run}Target" and active eq false`)).body.totalResults, 1);
      assert.equal((await query(`userName eq "${run}Target" and active eq true`)).body.totalResults, 0);
    });
  });

  describe('with API keys', () => {
    let server: TestServer;
    let keys: ApiKeysFixture;
    let uid: string;
    before(async () => {
      keys = apiKeysFixture();
      server = await startTestServer({ store: kind, env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file } });
      const res = await scimRequest(server.baseUrl, 'POST', '/scim/v2/Users', { body: userBody(`guarded${tag()}`), headers: { authorization: `Bearer ${keys.keys.admin}` } });
      assert.equal(res.status, 201, res.text);
      uid = res.body.id;
    });
    after(async () => {
      await server.close();
      keys.cleanup();
    });

    const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
    const bodyFor = (method: string, path: string) =>
      method === 'GET' || method === 'DELETE'
        ? undefined
        : method === 'PATCH'
          ? { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: 'Intruder' }] }
          : path.includes('.search')
            ? { schemas: [SEARCH_REQUEST], filter: 'userName pr' }
            : userBody(`intruder${tag()}`);
    /** Every path the SCIM routes answer, plainly and as percent-encoded spellings the router decodes to them. */
    const routedPaths = () => [
      '/scim/v2/Users',
      `/scim/v2/Users/${uid}`,
      `/scim/v2/Users/${uid.toUpperCase()}`,
      '/scim/v2/Users/.search',
      '/scim/v2/ServiceProviderConfig',
      '/scim/v2/ResourceTypes',
      '/scim/v2/ResourceTypes/User',
      '/scim/v2/Schemas',
      `/scim/v2/Schemas/${CORE}`,
      '/scim/v2/%55sers',
      '/scim/v2/%55%73%65%72%73',
      `/scim/v2/%55sers/${uid}`,
      '/%73cim/v2/Users',
      '/scim/%76%32/Users',
      '/scim/v2/Service%50roviderConfig',
    ];

    /** Sends every method to every path with `headers`; returns what differs from the expected SCIM error. */
    async function refusals(paths: string[], headers: Record<string, string>, status: number, methods: readonly string[] = METHODS): Promise<string[]> {
      const wrong: string[] = [];
      for (const path of paths) {
        for (const method of methods) {
          const body = bodyFor(method, path);
          const res = await scimRequest(server.baseUrl, method, path, { headers, ...(body === undefined ? {} : { body }) });
          const problems = scimErrorProblems(res, status);
          if (status === 401 && !/^Bearer\b/.test(String(res.headers['www-authenticate']))) problems.push(`WWW-Authenticate ${res.headers['www-authenticate']}`);
          if (res.status >= 200 && res.status < 300) problems.unshift('A 2xx');
          if (problems.length > 0) wrong.push(`${method} ${path}: ${problems.join('; ')} — ${res.text.slice(0, 160)}`);
        }
      }
      return wrong;
    }

    async function assertUnchanged(): Promise<void> {
      const admin = { authorization: `Bearer ${keys.keys.admin}` };
      const res = await scimRequest(server.baseUrl, 'GET', '/scim/v2/Users?count=1000', { headers: admin });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.totalResults, 1, `only the one user exists: ${res.text.slice(0, 300)}`);
      assert.equal(res.body.Resources[0].id, uid);
      assert.equal(res.body.Resources[0].displayName, undefined, 'not patched');
    }

    it('every method on every SCIM route, under plain and percent-encoded spellings, is 401 without a credential, with WWW-Authenticate and a SCIM error', async () => {
      const wrong = [...(await refusals(routedPaths(), {}, 401)), ...(await refusals(routedPaths(), { authorization: `Bearer ${keys.keys.unknown}` }, 401, ['GET', 'POST']))];
      assert.deepEqual(wrong, []);
      await assertUnchanged();
    });

    it('a path under /scim/v2 that no route matches (//Users, /Groups) is a 404 SCIM error without a credential, as any unknown path is; never a 2xx', async () => {
      const wrong = await refusals(['/scim/v2//Users', `/scim/v2//Users/${uid}`, '/scim/v2/Groups', '/scim/v2/Bulk'], {}, 404, ['GET', 'POST']);
      assert.deepEqual(wrong, []);
      await assertUnchanged();
    });

    it('with only users:read every write is 403 with a SCIM error, reads succeed, and nothing changes', async () => {
      const reader = { authorization: `Bearer ${keys.keys.reader}` };
      const writes = [
        ['POST', '/scim/v2/Users'],
        ['POST', '/scim/v2/%55sers'],
        ['PUT', `/scim/v2/Users/${uid}`],
        ['PATCH', `/scim/v2/Users/${uid}`],
        ['DELETE', `/scim/v2/Users/${uid}`],
        ['PATCH', `/scim/v2/%55sers/${uid}`],
      ] as const;
      const wrong: string[] = [];
      for (const [method, path] of writes) wrong.push(...(await refusals([path], reader, 403, [method])));
      assert.deepEqual(wrong, []);
      for (const path of ['/scim/v2/Users', `/scim/v2/Users/${uid}`, '/scim/v2/ServiceProviderConfig', '/scim/v2/Schemas']) {
        const res = await scimRequest(server.baseUrl, 'GET', path, { headers: reader });
        assert.equal(res.status, 200, `${path}: ${res.text}`);
      }
      const search = await scimRequest(server.baseUrl, 'POST', '/scim/v2/Users/.search', { headers: reader, body: { schemas: [SEARCH_REQUEST], filter: 'userName pr' } });
      assert.equal(search.status, 200, `a search is a read: ${search.text}`);
      await assertUnchanged();
    });

    it('with only users:write a read is 403 with a SCIM error', async () => {
      const writer = { authorization: `Bearer ${keys.keys.writer}` };
      const wrong = await refusals(['/scim/v2/Users', `/scim/v2/Users/${uid}`, '/scim/v2/ServiceProviderConfig'], writer, 403, ['GET']);
      assert.deepEqual(wrong, []);
    });
  });
});
