/**
 * EVENTS_MAX_SUBSCRIBERS under concurrency: 200 stream opens started at once
 * against a limit of 20 admit exactly 20 per instance (a slot is reserved
 * before the handler's first await, so the opens still reading the feed count
 * against the limit); every other open is a 503 `subscriber-limit` problem with
 * Retry-After. On SQLite, on PostgreSQL, and on two service processes sharing
 * one PostgreSQL database (the limit is per instance).
 *
 * Slots come back: after every stream closes (the instance's
 * `user_events_subscribers` gauge reads 0), a second burst admits exactly 20
 * again. Opens that end before streaming (410 for a position the feed does not
 * have, or a first read that fails) hold no slot afterwards: 20 good opens then
 * all get 200, and the 21st is still refused (the count did not go below zero).
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { EventLog } from '../../src/events/event-log.js';
import { StoreUnavailableError } from '../../src/store/store-errors.js';
import { startChildServer, type StartedChildServer } from '../helpers/child-server.js';
import { fetchDocument, request, type TestResponse } from '../helpers/http-client.js';
import { documentFor, responseProblems } from '../helpers/openapi-validator.js';
import { createTestDatabase, postgresSkipReason, type TestDatabase } from '../helpers/postgres.js';
import { assertProblem } from '../helpers/problem-assertions.js';
import { describeEachStore } from '../helpers/stores.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const LIMIT = 20;
const OPENS = 200;
const ENV = { EVENTS_MAX_SUBSCRIBERS: String(LIMIT) };

/** What the tests need of a running instance, in-process or a child process. */
interface Instance {
  baseUrl: string;
  get(path: string): Promise<TestResponse>;
}

/** One stream open's answer: a stream (status 200, its body left unread) or a refusal (read whole). */
interface Opened extends TestResponse {
  /** Resolves once the connection has closed. */
  ended: Promise<void>;
  /** Closes the connection from the client side. */
  close(): void;
}

/**
 * Opens a stream at each target, truly at once: every connection is made (each its own
 * socket) and accepted first, then every request head is written in one synchronous
 * step, so each instance reads them all in the same turn of its event loop. Resolves
 * with the answers, checked against the instance's OpenAPI document as every test
 * response is.
 */
async function openAtOnce(targets: readonly { baseUrl: string; path: string }[]): Promise<Opened[]> {
  const baseUrls = [...new Set(targets.map((t) => t.baseUrl))];
  const checks = new Map(await Promise.all(baseUrls.map(async (baseUrl) => [baseUrl, await documentFor(baseUrl, () => fetchDocument(baseUrl))] as const)));
  const connected = await Promise.allSettled(
    targets.map(async ({ baseUrl }) => {
      const url = new URL(baseUrl);
      const socket = net.connect({ host: url.hostname, port: Number(url.port) });
      await once(socket, 'connect');
      return socket;
    }),
  );
  const sockets = connected.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (sockets.length < targets.length) {
    for (const socket of sockets) socket.destroy();
    throw new Error(`${targets.length - sockets.length} of ${targets.length} connections failed`);
  }
  // A connected socket may still wait in the server's listen queue; one accepted a turn of the
  // server's event loop later is read a turn later, so requests written now could reach the
  // handler one by one, each after the last one's read of the feed (no race to catch). A probe
  // on a new connection queues behind all of them (the queue is FIFO): once it is answered,
  // every connection has been accepted and its request is read as soon as it arrives.
  try {
    for (const response of await Promise.all(baseUrls.map((baseUrl) => request(baseUrl, 'GET', '/healthz')))) assert.equal(response.status, 200, response.text);
  } catch (error) {
    for (const socket of sockets) socket.destroy();
    throw error;
  }
  const answers = targets.map(
    ({ baseUrl, path }, i) =>
      new Promise<Opened>((resolve, reject) => {
        const socket = sockets[i]!;
        const url = new URL(baseUrl);
        const req = http.request({ host: url.hostname, port: url.port, method: 'GET', path, headers: { accept: 'text/event-stream' }, createConnection: () => socket });
        req.on('error', reject);
        req.on('response', (res) => {
          // Closing the connection mid-stream is an 'aborted' error of the response: expected here.
          res.on('error', () => {});
          const ended = new Promise<void>((done) => res.once('close', () => done()));
          const chunks: Buffer[] = [];
          const answer = (text: string): Opened => {
            let body: unknown;
            try {
              body = text === '' ? undefined : JSON.parse(text);
            } catch {
              body = undefined;
            }
            return { status: res.statusCode ?? 0, headers: res.headers, text, body, ended, close: () => socket.destroy() };
          };
          const settle = (opened: Opened) => {
            const problems = responseProblems(checks.get(baseUrl)!, 'GET', path, opened);
            if (problems.length === 0) return resolve(opened);
            socket.destroy();
            reject(new Error(`GET ${path} → ${opened.status} breaks the OpenAPI document: ${problems.join('\n')}`));
          };
          if (res.statusCode === 200 && String(res.headers['content-type']).startsWith('text/event-stream')) {
            res.resume(); // read and dropped: the stream never backs up
            settle(answer('(a stream)'));
          } else {
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.once('end', () => settle(answer(Buffer.concat(chunks).toString('utf8'))));
          }
        });
        req.end();
      }),
  );
  const settled = await Promise.allSettled(answers);
  const failed = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  if (failed.length > 0) {
    for (const socket of sockets) socket.destroy();
    throw new Error(`${failed.length} of ${targets.length} opens failed: ${String(failed[0])}`);
  }
  return settled.map((result) => (result as PromiseFulfilledResult<Opened>).value);
}

