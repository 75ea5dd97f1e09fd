/**
 * SCIM 2.0 Users over HTTP (RFC 7644), on every store: the RFC's own examples for
 * create (§3.3), replace (§3.5.1) and modify (§3.5.2, translated to User
 * attributes), delete, preconditions (§3.14), the error format (§3.12), the
 * discovery resources (§4), projection (§3.4.2.5), sorting (§3.4.2.3) and the
 * search request (§3.4.3).
 *
 * SCIM routes are not in the OpenAPI document, so SCIM requests go through the raw
 * client below; REST reads keep using the checked test client.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { assertProblem } from '../helpers/problem-assertions.js';
import { describeEachStore } from '../helpers/stores.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { scimRequest, type ScimResponse } from '../helpers/scim-client.js';
import { send } from '../helpers/http-client.js';

const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const SEARCH_REQUEST = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const STRONG_ETAG = /^"[\x21\x23-\x7e\x80-\xff]*"$/;



const isScimType = (res: ScimResponse) => /^application\/scim\+json(?:;|$)/.test(String(res.headers['content-type']));

/** RFC 7644 §3.12: the Error schema, `status` as a string equal to the HTTP status, a scimType where given. */
function assertScimError(res: ScimResponse, status: number, scimType?: string): void {
  assert.equal(res.status, status, `expected ${status}${scimType ? ` ${scimType}` : ''}, got ${res.status}: ${res.text}`);
  assert.ok(isScimType(res), `content-type ${res.headers['content-type']}: ${res.text}`);
  assert.deepEqual(res.body?.schemas, [ERROR], res.text);
  assert.equal(res.body.status, String(status), `status must be the string "${status}": ${res.text}`);
  if (scimType !== undefined) assert.equal(res.body.scimType, scimType, res.text);
  assert.equal(typeof res.body.detail, 'string', res.text);
}

