/**
 * Property: any legacy id or username a client can store is found again at
 * /users/{key}:{encodeURIComponent(value)} — whatever colons, slashes, percent
 * signs, plus signs or non-ASCII characters it holds.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachStore } from '../helpers/stores.js';
import fc from 'fast-check';
import { canon } from '../../src/users/canonical.js';
import { isLegacyId, isUsername } from '../../src/users/user-formats.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

const RUNS = { numRuns: 150, seed: 20261121 };

describeEachStore('lookup finds every storable value through its percent-encoded path', (store) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store });
  });
  after(() => server.close());

  it('legacy ids with any printable characters', async () => {
    const legacyId = fc
      .string({ unit: fc.oneof(fc.constantFrom(':', '/', '%', '+', ' ', '?', '#', '&', '=', '@', '.', '..'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), minLength: 1, maxLength: 20 })
      .filter(isLegacyId);
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(legacyId, async (id) => {
        if (seen.has(id)) return;
        seen.add(id);
        const created = await server.post('/users', newUser({ legacy_ids: [id] }));
        assert.equal(created.status, 201, created.text);
        const found = await server.get(`/users/legacy_id:${encodeURIComponent(id)}`);
        assert.equal(found.status, 200, `${JSON.stringify(id)}: ${found.text}`);
        assert.equal(found.body.uid, created.body.uid);
      }),
      RUNS,
    );
  });

  it('usernames in any case and width variant', async () => {
    const username = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter(isUsername);
    await fc.assert(
      fc.asyncProperty(username, async (name) => {
        const created = await server.post('/users', newUser({ username: name }));
        if (created.status === 409) return; // a case variant of an earlier generated name
        assert.equal(created.status, 201, created.text);
        // RFC 8265 lower-cases (it does not case-fold): a variant is the same key only when its canonical form is.
        const variants = [name, name.toUpperCase(), name.toLowerCase()].filter((v) => canon(v) === canon(name));
        for (const variant of variants) {
          const found = await server.get(`/users/username:${encodeURIComponent(variant)}`);
          assert.equal(found.status, 200, `${JSON.stringify(variant)}: ${found.text}`);
          assert.equal(found.body.uid, created.body.uid);
        }
      }),
      RUNS,
    );
  });
});
