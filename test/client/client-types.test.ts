/**
 * The typed client cannot drift from the server: its types are generated from
 * the OpenAPI document, and the committed file must be exactly what the current
 * document generates (regenerate with `npm run generate:client-types`).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CLIENT_TYPES_PATH, clientTypesSource, defaultDocument } from '../../scripts/client-types.js';
import { REPO_ROOT } from '../helpers/child-server.js';

describe('the typed client\'s generated types', () => {
  it('are what the current OpenAPI document generates (run npm run generate:client-types after changing a route)', async () => {
    const committed = readFileSync(join(REPO_ROOT, CLIENT_TYPES_PATH), 'utf8');
    assert.ok(committed === (await clientTypesSource(await defaultDocument())), `${CLIENT_TYPES_PATH} is stale`);
  });

  it('name one operation per route, with typed response headers', () => {
    const source = readFileSync(join(REPO_ROOT, CLIENT_TYPES_PATH), 'utf8');
    for (const id of ['createUser', 'searchUsers', 'getUser', 'getUserHead', 'replaceUser', 'deleteUser', 'getLiveness', 'getReadiness', 'getOpenApiDocument', 'getMetrics']) {
      assert.match(source, new RegExp(`^    ${id}: \\{$`, 'm'), `operations.${id}`);
    }
    assert.match(source, /ETag: string;/);
    assert.match(source, /Location: string;/);
  });
});
