import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkMetrics, promtoolSkip } from './helpers/promtool.js';
import { scimRequest } from './helpers/scim-client.js';
import { describeEachStore } from './helpers/stores.js';
import { newUser, startTestServer, type TestServer } from './helpers/test-server.js';

/** Parses the Prometheus text exposition format strictly enough to catch a malformed line. */
function parsePrometheus(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/.exec(line);
    assert.ok(match, `not a Prometheus sample line: ${JSON.stringify(line)}`);
    samples.set(`${match[1]}${match[2] ?? ''}`, Number(match[3]));
  }
  return samples;
}

describe('GET /metrics', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('is Prometheus text that counts the requests just made, by route pattern and status, and times the store', async () => {
    const created = await server.post('/users', newUser({ email_address: 'metrics.person@example.com' }));
    for (let i = 0; i < 3; i++) await server.get(`/users/${created.body.uid}`);
    await server.get('/users/email_address:metrics.person@example.com');
    await server.get('/users/username:nobody-here');
    const res = await server.get('/metrics');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const samples = parsePrometheus(res.text);
    assert.equal(samples.get('http_requests_total{method="POST",route="/users",status="201"}'), 1);
    assert.equal(samples.get('http_requests_total{method="GET",route="/users/:ref",status="200"}'), 4);
    assert.equal(samples.get('http_requests_total{method="GET",route="/users/:ref",status="404"}'), 1);
    assert.equal(samples.get('http_request_duration_seconds_count{method="GET",route="/users/:ref",status="200"}'), 4);
    assert.equal(samples.get('user_store_operation_duration_seconds_count{operation="create",outcome="ok"}'), 1);
    assert.equal(samples.get('user_store_operation_duration_seconds_count{operation="lookup",outcome="ok"}'), 5);
    assert.equal(samples.get('user_store_operations_in_flight{operation="create"}'), 0);
    assert.ok((samples.get('process_resident_memory_bytes') ?? 0) > 0, 'default process metrics');
    assert.doesNotMatch(res.text, /metrics\.person|example\.com/, 'labels hold route patterns, never values');
  });
});

describeEachStore('GET /metrics, linted by Prometheus', (kind) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store: kind });
  });
  after(() => server.close());

  it('passes `promtool check metrics` with no finding, every family the service exports present (no gauge named like a counter)', { skip: promtoolSkip }, async () => {
    // Every family gets samples: a write, reads, a search, a 404, a SCIM read.
    const created = await server.post('/users', newUser());
    await server.get(`/users/${created.body.uid}`);
    await server.get('/users?limit=1');
    await server.get('/users/username:nobody-here');
    await scimRequest(server.baseUrl, 'GET', '/scim/v2/Users?count=1');
    const res = await server.get('/metrics');
    assert.equal(res.status, 200);
    const lint = await checkMetrics(res.text);
    assert.equal(`${lint.stdout}${lint.stderr}`, '', 'promtool reports nothing');
    assert.equal(lint.code, 0);
    assert.match(res.text, /^nodejs_active_handles\{/m, 'the by-type gauges stay; their sum is the total');
    assert.doesNotMatch(res.text, /^nodejs_active_(handles|requests|resources)_total/m);
  });
});