/** `count` opens of `path` on one instance, at once. */
const openMany = (instance: Instance, count: number, path: string) => openAtOnce(Array.from({ length: count }, () => ({ baseUrl: instance.baseUrl, path })));

/** The feed's latest position, from a JSON page's Feed-Position. */
async function latestPosition(instance: Instance): Promise<number> {
  const page = await instance.get('/events?limit=1');
  assert.equal(page.status, 200, page.text);
  return Number(page.headers['feed-position']);
}

/** The instance's `user_events_subscribers` gauge: the streams its hub serves. */
async function subscribers(instance: Instance): Promise<number> {
  const metrics = await instance.get('/metrics');
  assert.equal(metrics.status, 200, metrics.text);
  const value = /^user_events_subscribers (\d+)$/m.exec(metrics.text)?.[1];
  assert.ok(value !== undefined, 'GET /metrics has no user_events_subscribers');
  return Number(value);
}

/**
 * Waits until the instance's hub serves no stream: the server side of every closed
 * connection has ended. Bounded by the test's timeout, not by a timed assertion.
 */
async function untilNoSubscribers(instance: Instance): Promise<void> {
  while ((await subscribers(instance)) !== 0) await sleep(10);
}

/** A refusal for the subscriber limit: a 503 problem of type subscriber-limit, with Retry-After. */
function assertRefused(answer: Opened, what: string): void {
  assertProblem(answer, 503, 'subscriber-limit');
  assert.match(String(answer.body.type), /\/problems\/subscriber-limit$/, what);
  assert.match(String(answer.headers['retry-after']), /^[1-9][0-9]*$/, `${what}: Retry-After ${answer.headers['retry-after']}`);
}

/** Exactly LIMIT of the answers are streams, every other one a refusal for the limit. */
function assertExactlyLimitAdmitted(answers: readonly Opened[], what: string): void {
  const statuses = new Map<number, number>();
  for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const summary = [...statuses].map(([status, n]) => `${n}×${status}`).join(', ');
  const streams = answers.filter((answer) => answer.status === 200);
  assert.ok(streams.length <= LIMIT, `${what}: ${streams.length} of ${answers.length} concurrent opens got a stream, over the limit of ${LIMIT} (${summary})`);
  assert.equal(streams.length, LIMIT, `${what}: ${streams.length} of ${answers.length} concurrent opens got a stream, not exactly the limit of ${LIMIT} (${summary})`);
  for (const stream of streams) assert.match(String(stream.headers['content-type']), /^text\/event-stream/, what);
  for (const answer of answers) if (answer.status !== 200) assertRefused(answer, what);
}

function closeAll(answers: Iterable<Opened>): void {
  for (const answer of answers) answer.close();
}

/** OPENS concurrent opens split across the instances: exactly the limit on each, and the slots come back once the streams close. */
async function concurrentOpens(instances: readonly Instance[]): Promise<void> {
  const path = `/events?after=${await latestPosition(instances[0]!)}`;
  const perInstance = OPENS / instances.length;
  for (const round of ['first', 'second']) {
    // Interleaved, so every instance's requests are written in the same step.
    const targets = Array.from({ length: OPENS }, (_, i) => ({ instance: i % instances.length, baseUrl: instances[i % instances.length]!.baseUrl, path }));
    const answers = await openAtOnce(targets);
    try {
      for (const [i, instance] of instances.entries()) {
        const what = `${round} burst, instance ${i}`;
        const own = answers.filter((_, n) => targets[n]!.instance === i);
        assert.equal(own.length, perInstance);
        assertExactlyLimitAdmitted(own, what);
        assert.equal(await subscribers(instance), LIMIT, `${what}: the hub serves every admitted stream, and only those`);
      }
    } finally {
      closeAll(answers);
    }
    // Every slot is given back once the server side of each stream has ended.
    await Promise.all(answers.map((answer) => answer.ended));
    await Promise.all(instances.map(untilNoSubscribers));
  }
}

