/**
 * One query engine, two syntaxes (docs/scim.md, "Filters"): the SCIM filters an identity
 * provider sends on profile fields and timestamps become the same store query as the REST
 * search parameters, and answer the same users. On both stores.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachStore } from '../helpers/stores.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { scimRequest } from '../helpers/scim-client.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

describeEachStore('SCIM filters and REST parameters answer alike', (kind) => {
  let server: TestServer;
  const run = `se${process.pid}${Date.now().toString(36)}`;
  const made: { uid: string; created_at: string; updated_at: string }[] = [];

  before(async () => {
    server = await startTestServer({ store: kind });
    for (let i = 0; i < 6; i++) {
      const response = await server.post(
        '/users',
        newUser({ department: i % 2 === 0 ? `Sales ${run}` : `R&D ${run}`, title: i === 1 ? `CEO ${run}` : `Engineer ${run}`, employee_number: `${run}-${i}`, manager: { value: i < 3 ? `Boss-${run}` : `boss-${run}` } }),
      );
      assert.equal(response.status, 201, response.text);
      made.push(response.body);
    }
  });
  after(() => server?.close());

  async function scimIds(filter: string): Promise<string[]> {
    const res = await scimRequest(server.baseUrl, 'GET', `/scim/v2/Users?count=100&filter=${encodeURIComponent(filter)}`);
    assert.equal(res.status, 200, `${filter}: ${res.text}`);
    assert.equal(res.body.totalResults, res.body.Resources.length, filter);
    return (res.body.Resources as { id: string }[]).map((r) => r.id).sort();
  }

  async function restIds(query: string): Promise<string[]> {
    const res = await server.get(`/users?${query}`);
    assert.equal(res.status, 200, res.text);
    return (res.body as { uid: string }[]).map((u) => u.uid).sort();
  }

  const pairs: [string, string][] = [
    [`${ENTERPRISE}:department eq "sales ${run}"`, `department=${encodeURIComponent(`SALES ${run}`)}`],
    [`title eq "ceo ${run}"`, `title=${encodeURIComponent(`CEO ${run}`)}`],
    [`${ENTERPRISE}:employeeNumber eq "${run}-4" and ${ENTERPRISE}:department eq "Sales ${run}"`, `employee_number=${run}-4&department=${encodeURIComponent(`sales ${run}`)}`],
  ];
  for (const [filter, query] of pairs) {
    it(`${filter} answers as ?${decodeURIComponent(query)}`, async () => {
      const scim = await scimIds(filter);
      assert.ok(scim.length > 0);
      assert.deepEqual(scim, await restIds(query));
    });
  }

  it('a date-time no store holds is 400 invalidFilter, never a 500', async () => {
    for (const at of ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59-01:00', '2016-12-31T23:59:60Z']) {
      for (const filter of [`meta.created gt "${at}"`, `meta.lastModified le "${at}"`, `meta.created gt "${at}" and meta.created gt "2020-01-01T00:00:00Z"`]) {
        const res = await scimRequest(server.baseUrl, 'GET', `/scim/v2/Users?filter=${encodeURIComponent(filter)}`);
        assert.equal(res.status, 400, `${filter}: ${res.text}`);
        assert.equal(res.body.scimType, 'invalidFilter', filter);
      }
    }
  });

  it('manager.value is case-exact in SCIM: the index narrows, the filter decides', async () => {
    assert.deepEqual(await scimIds(`${ENTERPRISE}:manager.value eq "Boss-${run}"`), made.slice(0, 3).map((u) => u.uid).sort());
    // REST compares every facet case-insensitively.
    assert.deepEqual(await restIds(`manager=boss-${run}`), made.map((u) => u.uid).sort());
  });

  it('meta.created and meta.lastModified bounds answer as created_after, created_before and updated_since', async () => {
    const middle = made[3]!.created_at;
    const scoped = `${ENTERPRISE}:manager.value pr and title co "${run}"`;
    assert.deepEqual(await scimIds(`${scoped} and meta.created ge "${middle}"`), made.slice(3).map((u) => u.uid).sort());
    assert.deepEqual(await scimIds(`${scoped} and meta.created lt "${middle}"`), made.slice(0, 3).map((u) => u.uid).sort());
    assert.deepEqual(await scimIds(`${scoped} and meta.lastModified ge "${made[5]!.updated_at}" and meta.lastModified le "${made[5]!.updated_at}"`), [made[5]!.uid]);
    assert.deepEqual(await restIds(`title=${encodeURIComponent(`engineer ${run}`)}&created_after=${encodeURIComponent(middle)}`), made.slice(3).map((u) => u.uid).sort());
  });
});
