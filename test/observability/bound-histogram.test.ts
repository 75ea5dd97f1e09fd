/**
 * BoundHistogram must be indistinguishable, to a scraper, from prom-client's own
 * Histogram fed the same observations: same lines, same order, same values.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Histogram, Registry } from 'prom-client';
import { BoundHistogram, countOf } from '../../src/observability/bound-histogram.js';

const BUCKETS = [0.001, 0.01, 0.1, 1];
const OBSERVED: [Record<string, string>, number][] = [
  [{ method: 'GET', route: '/users/:ref', status: '200' }, 0.0004],
  [{ method: 'GET', route: '/users/:ref', status: '200' }, 0.001], // on a bound: counted in it (le is inclusive)
  [{ method: 'GET', route: '/users/:ref', status: '200' }, 0.05],
  [{ method: 'POST', route: '/users', status: '201' }, 2.5], // above every bound: +Inf only
  [{ method: 'GET', route: '/users/:ref', status: '404' }, 0.02],
];

describe('BoundHistogram', () => {
  it('renders what prom-client renders for the same observations, and a counter of them', async () => {
    const reference = new Registry();
    const histogram = new Histogram({ name: 'h_seconds', help: 'help', labelNames: ['method', 'route', 'status'], buckets: BUCKETS, registers: [reference] });
    for (const [labels, value] of OBSERVED) histogram.labels(labels).observe(value);

    const registry = new Registry();
    const bound = new BoundHistogram('h_seconds', 'help', BUCKETS, registry);
    countOf(bound, 'h_total', 'requests', registry);
    const unobserved = bound.bind({ method: 'PUT', route: '/users/:ref', status: '200' });
    for (const [labels, value] of OBSERVED) bound.bind(labels)(value);

    const text = await registry.metrics();
    assert.equal(text.split('\n\n')[0], (await reference.metrics()).trimEnd());
    assert.match(text, /^h_total\{method="GET",route="\/users\/:ref",status="200"\} 3$/m);
    assert.match(text, /^h_total\{method="POST",route="\/users",status="201"\} 1$/m);
    assert.doesNotMatch(text, /PUT/, 'a series appears once observed');

    registry.resetMetrics();
    assert.doesNotMatch(await registry.metrics(), /status=/, 'reset empties every series');
    unobserved(0.5);
    assert.match(await registry.metrics(), /^h_seconds_count\{method="PUT",route="\/users\/:ref",status="200"\} 1$/m, 'bound observers still work after a reset');
  });
});