/** 50 opens that end in a problem before streaming keep no slot: afterwards all LIMIT good opens stream, and one more is refused. */
async function noSlotKept(
  instance: Instance,
  badPath: string,
  assertBad: (answer: Opened) => void,
  /** Called once the bad opens are done (before the good ones). */
  badOpensDone: () => void = () => {},
): Promise<void> {
  try {
    // In rounds of at most LIMIT concurrent opens: a slot kept by any earlier open would show as a refusal in a later round.
    for (let done = 0; done < 50; ) {
      const round = Math.min(LIMIT, 50 - done);
      const answers = await openMany(instance, round, badPath);
      try {
        for (const answer of answers) assertBad(answer);
      } finally {
        closeAll(answers);
      }
      done += round;
    }
  } finally {
    badOpensDone();
  }
  assert.equal(await subscribers(instance), 0, 'no stream came of the refused opens');
  const path = `/events?after=${await latestPosition(instance)}`;
  const good = await openMany(instance, LIMIT, path);
  try {
    assert.deepEqual(
      good.map((answer) => answer.status),
      good.map(() => 200),
      `every one of ${LIMIT} opens after the refused ones streams: ${good.map((a) => `${a.status}${a.status === 200 ? '' : ` ${a.text}`}`).join(', ')}`,
    );
    assert.equal(await subscribers(instance), LIMIT);
    // And the limit still holds: the refused opens gave back exactly what they took, no more.
    const [extra] = await openMany(instance, 1, path);
    extra!.close();
    assertRefused(extra!, `open number ${LIMIT + 1}`);
  } finally {
    closeAll(good);
  }
  await Promise.all(good.map((answer) => answer.ended));
  await untilNoSubscribers(instance);
}

/** 50 opens after a position beyond the feed (410 events-gone), then LIMIT good ones. */
async function goneOpensKeepNoSlot(instance: Instance): Promise<void> {
  const beyond = (await latestPosition(instance)) + 1_000_000;
  await noSlotKept(instance, `/events?after=${beyond}`, (answer) => assertProblem(answer, 410, 'events-gone'));
}

describeEachStore(`GET /events stream opens under EVENTS_MAX_SUBSCRIBERS=${LIMIT}`, (kind) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store: kind, env: ENV });
  });
  after(() => server?.close());

  it(`${OPENS} concurrent opens: exactly ${LIMIT} get a stream, the rest are 503 subscriber-limit with Retry-After; closed streams give their slots back`, () =>
    concurrentOpens([server]));

  it('50 opens answered 410 (a position beyond the feed) keep no slot', () => goneOpensKeepNoSlot(server));

  it('50 opens whose first read of the feed fails keep no slot', async () => {
    const path = `/events?after=${await latestPosition(server)}`;
    const events: EventLog = server.store.events;
    const read = events.read;
    // Every read fails until the bad opens are done: the route's first read is the only one they make.
    events.read = () => Promise.reject(new StoreUnavailableError());
    const restore = () => {
      events.read = read;
    };
    try {
      await noSlotKept(server, path, (answer) => assertProblem(answer, 503, 'store-unavailable'), restore);
    } finally {
      restore();
    }
  });
});

const postgresSkip = await postgresSkipReason();

describe(`two instances on one PostgreSQL database, EVENTS_MAX_SUBSCRIBERS=${LIMIT} each`, postgresSkip ? { skip: postgresSkip } : {}, () => {
  let db: TestDatabase;
  let instances: StartedChildServer[] = [];
  before(async () => {
    db = await createTestDatabase();
    instances = await Promise.all([0, 1].map(() => startChildServer({ env: { DATABASE_URL: db.url, ...ENV } })));
  });
  after(async () => {
    await Promise.all(instances.map((instance) => instance.dispose()));
    await db?.drop();
  });

  it(`${OPENS} concurrent opens split across both: exactly ${LIMIT} get a stream on each, the rest are 503 subscriber-limit; closed streams give their slots back`, () =>
    concurrentOpens(instances));

  it('50 opens answered 410 keep no slot on either instance', async () => {
    for (const instance of instances) await goneOpensKeepNoSlot(instance);
  });
});
