import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactUrl } from '../src/request-log.js';

describe('redactUrl', () => {
  it('drops lookup values and query values, keeps key and parameter names', () => {
    assert.equal(redactUrl('/users/email_address:alice%40example.com'), '/users/email_address:…');
    assert.equal(redactUrl('/users/legacy_id:crm:77'), '/users/legacy_id:…');
    assert.equal(redactUrl('/users?q=ali&limit=5'), '/users?q=…&limit=…');
    assert.equal(redactUrl('/users/username:bob?x=1'), '/users/username:…?x=…');
  });
  it('keeps uid paths and service paths as they are', () => {
    assert.equal(redactUrl('/users/01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f'), '/users/01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f');
    assert.equal(redactUrl('/healthz'), '/healthz');
    assert.equal(redactUrl('/users'), '/users');
  });
});
