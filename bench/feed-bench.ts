/**
 * What the change feed costs and how fast it serves, on each store
 * (docs/performance.md, "Change feed"):
 *
 * 1. Creates per second with the feed on, against the same service with
 *    CHANGE_FEED=off, alternating rounds in one run (target: ratio ≥ 0.9).
 * 2. 100 Server-Sent Events subscribers while creates are written at a steady
 *    1000/s (paced-load.ts): the delay from each write's `time` to the event's
 *    arrival at each subscriber (target: p99 ≤ 100 ms), after FAN_WARMUP_S at
 *    that rate that are not counted (the subscribers' first events and a load
 *    that starts from nothing). The subscribers run in a worker thread
 *    (sse-subscribers.ts) beside the load; client and server share the
 *    machine's clock and its two cores.
 * 3. Reading the feed from position 0 as JSON pages of 1000, after an import of
 *    BENCH_IMPORT_USERS users (target: ≥ 50,000 events/s).
 *
 *   npm run bench:feed        (BENCH_STORES, BENCH_DURATION_S, BENCH_ROUNDS, BENCH_IMPORT_USERS as for npm run bench;
 *                              BENCH_FEED_FAN_AFTER_IMPORT=1 measures 2 after 3)
 */
import http from 'node:http';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createParser } from 'eventsource-parser';
import { alternate, uniqueTag } from './alternate.js';
import { loadBenchOptions } from './bench-options.js';
import { writeImportFile } from './import-data.js';
import { forEachStore, withPairedServices } from './paired-services.js';
import { runNode, type RunningServer } from './processes.js';
import { pacedLoad } from './paced-load.js';
import { startSubscribers } from './sse-subscribers.js';

const root = process.cwd();
const options = loadBenchOptions(root);
const SUBSCRIBERS = 100;
const WRITE_RATE = 1000;
const FAN_WARMUP_S = 2;
/** BENCH_FEED_FAN_AFTER_IMPORT=1: measure the fan-out after the import and the reads instead (the order of earlier runs). */
const FAN_AFTER_IMPORT = process.env.BENCH_FEED_FAN_AFTER_IMPORT === '1';

/** The body of the n-th create of a run tagged `tag` (names never repeat across runs). */
const createBody = (tag: string, n: number) => {
  const name = `feed.${tag}.${n}`;
  return JSON.stringify({ username: name, email_address: `${name}@bench.example`, display_name: 'Bench User', attributes: { department: 'R&D' } });
};

function createRequests(tag: string): autocannon.Request[] {
  let n = 0;
  return [
    {
      method: 'POST',
      path: '/users',
      headers: { 'content-type': 'application/json' },
      setupRequest: (request) => ({ ...request, body: createBody(tag, n++) }),
    },
  ];
}

/**
 * Reads every event after 0 as pages of 1000, following Link: rel="next"; events per second.
 * Each page is received whole; `parse` also JSON-parses it, as a consumer would.
 */
async function readPages(server: RunningServer, headers: Record<string, string>, parse: boolean): Promise<{ events: number; perSecond: number }> {
  const started = process.hrtime.bigint();
  let after = 0;
  for (;;) {
    const response = await fetch(`${server.baseUrl}/events?after=${after}&limit=1000`, { headers });
    if (!response.ok) throw new Error(`GET /events?after=${after}: ${response.status}`);
    const text = await response.text();
    if (parse) JSON.parse(text);
    // The next page starts after this page's last event (Link: rel="next").
    const next = Number(/after=([0-9]+)/.exec(response.headers.get('link') ?? '')![1]);
    if (next === after) break;
    after = next;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { events: after, perSecond: after / seconds };
}

/** Reads every event after 0 as one Server-Sent Events stream (its catch-up), until `latest` arrived; events per second. */
async function readStream(server: RunningServer, headers: Record<string, string>, latest: number): Promise<number> {
  const started = process.hrtime.bigint();
  await new Promise<void>((resolve, reject) => {
    const url = new URL(`${server.baseUrl}/events?after=0`);
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, headers: { ...headers, accept: 'text/event-stream' }, agent: false }, (res) => {
      const parser = createParser({
        onEvent: (message) => {
          if (Number(message.id) >= latest) {
            req.destroy();
            resolve();
          }
        },
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => parser.feed(chunk));
    });
    req.on('error', reject);
    req.end();
  });
  return latest / (Number(process.hrtime.bigint() - started) / 1e9);
}

