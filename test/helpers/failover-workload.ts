/**
 * Concurrent clients writing through a failover, as the deployment guide tells
 * clients to: creates and patches carry an Idempotency-Key, and a request that
 * gets a 503 (or no answer at all) is sent again, unchanged and with the same key,
 * until it gets a final answer. Each client writes only its own users, one request
 * at a time, so the expected state of every user is known exactly: the model the
 * test checks the database and the feed against.
 */
import { randomUUID } from 'node:crypto';
import { request, type TestResponse } from './http-client.js';

export interface ModelUser {
  live: boolean;
  displayName: string | null;
  /** Writes that took effect (each appends one event). */
  writes: number;
}

export interface WriteAttempt {
  sentAt: number;
  answeredAt: number;
  /** 0: no answer (the connection failed). */
  status: number;
  outcomeUnknown: boolean;
}

export interface Workload {
  readonly users: Map<string, ModelUser>;
  readonly attempts: WriteAttempt[];
  /** Answers that break the rules (a 500, a 404 for a delete nothing had touched, a wrong body). */
  readonly failures: string[];
  /** Writes acknowledged (2xx) so far. */
  acknowledged(): number;
  /** Resolves once `n` more writes were acknowledged. */
  waitForAcknowledged(n: number, signal?: AbortSignal): Promise<void>;
  /** Stops sending new writes; resolves once every client's last write has its final answer. */
  stop(): Promise<void>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function startWorkload(baseUrls: () => readonly string[], prefix: string, clients: number): Workload {
  const users = new Map<string, ModelUser>();
  const attempts: WriteAttempt[] = [];
  const failures: string[] = [];
  let acknowledged = 0;
  let stopping = false;
  let turn = 0;

  /** Sends until a final answer: anything but a 503, a 409 "still running" or no answer. */
  async function untilFinal(method: string, path: string, json: unknown, headers: Record<string, string>): Promise<{ response: TestResponse; sawUnknown: boolean }> {
    let sawUnknown = false;
    for (;;) {
      const urls = baseUrls();
      const baseUrl = urls[turn++ % urls.length] as string;
      const sentAt = Date.now();
      let response: TestResponse | undefined;
      try {
        response = await request(baseUrl, method, path, { json, headers });
      } catch {
        // No answer (an instance restarting): the outcome is unknown as well.
      }
      const outcomeUnknown = response === undefined || (response.status === 503 && /unknown/.test(String(response.body?.detail)));
      if (response?.status === 503) checkUnavailable(response);
      attempts.push({ sentAt, answeredAt: Date.now(), status: response?.status ?? 0, outcomeUnknown });
      sawUnknown ||= outcomeUnknown;
      const retry = response === undefined || response.status === 503 || (response.status === 409 && response.body?.type === '/problems/idempotency-key-in-use');
      if (!retry) return { response: response as TestResponse, sawUnknown };
      await pause(50 + Math.random() * 100);
    }
  }

  /** A 503 is a problem document that says when to retry and reveals nothing of the driver. */
  function checkUnavailable(response: TestResponse): void {
    const ok =
      response.headers['content-type'] === 'application/problem+json; charset=utf-8' &&
      response.body?.type === '/problems/store-unavailable' &&
      Number(response.headers['retry-after']) > 0 &&
      !/ECONN|CONNECTION_|postgres|SQL|127\.0\.0\.1|stack/i.test(response.text);
    check(ok, '503 answer', response);
  }

  function check(ok: boolean, what: string, response: TestResponse): boolean {
    if (!ok) failures.push(`${what}: ${response.status} ${response.text.slice(0, 300)}`);
    return ok;
  }

  async function client(c: number): Promise<void> {
    const own: string[] = [];
    for (let n = 0; !stopping; n++) {
      const choice = Math.random();
      if (own.length < 3 || choice < 0.45) {
        const name = `${prefix}c${c}n${n}`;
        const { response } = await untilFinal('POST', '/users', { username: name, email_address: `${name}@example.com` }, { 'idempotency-key': `"${randomUUID()}"` });
        if (!check(response.status === 201 && response.body.username === name, `create ${name}`, response)) continue;
        if (users.has(response.body.uid)) failures.push(`create ${name} answered with the uid of another create`);
        users.set(response.body.uid, { live: true, displayName: null, writes: 1 });
        own.push(response.body.uid);
      } else if (choice < 0.85) {
        const uid = own[Math.floor(Math.random() * own.length)] as string;
        const displayName = `${prefix} ${c}/${n}`;
        const { response } = await untilFinal('PATCH', `/users/${uid}`, { display_name: displayName }, { 'content-type': 'application/merge-patch+json', 'idempotency-key': `"${randomUUID()}"` });
        if (!check(response.status === 200 && response.body.display_name === displayName, `patch ${uid}`, response)) continue;
        const user = users.get(uid) as ModelUser;
        user.displayName = displayName;
        user.writes++;
      } else {
        const index = Math.floor(Math.random() * own.length);
        const uid = own[index] as string;
        const { response, sawUnknown } = await untilFinal('DELETE', `/users/${uid}`, undefined, {});
        // A delete has no Idempotency-Key: its retry finds nothing when the lost attempt took effect.
        if (!check(response.status === 204 || (response.status === 404 && sawUnknown), `delete ${uid}`, response)) continue;
        const user = users.get(uid) as ModelUser;
        user.live = false;
        user.writes++;
        own.splice(index, 1);
      }
      acknowledged++;
    }
  }

  const running = Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
  return {
    users,
    attempts,
    failures,
    acknowledged: () => acknowledged,
    async waitForAcknowledged(n, signal) {
      const target = acknowledged + n;
      while (acknowledged < target) {
        signal?.throwIfAborted();
        if (failures.length > 0) throw new Error(`the workload failed: ${failures.join('\n')}`);
        await pause(20);
      }
    },
    async stop() {
      stopping = true;
      await running;
    },
  };
}
