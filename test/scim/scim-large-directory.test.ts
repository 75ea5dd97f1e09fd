/**
 * SCIM lists on a directory larger than SCAN_LIMIT (src/scim/scim-query.ts): what needs
 * every user read is refused with 400 tooMany, never answered by a scan; what an index
 * or a store filter answers still is, with an exact totalResults.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { v7 as uuidv7 } from 'uuid';
import { SCAN_LIMIT } from '../../src/scim/scim-query.js';
import { withDefaults } from '../../src/users/user.js';
import { scimRequest } from '../helpers/scim-client.js';
import { describeEachStore } from '../helpers/stores.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describeEachStore('SCIM lists past SCAN_LIMIT users', (kind) => {
  let server: TestServer;
  const count = SCAN_LIMIT + 1;
  before(async () => {
    server = await startTestServer({ store: kind });
    const now = new Date().toISOString();
    const users = Array.from({ length: count }, (_, i) =>
      withDefaults({ uid: uuidv7(), username: `big${i}`, email_address: `big${i}@example.com`, legacy_ids: [], display_name: null, attributes: {}, created_at: now, updated_at: now, version: 1 }),
    );
    for (let i = 0; i < users.length; i += 1000) await server.store.importUsers(users.slice(i, i + 1000), 'skip', now);
  });
  after(() => server.close());

  const get = (query: string) => scimRequest(server.baseUrl, 'GET', `/scim/v2/Users?${query}`);

  it('a filter with no indexed condition (title pr, userName sw, a top-level or) is 400 tooMany', async () => {
    for (const filter of ['title pr', 'userName sw "big1"', 'userName eq "big1" or userName eq "big2"', 'not (active eq false)']) {
      const res = await get(`filter=${encodeURIComponent(filter)}`);
      assert.equal(res.status, 400, `${filter}: ${res.text}`);
      assert.equal(res.body.scimType, 'tooMany', filter);
    }
  });

  it('a sort the store cannot sort by is 400 tooMany; a sort it can pages from its index, and the unsorted list too, with the exact total', async () => {
    const sorted = await get('sortBy=externalId&count=5');
    assert.equal(sorted.status, 400, sorted.text);
    assert.equal(sorted.body.scimType, 'tooMany');
    const page = await get('startIndex=1&count=5');
    assert.equal(page.status, 200, page.text);
    assert.equal(page.body.totalResults, count);
    assert.equal(page.body.Resources.length, 5);
    // userName descending, walked page by page: the store's sort index, every user once.
    const names: string[] = [];
    for (let start = 1; start <= count; start += 1000) {
      const byName = await get(`sortBy=userName&sortOrder=descending&startIndex=${start}&count=1000&attributes=userName`);
      assert.equal(byName.status, 200, byName.text);
      assert.equal(byName.body.totalResults, count);
      names.push(...(byName.body.Resources as { userName: string }[]).map((r) => r.userName));
    }
    assert.equal(names.length, count);
    assert.deepEqual(names, [...names].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    const filtered = await get(`filter=${encodeURIComponent('active eq true')}&sortBy=name.familyName&count=3`);
    assert.deepEqual([filtered.status, filtered.body.totalResults, filtered.body.Resources.length], [200, count, 3]);
  });

  it('indexed conditions still answer, with residual conditions checked on their candidates', async () => {
    const one = await get(`filter=${encodeURIComponent('userName eq "BIG7" and emails[value sw "big7@"]')}`);
    assert.equal(one.status, 200, one.text);
    assert.deepEqual([one.body.totalResults, one.body.Resources[0]?.userName], [1, 'big7']);
    const byEmail = await get(`filter=${encodeURIComponent('emails.value eq "big9@example.com"')}`);
    assert.deepEqual([byEmail.body.totalResults, byEmail.body.Resources[0]?.userName], [1, 'big9']);
    const none = await get(`filter=${encodeURIComponent('userName eq "big7" and title pr')}`);
    assert.deepEqual([none.status, none.body.totalResults], [200, 0]);
    const active = await get(`filter=${encodeURIComponent('active eq true')}&count=3`);
    assert.deepEqual([active.status, active.body.totalResults, active.body.Resources.length], [200, count, 3]);
  });
});
