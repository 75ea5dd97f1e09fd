/**
 * PUBLIC_URL (CONTRACT §7, http/public-url.ts), with a real server on both doors: every
 * URL an answer names (REST Location, Content-Location and Link; the change feed's Link;
 * SCIM's Location, Content-Location, meta.location, the manager's $ref and the discovery
 * resources' locations; a problem's instance, also one made below the router) is absolute
 * under it, path prefix included, whatever Host the request sent; and a link followed
 * (the prefix taken off, as the proxy in front does) reads the next page.
 * Unset, the same answers are root-relative (create-and-read, scim-users, search tests).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { send } from '../helpers/http-client.js';
import { rawExchange, rawResponse } from '../helpers/raw-exchange.js';
import { scimRequest } from '../helpers/scim-client.js';
import { describeEachStore } from '../helpers/stores.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

const PUBLIC_URL = 'https://directory.example.com/people';
const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

/** The path-absolute target behind an absolute link: what the proxy in front sends on. */
const behindProxy = (url: string) => {
  assert.ok(url.startsWith(`${PUBLIC_URL}/`), url);
  return url.slice(PUBLIC_URL.length);
};
const linkTarget = (link: unknown) => /^<([^>]+)>; rel="next"$/.exec(String(link))?.[1] ?? assert.fail(`no next link: ${String(link)}`);

describeEachStore('PUBLIC_URL with a path prefix', (kind) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store: kind, env: { PUBLIC_URL: `${PUBLIC_URL}/` } });
  });
  after(() => server.close());

  it('REST: Location, Content-Location and the search Link are absolute under it, whatever Host was sent', async () => {
    const created = await server.post('/users', newUser());
    assert.equal(created.status, 201, created.text);
    const uid = created.body.uid as string;
    assert.equal(created.headers.location, `${PUBLIC_URL}/users/${uid}`);
    assert.equal(created.headers['content-location'], `${PUBLIC_URL}/users/${uid}`);
    for (const path of [`/users/${uid}`, `/users/username:${created.body.username}`]) {
      const read = await send(server.baseUrl, 'GET', path, { headers: { host: 'evil.example' } });
      assert.equal(read.status, 200, read.text);
      assert.equal(read.headers['content-location'], `${PUBLIC_URL}/users/${uid}`, path);
    }
    const patched = await server.request('PATCH', `/users/${uid}`, { headers: { 'content-type': 'application/merge-patch+json' }, body: '{"display_name":"P"}' });
    assert.equal(patched.headers['content-location'], `${PUBLIC_URL}/users/${uid}`);
    await server.post('/users', newUser());
    const first = await server.get('/users?limit=1');
    const next = linkTarget(first.headers.link);
    assert.match(next, new RegExp(`^${PUBLIC_URL}/users\\?limit=1&cursor=`));
    const second = await server.get(behindProxy(next));
    assert.equal(second.status, 200, second.text);
    assert.notEqual(second.body[0].uid, first.body[0].uid, 'the link reads the next page');
  });

  it('the OpenAPI document names it as its server, so a generated client calls it', async () => {
    const document = await server.get('/openapi.json');
    assert.deepEqual(document.body.servers.map((s: { url: string }) => s.url), [PUBLIC_URL]);
  });

  it('the change feed\'s Link is absolute under it', async () => {
    await server.post('/users', newUser());
    const page = await server.get('/events?after=0&limit=1');
    const next = linkTarget(page.headers.link);
    assert.equal(next, `${PUBLIC_URL}/events?after=1&limit=1`);
    assert.equal((await server.get(behindProxy(next))).status, 200);
  });

  it('a problem\'s instance is absolute under it, for the router\'s answers and for a request line the parser refused', async () => {
    const missing = await server.get('/users/01890000-0000-7000-8000-000000000000');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.instance, `${PUBLIC_URL}/users/01890000-0000-7000-8000-000000000000`);
    const absoluteForm = await send(server.baseUrl, 'GET', 'http://evil.example/users/nobody%20here', {});
    assert.equal(absoluteForm.body.instance, `${PUBLIC_URL}/users/nobody%20here`, 'the authority the request named is never used');
    const port = Number(new URL(server.baseUrl).port);
    const broken = rawResponse(await rawExchange(port, ['GET /users HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n']));
    assert.equal(broken.status, 400);
    assert.equal(broken.body.instance, `${PUBLIC_URL}/users`);
  });

  it('SCIM: Location, Content-Location, meta.location, the manager\'s $ref and the discovery resources are absolute under it', async () => {
    const scim = (method: string, path: string, body?: unknown) => scimRequest(server.baseUrl, method, `/scim/v2${path}`, { body, headers: { host: 'evil.example' } });
    const userName = `publicurl${String(newUser().username)}`;
    const boss = await scim('POST', '/Users', { schemas: [CORE], userName: `${userName}boss`, emails: [{ value: `${userName}boss@example.com` }] });
    assert.equal(boss.status, 201, boss.text);
    const bossLocation = `${PUBLIC_URL}/scim/v2/Users/${boss.body.id}`;
    assert.equal(boss.headers.location, bossLocation);
    assert.equal(boss.body.meta.location, bossLocation);
    const report = await scim('POST', '/Users', { schemas: [CORE, ENTERPRISE], userName, emails: [{ value: `${userName}@example.com` }], [ENTERPRISE]: { manager: { value: boss.body.id } } });
    assert.equal(report.body[ENTERPRISE].manager.$ref, bossLocation);
    const read = await scim('GET', `/Users/${report.body.id}`);
    assert.equal(read.headers['content-location'], `${PUBLIC_URL}/scim/v2/Users/${report.body.id}`);
    assert.equal(read.body.meta.location, read.headers['content-location']);
    const listed = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
    assert.equal(listed.body.Resources[0].meta.location, read.body.meta.location);
    assert.equal((await scim('GET', '/ServiceProviderConfig')).body.meta.location, `${PUBLIC_URL}/scim/v2/ServiceProviderConfig`);
    assert.equal((await scim('GET', '/ResourceTypes/User')).body.meta.location, `${PUBLIC_URL}/scim/v2/ResourceTypes/User`);
    assert.equal((await scim('GET', `/Schemas/${CORE}`)).body.meta.location, `${PUBLIC_URL}/scim/v2/Schemas/${CORE}`);
  });
});