/** A 2xx SCIM answer: status, media type. */
function assertScimOk(res: ScimResponse, status: number): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${res.text}`);
  if (status !== 204) assert.ok(isScimType(res), `content-type ${res.headers['content-type']}: ${res.text}`);
}

let counter = 0;
const tag = () => `${process.pid}x${++counter}`;

describeEachStore('SCIM /scim/v2/Users (RFC 7644)', (kind) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store: kind });
  });
  after(() => server.close());

  const scim = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, contentType?: string) =>
    scimRequest(server.baseUrl, method, `/scim/v2${path}`, { body, headers, ...(contentType === undefined ? {} : { contentType }) });
  const patchOps = (id: string, operations: unknown[], headers: Record<string, string> = {}) => scim('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: operations }, headers);
  const filterPath = (filter: string, extra = '') => `/Users?filter=${encodeURIComponent(filter)}${extra}`;

  /** A new User with a unique userName and work email; `extra` members are added. */
  async function created(extra: Record<string, unknown> = {}): Promise<{ user: any; etag: string; userName: string; email: string }> {
    const t = tag();
    const userName = `scimuser${t}`;
    const email = `${userName}@example.com`;
    const res = await scim('POST', '/Users', { schemas: [CORE], userName, emails: [{ value: email, type: 'work', primary: true }], ...extra });
    assertScimOk(res, 201);
    return { user: res.body, etag: String(res.headers.etag), userName, email };
  }

  describe('create (RFC 7644 §3.3)', () => {
    // The request body of §3.3, verbatim.
    const rfcExample = () => ({
      schemas: [CORE],
      userName: 'bjensen',
      externalId: 'bjensen',
      name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
    });

    it('refuses the §3.3 example body as printed, which has no email: 400 invalidValue naming emails (the primary email is the directory\'s unique key; /Schemas marks emails required)', async () => {
      const res = await scim('POST', '/Users', rfcExample());
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.scimType, 'invalidValue');
      assert.match(res.body.detail, /emails/);
      const listed = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "bjensen"')}`);
      assert.equal(listed.body.totalResults, 0, 'nothing was created');
    });

    it('answers the §3.3 example (with a work email) with 201, Location, ETag and meta as §3.3 shows', async () => {
      const t = tag();
      const body = { ...rfcExample(), userName: `bjensen${t}`, externalId: `bjensen${t}`, emails: [{ value: `bjensen${t}@example.com`, type: 'work', primary: true }] };
      const res = await scim('POST', '/Users', body);
      assertScimOk(res, 201);
      const user = res.body;
      assert.deepEqual(user.schemas, [CORE]);
      assert.equal(typeof user.id, 'string');
      assert.equal(user.userName, body.userName);
      assert.equal(user.externalId, body.externalId);
      assert.deepEqual(user.name, body.name);
      assert.equal(user.active, true, 'active defaults to true');
      assert.deepEqual(user.emails, body.emails);
      const etag = String(res.headers.etag);
      assert.match(etag, STRONG_ETAG);
      assert.equal(user.meta.resourceType, 'User');
      assert.match(user.meta.created, RFC3339);
      assert.equal(user.meta.lastModified, user.meta.created, 'a new resource was last modified when created');
      assert.equal(user.meta.version, etag, 'meta.version is the ETag');
      assert.equal(res.headers.location, user.meta.location, 'Location is meta.location');
      assert.equal(new URL(user.meta.location, server.baseUrl).pathname, `/scim/v2/Users/${user.id}`);
    });

    it('answers application/scim+json and accepts a body sent as application/json', async () => {
      const t = tag();
      const res = await scim('POST', '/Users', { schemas: [CORE], userName: `asjson${t}`, emails: [{ value: `asjson${t}@example.com` }] }, {}, 'application/json');
      assertScimOk(res, 201);
      const patched = await scimRequest(server.baseUrl, 'PATCH', `/scim/v2/Users/${res.body.id}`, {
        body: { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: 'As JSON' }] },
        contentType: 'application/json',
      });
      assertScimOk(patched, 200);
      assert.equal(patched.body.displayName, 'As JSON');
    });

    it('refuses a text/plain body with 415 in the SCIM error format and creates nothing', async () => {
      const t = tag();
      const res = await scim('POST', '/Users', { schemas: [CORE], userName: `plain${t}`, emails: [{ value: `plain${t}@example.com` }] }, {}, 'text/plain');
      assertScimError(res, 415);
      const found = await scim('GET', filterPath(`userName eq "plain${t}"`));
      assertScimOk(found, 200);
      assert.equal(found.body.totalResults, 0);
    });

    it('refuses a userName that differs from an existing one only in letter case: 409 uniqueness, nothing created', async () => {
      const { userName } = await created();
      const t = tag();
      const res = await scim('POST', '/Users', { schemas: [CORE], userName: userName.toUpperCase(), emails: [{ value: `other${t}@example.com` }] });
      assertScimError(res, 409, 'uniqueness');
      const found = await scim('GET', filterPath(`userName eq "${userName}"`));
      assert.equal(found.body.totalResults, 1, found.text);
      assertProblem(await server.get(`/users/email_address:other${t}@example.com`), 404, 'not-found');
    });
  });

  describe('read', () => {
    it('GET /Users/{id} answers the created User with its ETag, and meta.location as Content-Location', async () => {
      const { user, etag } = await created({ displayName: 'Read Me' });
      const res = await scim('GET', `/Users/${user.id}`);
      assertScimOk(res, 200);
      assert.deepEqual(res.body, user);
      assert.equal(res.headers.etag, etag);
      // RFC 7643 §3.1: meta.location "MUST be the same as the Content-Location HTTP response header".
      assert.equal(res.headers['content-location'], user.meta.location);
    });

    it('an unknown id and a malformed id are 404 in the SCIM error format', async () => {
      assertScimError(await scim('GET', '/Users/01890000-0000-7000-8000-000000000000'), 404);
      assertScimError(await scim('GET', '/Users/00919288221112222'), 404);
    });
  });

  describe('replace (RFC 7644 §3.5.1)', () => {
    it('replaces the User with the §3.5.1 example body: attributes left out are cleared, id and roles: [] accepted', async () => {
      const { user, etag, userName, email } = await created({ displayName: 'Babs', title: 'Tour Guide', nickName: 'B' });
      // §3.5.1's body, with this user's id, userName and addresses.
      const body = {
        schemas: [CORE],
        id: user.id,
        userName,
        externalId: userName,
        name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara', middleName: 'Jane' },
        roles: [],
        emails: [{ value: email }, { value: `babs.${email}` }],
      };
      const res = await scim('PUT', `/Users/${user.id}`, body, { 'if-match': etag });
      assertScimOk(res, 200);
      const replaced = res.body;
      assert.equal(replaced.id, user.id);
      assert.equal(replaced.externalId, userName);
      assert.deepEqual(replaced.name, body.name);
      assert.deepEqual(replaced.emails.map((e: { value: string }) => e.value), [email, `babs.${email}`]);
      for (const cleared of ['displayName', 'title', 'nickName']) assert.equal(replaced[cleared], undefined, `${cleared} was not in the PUT body`);
      assert.notEqual(res.headers.etag, etag, 'a new version');
      assert.equal(replaced.meta.version, res.headers.etag);
      assert.equal(replaced.meta.created, user.meta.created);
      assert.ok(replaced.meta.lastModified >= user.meta.lastModified);
      const read = await scim('GET', `/Users/${user.id}`);
      assert.deepEqual(read.body, replaced, 'stored as answered');
    });
  });

  describe('modify (RFC 7644 §3.5.2, examples translated to User attributes)', () => {
    it('add to a multi-valued attribute (§3.5.2.1): path "emails" appends a home email', async () => {
      const { user, etag, email } = await created();
      const res = await patchOps(user.id, [{ op: 'add', path: 'emails', value: [{ value: 'babs@jensen.org', type: 'home' }] }]);
      assertScimOk(res, 200);
      assert.deepEqual(
        res.body.emails.map((e: any) => [e.value, e.type, e.primary]),
        [
          [email, 'work', true],
          ['babs@jensen.org', 'home', false],
        ],
      );
      assert.notEqual(res.headers.etag, etag);
      assert.equal(res.body.meta.version, res.headers.etag);
    });

    it('add without path (§3.5.2.1): the value\'s members are added, "nickname" matched case-insensitively', async () => {
      const { user } = await created();
      // §3.5.2.1's example, as printed (it spells nickName "nickname").
      const res = await patchOps(user.id, [{ op: 'add', value: { emails: [{ value: 'babs@jensen.org', type: 'home' }], nickname: 'Babs' } }]);
      assertScimOk(res, 200);
      assert.equal(res.body.nickName, 'Babs');
      assert.ok(res.body.emails.some((e: any) => e.value === 'babs@jensen.org' && e.type === 'home'), res.text);
    });

    it('remove with a value filter (§3.5.2.2): only the selected email goes', async () => {
      const { user, email } = await created();
      const withHome = await patchOps(user.id, [{ op: 'add', path: 'emails', value: [{ value: 'babs@jensen.org', type: 'home' }, { value: 'b.other@example.org', type: 'other' }] }]);
      assertScimOk(withHome, 200);
      const res = await patchOps(user.id, [{ op: 'remove', path: 'emails[value eq "babs@jensen.org"]' }]);
      assertScimOk(res, 200);
      assert.deepEqual(res.body.emails.map((e: any) => e.value), [email, 'b.other@example.org']);
    });

    it('replace a member selected by a filter (§3.5.2.3): emails[type eq "work"] is replaced whole and stays primary', async () => {
      const { user, userName } = await created();
      const res = await patchOps(user.id, [{ op: 'replace', path: 'emails[type eq "work"]', value: { value: `${userName}@example.org`, type: 'work', primary: true } }]);
      assertScimOk(res, 200);
      assert.deepEqual(res.body.emails, [{ value: `${userName}@example.org`, type: 'work', primary: true }]);
      const rest = await server.get(`/users/${user.id}`);
      assert.equal(rest.body.email_address, `${userName}@example.org`, 'the primary email is the REST email_address');
    });

    it('replace a sub-attribute of a filtered member (§3.5.2.3): addresses[type eq "work"].streetAddress', async () => {
      const { user } = await created({
        addresses: [
          { type: 'work', streetAddress: '100 Universal City Plaza', locality: 'Hollywood', region: 'CA', postalCode: '91608', country: 'US', primary: true },
          { type: 'home', streetAddress: '456 Hollywood Blvd', locality: 'Hollywood', region: 'CA', postalCode: '91608', country: 'US' },
        ],
      });
      const res = await patchOps(user.id, [{ op: 'replace', path: 'addresses[type eq "work"].streetAddress', value: '1010 Broadway Ave' }]);
      assertScimOk(res, 200);
      const work = res.body.addresses.find((a: any) => a.type === 'work');
      const home = res.body.addresses.find((a: any) => a.type === 'home');
      assert.equal(work.streetAddress, '1010 Broadway Ave');
      assert.equal(work.locality, 'Hollywood', 'the other sub-attributes are kept');
      assert.equal(work.primary, true);
      assert.equal(home.streetAddress, '456 Hollywood Blvd', 'the unselected member is unchanged');
    });
  });

  describe('delete', () => {
    it('DELETE answers 204 without a body; then GET and DELETE are 404', async () => {
      const { user } = await created();
      const res = await scim('DELETE', `/Users/${user.id}`);
      assert.equal(res.status, 204, res.text);
      assert.equal(res.text, '');
      assertScimError(await scim('GET', `/Users/${user.id}`), 404);
      assertScimError(await scim('DELETE', `/Users/${user.id}`), 404);
      assertProblem(await server.get(`/users/${user.id}`), 404, 'not-found');
    });
  });

  describe('If-Match (RFC 7644 §3.14)', () => {
    const stale = '"stale-version"';

    it('a stale If-Match on PUT, PATCH and DELETE is 412 in the SCIM error format and changes nothing', async () => {
      const { user, etag, userName, email } = await created({ displayName: 'Unchanged' });
      const attempts = [
        scim('PUT', `/Users/${user.id}`, { schemas: [CORE], userName, emails: [{ value: email }], displayName: 'Changed' }, { 'if-match': stale }),
        patchOps(user.id, [{ op: 'replace', path: 'displayName', value: 'Changed' }], { 'if-match': stale }),
        scim('DELETE', `/Users/${user.id}`, undefined, { 'if-match': stale }),
        // A weak tag never matches (RFC 9110 §13.1.1: If-Match compares strongly).
        patchOps(user.id, [{ op: 'replace', path: 'displayName', value: 'Changed' }], { 'if-match': `W/${etag}` }),
      ];
      for (const res of await Promise.all(attempts)) assertScimError(res, 412);
      const read = await scim('GET', `/Users/${user.id}`);
      assert.deepEqual(read.body, user);
      assert.equal(read.headers.etag, etag);
    });

    it('GET with If-None-Match of the current ETag (or *) is a 304 with an empty body; a stale tag gets the User', async () => {
      const { user, etag } = await created();
      for (const tagValue of [etag, '*', `W/${etag}`]) {
        const res = await scim('GET', `/Users/${user.id}`, undefined, { 'if-none-match': tagValue });
        assert.equal(res.status, 304, `If-None-Match: ${tagValue} → ${res.status} ${res.text.slice(0, 200)}`);
        assert.equal(res.text, '');
        assert.equal(res.headers.etag, etag);
        // HEAD too, and a 304 carries no Content-Length (RFC 9110 §8.6).
        const head = await scim('HEAD', `/Users/${user.id}`, undefined, { 'if-none-match': tagValue });
        assert.equal(head.status, 304);
        assert.equal(head.headers['content-length'], undefined);
      }
      const changed = await scim('GET', `/Users/${user.id}`, undefined, { 'if-none-match': stale });
      assertScimOk(changed, 200);
      assert.deepEqual(changed.body, user);
    });

    it('the current ETag and * pass on PUT, PATCH and DELETE', async () => {
      const { user, etag, userName, email } = await created();
      const put = await scim('PUT', `/Users/${user.id}`, { schemas: [CORE], userName, emails: [{ value: email }], displayName: 'By ETag' }, { 'if-match': etag });
      assertScimOk(put, 200);
      const patched = await patchOps(user.id, [{ op: 'replace', path: 'displayName', value: 'By star' }], { 'if-match': '*' });
      assertScimOk(patched, 200);
      assert.equal(patched.body.displayName, 'By star');
      const put2 = await scim('PUT', `/Users/${user.id}`, { schemas: [CORE], userName, emails: [{ value: email }], displayName: 'Star again' }, { 'if-match': '*' });
      assertScimOk(put2, 200);
      const patched2 = await patchOps(user.id, [{ op: 'replace', path: 'title', value: 'By ETag' }], { 'if-match': String(put2.headers.etag) });
      assertScimOk(patched2, 200);
      assert.equal(patched2.body.title, 'By ETag');
      assert.equal(patched2.body.displayName, 'Star again');
      const removed = await scim('DELETE', `/Users/${user.id}`, undefined, { 'if-match': String(patched2.headers.etag) });
      assert.equal(removed.status, 204, removed.text);
      const other = await created();
      assert.equal((await scim('DELETE', `/Users/${other.user.id}`, undefined, { 'if-match': '*' })).status, 204);
    });
  });

  describe('If-None-Match on writes (RFC 7644 §3.14, RFC 9110 §13.1.2)', () => {
    const writes = (id: string, userName: string, email: string, headers: Record<string, string>) => [
      scim('PUT', `/Users/${id}`, { schemas: [CORE], userName, emails: [{ value: email }], displayName: 'Changed' }, headers),
      patchOps(id, [{ op: 'replace', path: 'displayName', value: 'Changed' }], headers),
      scim('DELETE', `/Users/${id}`, undefined, headers),
    ];

    it('* or a tag matching the current ETag (weakly) on PUT, PATCH and DELETE is 412 in the SCIM error format and changes nothing', async () => {
      const { user, etag, userName, email } = await created({ displayName: 'Unchanged' });
      for (const value of ['*', etag, `W/${etag}`, `"other", ${etag}`]) {
        for (const res of await Promise.all(writes(user.id, userName, email, { 'if-none-match': value }))) assertScimError(res, 412);
      }
      for (const res of await Promise.all(writes(user.id, userName, email, { 'if-match': etag, 'if-none-match': etag }))) assertScimError(res, 412);
      const read = await scim('GET', `/Users/${user.id}`);
      assert.deepEqual(read.body, user);
      assert.equal(read.headers.etag, etag);
    });

    it('a malformed If-None-Match is a 400 in the SCIM error format and changes nothing', async () => {
      const { user, etag, userName, email } = await created({ displayName: 'Unchanged' });
      for (const res of await Promise.all(writes(user.id, userName, email, { 'if-none-match': 'xyzzy' }))) assertScimError(res, 400, 'invalidSyntax');
      assert.equal((await scim('GET', `/Users/${user.id}`)).headers.etag, etag);
    });

    it('a tag that does not match lets each write proceed', async () => {
      const { user, etag, userName, email } = await created();
      const put = await scim('PUT', `/Users/${user.id}`, { schemas: [CORE], userName, emails: [{ value: email }], displayName: 'Put' }, { 'if-none-match': '"other"' });
      assertScimOk(put, 200);
      const patched = await patchOps(user.id, [{ op: 'replace', path: 'displayName', value: 'Patched' }], { 'if-match': String(put.headers.etag), 'if-none-match': etag });
      assertScimOk(patched, 200);
      assert.equal((await scim('DELETE', `/Users/${user.id}`, undefined, { 'if-none-match': `W/${etag}` })).status, 204);
    });
  });

  describe('errors (RFC 7644 §3.12)', () => {
    it('/Groups and /Bulk, which this service does not provide, are 404 in the SCIM error format', async () => {
      for (const [method, path] of [['GET', '/Groups'], ['POST', '/Groups'], ['GET', '/Groups/abc'], ['GET', '/Bulk'], ['POST', '/Bulk']] as const) {
        const res = await scim(method, path, method === 'POST' ? { schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'], Operations: [] } : undefined);
        assertScimError(res, 404);
      }
    });

    it('a method a SCIM path does not define is a 405 with Allow, in the SCIM error format', async () => {
      for (const [method, path] of [['PUT', '/Users'], ['DELETE', '/Users'], ['POST', '/Users/01890000-0000-7000-8000-000000000000'], ['GET', '/Users/.search'], ['DELETE', '/ServiceProviderConfig'], ['POST', '/Schemas']] as const) {
        const res = await scim(method, path);
        assert.equal(typeof res.headers.allow, 'string', `${method} ${path}: Allow`);
        assertScimError(res, 405);
      }
    });

    it('a filter that does not parse is a 400 invalidFilter, in the query and in a SearchRequest', async () => {
      const bad = ['userName eq', 'userName xx "a"', '(userName eq "a"', 'userName eq "a" and', 'emails[type eq "work"', 'userName eq \'a\'', 'eq "a"', ''];
      for (const filter of bad) {
        assertScimError(await scim('GET', filterPath(filter)), 400, 'invalidFilter');
        assertScimError(await scim('POST', '/Users/.search', { schemas: [SEARCH_REQUEST], filter }), 400, 'invalidFilter');
      }
    });

    it('an attribute the User does not have (photos) is a 400 invalidValue in POST, PUT and attributes=, invalidPath in a PATCH path', async () => {
      const t = tag();
      const photos = [{ value: 'https://photos.example.com/profilephoto/72930000000Ccne/F', type: 'photo' }];
      assertScimError(await scim('POST', '/Users', { schemas: [CORE], userName: `photo${t}`, emails: [{ value: `photo${t}@example.com` }], photos }), 400, 'invalidValue');
      assertProblem(await server.get(`/users/username:photo${t}`), 404, 'not-found');
      const { user, userName, email } = await created();
      assertScimError(await scim('PUT', `/Users/${user.id}`, { schemas: [CORE], userName, emails: [{ value: email }], photos }), 400, 'invalidValue');
      assertScimError(await scim('GET', `/Users/${user.id}?attributes=photos`), 400, 'invalidValue');
      assertScimError(await patchOps(user.id, [{ op: 'add', path: 'photos', value: photos }]), 400, 'invalidPath');
      assert.deepEqual((await scim('GET', `/Users/${user.id}`)).body, user, 'nothing changed');
    });

    it('remove without a path, and a value filter that selects nothing, are 400 noTarget', async () => {
      const { user } = await created();
      assertScimError(await patchOps(user.id, [{ op: 'remove' }]), 400, 'noTarget');
      assertScimError(await patchOps(user.id, [{ op: 'remove', path: 'emails[type eq "home"]' }]), 400, 'noTarget');
      assert.deepEqual((await scim('GET', `/Users/${user.id}`)).body, user, 'nothing changed');
    });

    it('patching id or meta is a 400 mutability and changes nothing', async () => {
      const { user } = await created();
      assertScimError(await patchOps(user.id, [{ op: 'replace', path: 'id', value: '01890000-0000-7000-8000-000000000000' }]), 400, 'mutability');
      assertScimError(await patchOps(user.id, [{ op: 'replace', path: 'meta.lastModified', value: '2020-01-01T00:00:00Z' }]), 400, 'mutability');
      assert.deepEqual((await scim('GET', `/Users/${user.id}`)).body, user);
    });
  });

  describe('password (RFC 7643 §4.1.1: writeOnly, returned never)', () => {
    it('a password sent in create, PUT and PATCH is never returned, nor found in GET /events', async () => {
      const secrets = [`Cr3ate-${tag()}-s3cret`, `Put-${tag()}-s3cret`, `Patch-${tag()}-s3cret`];
      const { user, userName, email } = await created({ password: secrets[0] });
      const answers: ScimResponse[] = [await scim('GET', `/Users/${user.id}`)];
      answers.push(await scim('PUT', `/Users/${user.id}`, { schemas: [CORE], userName, emails: [{ value: email }], displayName: 'Replaced', password: secrets[1] }));
      answers.push(await patchOps(user.id, [{ op: 'replace', path: 'password', value: secrets[2] }, { op: 'replace', path: 'title', value: 'Changed' }]));
      answers.push(await patchOps(user.id, [{ op: 'replace', value: { password: secrets[2], nickName: 'Pw' } }]));
      answers.push(await scim('GET', `/Users/${user.id}`));
      answers.push(await scim('GET', filterPath(`userName eq "${userName}"`)));
      answers.push(await scim('GET', `/Users/${user.id}?attributes=userName,password`));
      for (const res of answers) {
        assert.ok(res.status < 300, `${res.status} ${res.text}`);
        assert.equal(/password/i.test(res.text), false, `an answer mentions a password: ${res.text}`);
        for (const secret of secrets) assert.equal(res.text.includes(secret), false, `an answer carries a password: ${res.text}`);
      }
      const rest = await server.get(`/users/${user.id}`);
      for (const secret of secrets) assert.equal(rest.text.includes(secret), false, rest.text);
      // Every page of the change feed.
      let feed = '';
      for (let position = 0; ; ) {
        const page = await server.get(`/events?after=${position}&limit=1000`);
        assert.equal(page.status, 200, page.text);
        if (page.body.length === 0) break;
        feed += page.text;
        position = Number(page.body[page.body.length - 1].id);
      }
      assert.ok(feed.includes(user.id), 'the feed holds the user\'s events');
      for (const secret of secrets) assert.equal(feed.includes(secret), false, 'a password reached the change feed');
    });
  });

  describe('discovery (RFC 7644 §4)', () => {
    it('/ServiceProviderConfig: patch, sort and etag supported; bulk and changePassword not', async () => {
      const res = await scim('GET', '/ServiceProviderConfig');
      assertScimOk(res, 200);
      const config = res.body;
      assert.deepEqual(config.schemas, ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig']);
      assert.equal(config.patch.supported, true);
      assert.equal(config.sort.supported, true);
      assert.equal(config.etag.supported, true);
      assert.equal(config.filter.supported, true);
      assert.equal(Number.isInteger(config.filter.maxResults), true);
      assert.equal(config.bulk.supported, false);
      assert.equal(config.changePassword.supported, false);
      assert.ok(Array.isArray(config.authenticationSchemes) && config.authenticationSchemes.length > 0);
    });

    it('/ResourceTypes lists User with the enterprise extension; /ResourceTypes/User is the same resource', async () => {
      const res = await scim('GET', '/ResourceTypes');
      assertScimOk(res, 200);
      assert.deepEqual(res.body.schemas, [LIST_RESPONSE]);
      assert.equal(res.body.totalResults, res.body.Resources.length);
      const user = res.body.Resources.find((r: any) => r.id === 'User');
      assert.ok(user, res.text);
      assert.equal(user.name, 'User');
      assert.equal(user.endpoint, '/Users');
      assert.equal(user.schema, CORE);
      assert.deepEqual(user.schemaExtensions, [{ schema: ENTERPRISE, required: false }]);
      assert.deepEqual(user.schemas, ['urn:ietf:params:scim:schemas:core:2.0:ResourceType']);
      const one = await scim('GET', '/ResourceTypes/User');
      assertScimOk(one, 200);
      assert.deepEqual(one.body, user);
      assertScimError(await scim('GET', '/ResourceTypes/Group'), 404);
    });

    it('/Schemas holds the core User and the enterprise schema; /Schemas/{id} answers each, an unknown id is 404', async () => {
      const res = await scim('GET', '/Schemas');
      assertScimOk(res, 200);
      assert.deepEqual(res.body.schemas, [LIST_RESPONSE]);
      const ids = res.body.Resources.map((s: any) => s.id);
      assert.ok(ids.includes(CORE) && ids.includes(ENTERPRISE), ids.join(', '));
      for (const schema of res.body.Resources) {
        assert.deepEqual(schema.schemas, ['urn:ietf:params:scim:schemas:core:2.0:Schema']);
        const one = await scim('GET', `/Schemas/${schema.id}`);
        assertScimOk(one, 200);
        assert.deepEqual(one.body, schema);
      }
      const core = res.body.Resources.find((s: any) => s.id === CORE);
      const userName = core.attributes.find((a: any) => a.name === 'userName');
      assert.equal(userName.required, true);
      assert.equal(userName.caseExact, false);
      assert.equal(userName.uniqueness, 'server');
      const password = core.attributes.find((a: any) => a.name === 'password');
      assert.equal(password.mutability, 'writeOnly');
      assert.equal(password.returned, 'never');
      const enterprise = res.body.Resources.find((s: any) => s.id === ENTERPRISE);
      assert.ok(enterprise.attributes.some((a: any) => a.name === 'department'));
      assert.ok(enterprise.attributes.some((a: any) => a.name === 'manager' && a.type === 'complex'));
      assertScimError(await scim('GET', '/Schemas/urn:ietf:params:scim:schemas:core:2.0:Group'), 404);
    });

    it('a User built from /Schemas\' required attributes and sub-attributes is created; an email entry without its required value is refused, and nothing is created', async () => {
      const core = (await scim('GET', `/Schemas/${CORE}`)).body;
      const t = tag();
      // What a schema-driven client (scim2-tester) sends: every required attribute, and in a complex one every required sub-attribute.
      const samples: Record<string, unknown> = { userName: `fromschema${t}`, 'emails.value': `fromschema${t}@example.com` };
      const body: Record<string, unknown> = { schemas: [CORE] };
      for (const attribute of core.attributes.filter((a: any) => a.required)) {
        if (attribute.type !== 'complex') body[attribute.name] = samples[attribute.name];
        else {
          const entry = Object.fromEntries(attribute.subAttributes.filter((s: any) => s.required).map((s: any) => [s.name, samples[`${attribute.name}.${s.name}`]]));
          body[attribute.name] = attribute.multiValued ? [entry] : entry;
        }
      }
      assert.deepEqual(Object.keys(body).sort(), ['emails', 'schemas', 'userName'], 'userName and emails are required');
      assert.deepEqual(body.emails, [{ value: `fromschema${t}@example.com` }], 'emails.value is required');
      const created = await scim('POST', '/Users', body);
      assertScimOk(created, 201);
      assert.equal(created.body.emails[0].value, `fromschema${t}@example.com`);

      const phoneValue = core.attributes.find((a: any) => a.name === 'phoneNumbers').subAttributes.find((s: any) => s.name === 'value');
      assert.equal(phoneValue.required, true);
      for (const [emails, phoneNumbers] of [[[{ primary: true }], undefined], [[{ type: 'work', primary: true }, { value: `second${t}@example.com` }], undefined], [[{ value: `phone${t}@example.com` }], [{ type: 'work' }]]]) {
        const res = await scim('POST', '/Users', { schemas: [CORE], userName: `novalue${t}`, emails, ...(phoneNumbers === undefined ? {} : { phoneNumbers }) });
        assertScimError(res, 400, 'invalidValue');
        assert.match(res.body.detail, /(emails|phoneNumbers)\[0\]\.value is required/);
      }
      const listed = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "novalue${t}"`)}`);
      assert.equal(listed.body.totalResults, 0, 'nothing was created');
    });

    it('the enterprise manager.$ref is declared read-only and returned as the manager\'s SCIM location, built from value; a $ref sent is ignored, a PATCH of it is a 400 mutability', async () => {
      const enterprise = (await scim('GET', `/Schemas/${ENTERPRISE}`)).body;
      const ref = enterprise.attributes.find((a: any) => a.name === 'manager').subAttributes.find((s: any) => s.name === '$ref');
      assert.deepEqual({ mutability: ref.mutability, returned: ref.returned, type: ref.type }, { mutability: 'readOnly', returned: 'default', type: 'reference' });
      const boss = await created();
      const report = await created({ schemas: [CORE, ENTERPRISE], [ENTERPRISE]: { manager: { value: boss.user.id, $ref: 'https://elsewhere.example/Users/someone-else' } } });
      assert.deepEqual(report.user[ENTERPRISE].manager, { value: boss.user.id, $ref: boss.user.meta.location });
      const read = await scim('GET', `/Users/${report.user.id}`);
      assert.equal(read.body[ENTERPRISE].manager.$ref, boss.user.meta.location);
      const other = await created();
      const moved = await patchOps(report.user.id, [{ op: 'replace', path: `${ENTERPRISE}:manager.value`, value: other.user.id }]);
      assertScimOk(moved, 200);
      assert.deepEqual(moved.body[ENTERPRISE].manager, { value: other.user.id, $ref: other.user.meta.location }, 'the $ref follows the value');
      assertScimError(await patchOps(report.user.id, [{ op: 'replace', path: `${ENTERPRISE}:manager.$ref`, value: boss.user.meta.location }]), 400, 'mutability');
    });
  });

  describe('projection (RFC 7644 §3.4.2.5)', () => {
    it('attributes=userName,name.givenName answers only those, plus id and schemas', async () => {
      const { user } = await created({ name: { givenName: 'Barbara', familyName: 'Jensen' }, displayName: 'Babs' });
      const res = await scim('GET', `/Users/${user.id}?attributes=userName,name.givenName`);
      assertScimOk(res, 200);
      assert.deepEqual(res.body, { schemas: [CORE], id: user.id, userName: user.userName, name: { givenName: 'Barbara' } });
      const listed = await scim('GET', filterPath(`userName eq "${user.userName}"`, '&attributes=userName'));
      assert.deepEqual(listed.body.Resources, [{ schemas: [CORE], id: user.id, userName: user.userName }]);
    });

    it('excludedAttributes=emails,name leaves those out and keeps the rest; id cannot be excluded', async () => {
      const { user } = await created({ name: { givenName: 'Barbara', familyName: 'Jensen' }, displayName: 'Babs' });
      const res = await scim('GET', `/Users/${user.id}?excludedAttributes=emails,name,id`);
      assertScimOk(res, 200);
      const { emails: _emails, name: _name, ...rest } = user;
      assert.deepEqual(res.body, rest);
    });

    it('attributes and excludedAttributes together are a 400 invalidValue', async () => {
      const { user } = await created();
      assertScimError(await scim('GET', `/Users/${user.id}?attributes=userName&excludedAttributes=emails`), 400, 'invalidValue');
    });
  });

  describe('sorting and searching', () => {
    it('sortBy=userName with sortOrder=descending orders userNames case-insensitively, last first', async () => {
      const prefix = `sortp${tag()}`;
      const names = [`${prefix}b`, `${prefix.toUpperCase()}C`, `${prefix}a`, `${prefix}D`];
      for (const userName of names) assertScimOk(await scim('POST', '/Users', { schemas: [CORE], userName, emails: [{ value: `${userName}@example.com` }] }), 201);
      const res = await scim('GET', filterPath(`userName sw "${prefix}"`, '&sortBy=userName&sortOrder=descending'));
      assertScimOk(res, 200);
      assert.equal(res.body.totalResults, 4);
      assert.deepEqual(res.body.Resources.map((r: any) => r.userName), [`${prefix}D`, `${prefix.toUpperCase()}C`, `${prefix}b`, `${prefix}a`]);
      const ascending = await scim('GET', filterPath(`userName sw "${prefix}"`, '&sortBy=userName&sortOrder=ascending&startIndex=2&count=2'));
      assert.deepEqual(ascending.body.Resources.map((r: any) => r.userName), [`${prefix}b`, `${prefix.toUpperCase()}C`]);
      assert.equal(ascending.body.startIndex, 2);
      assert.equal(ascending.body.itemsPerPage, 2);
    });

    it('POST /Users/.search (§3.4.3) answers as the same query on GET /Users', async () => {
      const prefix = `search${tag()}`;
      for (const suffix of ['a', 'b', 'c']) assertScimOk(await scim('POST', '/Users', { schemas: [CORE], userName: `${prefix}${suffix}`, emails: [{ value: `${prefix}${suffix}@example.com` }] }), 201);
      const res = await scim('POST', '/Users/.search', {
        schemas: [SEARCH_REQUEST],
        attributes: ['userName', 'emails'],
        filter: `userName sw "${prefix}"`,
        sortBy: 'userName',
        sortOrder: 'descending',
        startIndex: 1,
        count: 2,
      });
      assertScimOk(res, 200);
      assert.deepEqual(res.body.schemas, [LIST_RESPONSE]);
      assert.equal(res.body.totalResults, 3);
      assert.equal(res.body.itemsPerPage, 2);
      assert.deepEqual(res.body.Resources.map((r: any) => r.userName), [`${prefix}c`, `${prefix}b`]);
      assert.deepEqual(Object.keys(res.body.Resources[0]).sort(), ['emails', 'id', 'schemas', 'userName']);
      const viaGet = await scim('GET', filterPath(`userName sw "${prefix}"`, '&attributes=userName,emails&sortBy=userName&sortOrder=descending&startIndex=1&count=2'));
      assert.deepEqual(res.body, viaGet.body);
    });

    it('a bad SearchRequest is a 400 invalidValue whose detail names the SearchRequest, never a user', async () => {
      const raw = (text: string) => send(server.baseUrl, 'POST', '/scim/v2/Users/.search', { headers: { 'content-type': 'application/scim+json' }, body: text });
      const bad = [
        `{"schemas":["${SEARCH_REQUEST}"],"startIndex":1e400}`,
        `{"schemas":["${SEARCH_REQUEST}"],"count":1.5}`,
        `{"schemas":["${SEARCH_REQUEST}"],"startIndex":"1"}`,
        `{"schemas":["${SEARCH_REQUEST}"],"filter":"userName eq \\"a\\u0000\\""}`,
        `{"schemas":["${SEARCH_REQUEST}"],"sortBy":7}`,
        `{"schemas":["urn:other"]}`,
        `{"schemas":["${SEARCH_REQUEST}"],"colour":"red"}`,
      ];
      for (const text of bad) {
        const res = await raw(text);
        assertScimError(res, 400, 'invalidValue');
        assert.match(res.body.detail, /SearchRequest/, text);
        assert.doesNotMatch(res.body.detail, /user is not valid/i, text);
      }
    });
  });

  describe('validation', () => {
    it('a User the directory cannot store is a 400 invalidValue naming SCIM attributes, never REST pointers or a regular expression; nothing is created', async () => {
      const t = tag();
      const res = await scim('POST', '/Users', { schemas: [CORE], userName: '', emails: [{ value: `v${t}@example.com` }], name: { givenName: 'x'.repeat(300) }, timezone: 'not a zone!' });
      assertScimError(res, 400, 'invalidValue');
      assert.match(res.body.detail, /userName/);
      assert.match(res.body.detail, /; name\.givenName must NOT have more than 256 characters/);
      assert.match(res.body.detail, /timezone/);
      assert.doesNotMatch(res.body.detail, /\/username|given_name|must match pattern|\.\.$/);
      const listed = await scim('GET', `/Users?filter=${encodeURIComponent(`emails.value eq "v${t}@example.com"`)}`);
      assert.equal(listed.body.totalResults, 0);
    });
  });
});