async function latestPosition(server: RunningServer, headers: Record<string, string>): Promise<number> {
  const response = await fetch(`${server.baseUrl}/events?limit=1&after=0`, { headers });
  await response.arrayBuffer();
  return Number(response.headers.get('feed-position'));
}

async function fanOut(server: RunningServer, headers: Record<string, string>, durationS: number) {
  const after = await latestPosition(server, headers);
  const subscribers = await startSubscribers({ baseUrl: server.baseUrl, headers, after, count: SUBSCRIBERS });
  // Enough connections that 1000/s is offered even when a create takes tens of ms.
  const creates = (seconds: number) => {
    const tag = uniqueTag();
    return pacedLoad({
      baseUrl: server.baseUrl,
      headers,
      rate: WRITE_RATE,
      durationS: seconds,
      connections: 50,
      request: (n) => ({ method: 'POST', path: '/users', body: createBody(tag, n) }),
    });
  };
  await creates(FAN_WARMUP_S);
  await subscribers.reset();
  const load = await creates(durationS);
  const written = load.ok;
  // Every event written, to every subscriber. On PostgreSQL the last writes are numbered
  // shortly after their responses: read the latest position until it stands still.
  let latest = await latestPosition(server, headers);
  for (let previous = -1; latest !== previous; ) {
    previous = latest;
    await new Promise((resolve) => setTimeout(resolve, 100));
    latest = await latestPosition(server, headers);
  }
  const expected = (latest - after) * SUBSCRIBERS;
  for (let waited = 0; (await subscribers.received()) < expected && waited < 200; waited++) await new Promise((resolve) => setTimeout(resolve, 50));
  const delivery = await subscribers.stop();
  return { writesPerSecond: written / durationS, failed: load.failed, createP50: load.p50, createP99: load.p99, delivered: delivery.received, expected, p50: delivery.p50, p99: delivery.p99, max: delivery.max };
}

/** Runs the fan-out measurement and prints its line. */
async function fanOutReport(store: string, server: RunningServer, headers: Record<string, string>): Promise<void> {
  const fan = await fanOut(server, headers, options.durationS);
  console.log(
    `${store}: ${SUBSCRIBERS} SSE subscribers at ${fan.writesPerSecond.toFixed(0)} writes/s (${fan.failed} failed; create p50 ${fan.createP50.toFixed(1)} ms, p99 ${fan.createP99.toFixed(1)} ms): delivered ${fan.delivered}/${fan.expected}, delay p50 ${fan.p50.toFixed(1)} ms, p99 ${fan.p99.toFixed(1)} ms, max ${fan.max.toFixed(1)} ms (target p99 <= 100)`,
  );
}

await forEachStore(options, (store) =>
  withPairedServices(options, store, { names: ['feed-on', 'feed-off'], env: [{}, { CHANGE_FEED: 'off' }] }, async ({ a: on, b: off, credentials, runDir, urlOfA }) => {
    const headers = credentials.headers;
    const creates = await alternate(on, off, (tag) => createRequests(tag), { options, headers, label: `${store} creates, feed on vs off` });
    console.log(`${store}: creates with the feed ${creates.service.rps.toFixed(0)}/s, without ${creates.baseline.rps.toFixed(0)}/s: ratio ${creates.ratio.toFixed(2)} (target >= 0.90)`);

    // Before the import, unless BENCH_FEED_FAN_AFTER_IMPORT=1: PostgreSQL writes an
    // import's pages out for a while after it (the checkpointer, and backends evicting
    // dirty buffers), and that, not the feed, is what a fan-out measured right after it
    // shows (docs/performance.md, "Change feed").
    const fan = () => fanOutReport(store, on, headers);
    if (!FAN_AFTER_IMPORT) await fan();

    const file = join(runDir, 'import.jsonl');
    await writeImportFile(file, options.importUsers, 'new');
    const imported = await runNode([join(root, 'dist/src/cli/main.js'), 'import', file], { DATABASE_URL: urlOfA, LOG_LEVEL: 'silent' }, runDir, join(runDir, 'import.log'));
    if (imported.code !== 0) throw new Error(`import failed; see ${join(runDir, 'import.log')}`);
    const parsed = await readPages(on, headers, true);
    const raw = await readPages(on, headers, false);
    const streamed = await readStream(on, headers, raw.events);
    console.log(
      `${store}: read ${raw.events} events from position 0: pages of 1000 ${raw.perSecond.toFixed(0)} events/s (${parsed.perSecond.toFixed(0)}/s with JSON.parse in the client), one SSE stream ${streamed.toFixed(0)} events/s (target >= 50000)`,
    );
    if (FAN_AFTER_IMPORT) await fan();
  }),
);
