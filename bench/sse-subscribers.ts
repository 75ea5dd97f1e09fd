/**
 * Many Server-Sent Events subscribers in a worker thread of their own, for the
 * change feed's fan-out measurement (feed-bench.ts): the load generator keeps
 * its pace on the main thread while the subscribers read, and what they cost
 * is as little as reading each event's `time` can be (a scan of each chunk
 * for the frames' `"time":"…"`, no SSE or JSON parser), so the delay measured
 * is the service's and not a busy client's.
 *
 * Protocol: the worker is started with SubscriberSpec as workerData, posts
 * 'ready' once every stream answered 200, forgets the delays measured so far on
 * 'reset' (the end of a warm-up), and on 'stop' posts a SubscriberResult and exits.
 */
import http from 'node:http';
import { createHistogram } from 'node:perf_hooks';
import { parentPort, Worker, workerData } from 'node:worker_threads';

export interface SubscriberSpec {
  baseUrl: string;
  headers: Record<string, string>;
  after: number;
  count: number;
}

export interface SubscriberResult {
  received: number;
  /** Delay from the event's `time` to its arrival, in ms. */
  p50: number;
  p99: number;
  max: number;
}

const TIME = '"time":"';

function subscribe(spec: SubscriberSpec, onTime: (timeMs: number) => void): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${spec.baseUrl}/events?after=${spec.after}`);
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, headers: { ...spec.headers, accept: 'text/event-stream' }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`subscribe: ${res.statusCode}`));
      // A frame may be split across chunks: keep the unscanned tail.
      let tail = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const text = tail + chunk;
        let at = text.indexOf(TIME);
        let scanned = 0;
        while (at !== -1) {
          const end = text.indexOf('"', at + TIME.length);
          if (end === -1) break;
          onTime(Date.parse(text.slice(at + TIME.length, end)));
          scanned = end;
          at = text.indexOf(TIME, end);
        }
        tail = text.slice(at === -1 ? Math.max(scanned, text.length - TIME.length) : at);
      });
      resolve(() => req.destroy());
    });
    req.on('error', reject);
    req.end();
  });
}

async function runWorker(spec: SubscriberSpec): Promise<void> {
  let delays = createHistogram();
  let received = 0;
  const closers = await Promise.all(
    Array.from({ length: spec.count }, () =>
      subscribe(spec, (timeMs) => {
        received += 1;
        delays.record(Math.max(1, Math.round((Date.now() - timeMs) * 1000)));
      }),
    ),
  );
  parentPort!.on('message', (message: { type: 'count' | 'reset' | 'stop' }) => {
    if (message.type === 'count') {
      parentPort!.postMessage({ type: 'count', received });
      return;
    }
    if (message.type === 'reset') {
      delays = createHistogram();
      parentPort!.postMessage({ type: 'reset' });
      return;
    }
    for (const close of closers) close();
    const ms = (p: number) => delays.percentile(p) / 1000;
    const result: SubscriberResult = { received, p50: ms(50), p99: ms(99), max: delays.max / 1000 };
    parentPort!.postMessage({ type: 'result', result });
    parentPort!.close();
  });
  parentPort!.postMessage({ type: 'ready' });
}

if (parentPort && (workerData as { sseSubscribers?: SubscriberSpec } | undefined)?.sseSubscribers) {
  void runWorker((workerData as { sseSubscribers: SubscriberSpec }).sseSubscribers);
}

/** Subscribers running in a worker thread. */
export interface Subscribers {
  /** Events received so far, over all subscribers. */
  received(): Promise<number>;
  /** Forgets the delays measured so far (not the count received). */
  reset(): Promise<void>;
  /** Closes every stream and returns what they received. */
  stop(): Promise<SubscriberResult>;
}

export function startSubscribers(spec: SubscriberSpec): Promise<Subscribers> {
  const worker = new Worker(new URL(import.meta.url), { workerData: { sseSubscribers: spec } });
  const next = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: { type: string } & Record<string, unknown>) => {
        if (message.type !== type) return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        resolve(message as T);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
  return next('ready').then(() => ({
    received: () => {
      const answer = next<{ received: number }>('count');
      worker.postMessage({ type: 'count' });
      return answer.then((message) => message.received);
    },
    reset: () => {
      const answer = next<{ type: 'reset' }>('reset');
      worker.postMessage({ type: 'reset' });
      return answer.then(() => {});
    },
    stop: () => {
      const answer = next<{ result: SubscriberResult }>('result');
      worker.postMessage({ type: 'stop' });
      return answer.then((message) => message.result);
    },
  }));
}
