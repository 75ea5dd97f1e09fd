import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { describe, it } from 'node:test';
import { redactPattern } from '../../src/observability/request-log.js';
import { captureLogs } from '../helpers/log-capture.js';
import { newUser, startTestServer } from '../helpers/test-server.js';

describe('redactPattern', () => {
  it('replaces every parameter and wildcard of a route pattern, keeping the fixed words', () => {
    assert.equal(redactPattern('/users/:ref'), '/users/…');
    assert.equal(redactPattern('/docs/static/*'), '/docs/static/…');
    assert.equal(redactPattern('/a/:b/c/:d'), '/a/…/c/…');
    assert.equal(redactPattern('/healthz'), '/healthz');
  });
});

describe('the access line', () => {
  it('is the line pino would write for the request: its level, time, bindings and request id, then req, res and responseTime', async () => {
    const logs = captureLogs();
    const server = await startTestServer({ env: { LOG_LEVEL: 'info' }, app: { logStream: logs.stream } });
    try {
      const created = await server.post('/users', newUser());
      assert.equal(created.status, 201);
      const before = Date.now();
      const read = await server.get(`/users/${created.body.uid}?x=1`, { 'x-request-id': 'access-line-1' });
      assert.equal(read.status, 200);
      await server.get('/nowhere', { 'x-request-id': 'access-line-2' });
      const [line] = logs.text().split('\n').filter((text) => text.includes('"reqId":"access-line-1"'));
      const record = JSON.parse(line as string);
      // pino's own bindings of the root logger, in its order.
      assert.deepEqual(Object.keys(record), ['level', 'time', 'pid', 'hostname', 'reqId', 'req', 'res', 'responseTime', 'msg']);
      assert.equal(record.level, 30);
      assert.ok(record.time >= before && record.time <= Date.now());
      assert.equal(record.pid, process.pid);
      assert.equal(record.hostname, hostname());
      assert.deepEqual(record.req, { method: 'GET', url: `/users/${created.body.uid}?…=…`, route: '/users/:ref', remoteAddress: '127.0.0.1' });
      assert.deepEqual(record.res, { statusCode: 200 });
      assert.equal(typeof record.responseTime, 'number');
      assert.equal(record.msg, 'request completed');
      const unmatched = logs.records().find((r) => r.reqId === 'access-line-2');
      assert.deepEqual(unmatched?.req, { method: 'GET', url: '(unmatched)', remoteAddress: '127.0.0.1' }, 'no route: no route member');
    } finally {
      await server.close();
    }
  });
});
