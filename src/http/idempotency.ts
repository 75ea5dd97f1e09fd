/**
 * Safe retries with `Idempotency-Key` (CONTRACT §10; draft-ietf-httpapi-
 * idempotency-key-header) on POST /users and PATCH /users/{uid}.
 *
 * - The key is a quoted string as the draft writes it (RFC 8941 sf-string), or
 *   the bare form Stripe's clients send: 1–255 visible ASCII characters.
 * - Keys are scoped to the credential (its id; `anonymous` without
 *   authentication): one client never sees, nor blocks, another's.
 * - The first request's answer is stored with a fingerprint of the request
 *   (method, canonical path, body with members in a fixed order). A success is
 *   stored by the store in the write's own transaction, so a crash between the
 *   commit and the response still leaves the answer for the retry. A 4xx the
 *   write ended in (409, 412, 404, a 400 of the patched user) is stored after it:
 *   nothing was written, so nothing needs to be atomic with it. A 5xx is never
 *   stored: the retry runs again.
 * - A retry with the same request gets the stored answer (status, body, ETag,
 *   Location) and `Idempotent-Replayed: true`, without running again; another
 *   request with the key gets 422; while the first is still running on this
 *   instance, 409 (on another instance, the retry waits for it at the database,
 *   then gets its answer).
 * - Deleting a user erases the stored answers that carry it (store/erasure.ts): a retry
 *   with such a key then answers 410 `resource-erased` and does nothing.
 * - Keys expire after IDEMPOTENCY_TTL_S; expired ones are purged in batches.
 */
import { hash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERASED_FINGERPRINT } from '../store/erasure.js';
import { IdempotencyKeyTaken } from '../store/store-errors.js';
import type { PendingIdempotency, StoredResponse, UserStore } from '../store/user-store.js';
import type { User } from '../users/user.js';
import { problemResponse, toProblem } from './problem-handler.js';
import { ProblemError } from './problems.js';

/** RFC 8941 §3.3.3 sf-string: visible ASCII and space, with `\"` and `\\` escapes. */
const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\\"])*)"$/;
/** The unquoted form: visible ASCII, no quote. */
const BARE = /^[\x21\x23-\x7e]+$/;
const MAX_KEY_LENGTH = 255;

/** The key of an `Idempotency-Key` header, or undefined when there is none. Throws the 400 of a malformed one. */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const quoted = SF_STRING.exec(header.trim());
  const key = quoted ? (quoted[1] as string).replace(/\\(.)/g, '$1') : BARE.test(header.trim()) ? header.trim() : undefined;
  if (key === undefined || key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new ProblemError('malformed-request', `Idempotency-Key must be a quoted string (or a bare token) of 1–${MAX_KEY_LENGTH} visible ASCII characters.`);
  }
  return key;
}

/** JSON with every object's members in code-point order: the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.keys(value as Record<string, unknown>).sort();
    return `{${members.map((name) => `${JSON.stringify(name)}:${canonicalJson((value as Record<string, unknown>)[name])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function fingerprintOf(method: string, path: string, body: unknown): string {
  return hash('sha256', canonicalJson([method, path, body ?? null]), 'base64url');
}

/** A write a route runs once per key. */
export interface IdempotentWrite {
  /** The request's target in canonical form (`/users`, `/users/{uid}` in lower case), for the fingerprint. */
  path: string;
  /** The body as the fingerprint covers it, when not as sent (SCIM leaves out the password it discards, so no digest of it is kept). */
  fingerprintBody?: unknown;
  /** Runs the write; with a key, the store keeps `pending`'s answer in the write's transaction. */
  execute(pending?: PendingIdempotency): Promise<User>;
  /** The answer to a successful write. */
  respond(user: User): StoredResponse;
}

export interface IdempotencyOptions {
  store: Pick<UserStore, 'findIdempotency' | 'saveIdempotency' | 'purgeIdempotency'>;
  ttlMs: number;
  /** For crash tests only: wait this long between the committed write and its response. */
  delayAfterWriteMs?: number;
}

function send(reply: FastifyReply, response: StoredResponse, extra: Record<string, string> = {}): FastifyReply {
  return reply.code(response.status).headers(response.headers).headers(extra).send(response.body);
}

export function createIdempotency({ store, ttlMs, delayAfterWriteMs = 0 }: IdempotencyOptions) {
  // Keys whose first request is running on this instance.
  const running = new Set<string>();

  /** Answers as the first request with this key did, or 422 when this is another request. */
  async function replay(reply: FastifyReply, pending: PendingIdempotency): Promise<FastifyReply> {
    const record = await store.findIdempotency(pending.scope, pending.key, Date.now());
    // Recorded a moment ago and gone (expired, or its first request's transaction rolled back): try again.
    if (record === undefined) throw inUse();
    // The user the first request wrote was deleted since, and the answer erased with it (store/erasure.ts):
    // said as it is, whatever this request is, and never run again (a create would make the user anew).
    if (record.fingerprint === ERASED_FINGERPRINT) {
      throw new ProblemError('resource-erased', 'The user this Idempotency-Key wrote has been deleted since, and the stored answer was erased with it; nothing was done now.', {}, { 'idempotent-replayed': 'true' });
    }
    if (record.fingerprint !== pending.fingerprint) {
      throw new ProblemError('idempotency-key-reused', 'This Idempotency-Key was used for a different request (method, path or body); use a new key for a new request.');
    }
    return send(reply, record.response, { 'idempotent-replayed': 'true' });
  }

  const inUse = () => new ProblemError('idempotency-key-in-use', 'A request with this Idempotency-Key is still being processed; retry after it completes.', {}, { 'retry-after': '1' });

  return {
    /** Runs `write` for the request, once per (credential, Idempotency-Key) when the request carries one. */
    async run(request: FastifyRequest, reply: FastifyReply, write: IdempotentWrite): Promise<FastifyReply> {
      const header = request.headers['idempotency-key'];
      // Two Idempotency-Key lines arrive joined with ", " and are refused as malformed.
      const key = parseIdempotencyKey(Array.isArray(header) ? header.join(', ') : header);
      if (key === undefined) return send(reply, write.respond(await write.execute()));
      const scope = request.credential?.id ?? 'anonymous';
      // The answer the store records in the write's transaction is the one sent: made once.
      let made: { user: User; response: StoredResponse } | undefined;
      const respond = (user: User) => (made?.user === user ? made.response : (made = { user, response: write.respond(user) }).response);
      const pending: PendingIdempotency = { scope, key, fingerprint: fingerprintOf(request.method, write.path, 'fingerprintBody' in write ? write.fingerprintBody : request.body), expiresAt: Date.now() + ttlMs, respond };
      const id = `${scope}\u0000${key}`;
      if (running.has(id)) throw inUse();
      running.add(id);
      try {
        let user: User;
        try {
          user = await write.execute(pending);
        } catch (error) {
          if (error instanceof IdempotencyKeyTaken) return await replay(reply, pending);
          const problem = toProblem(error);
          if (problem === undefined || problem.status >= 500) throw error;
          const saved = await store.saveIdempotency({ ...pending, response: problemResponse(request, problem) }, Date.now());
          if (!saved) return await replay(reply, pending);
          throw error;
        }
        if (delayAfterWriteMs > 0) await sleep(delayAfterWriteMs);
        return send(reply, respond(user));
      } finally {
        running.delete(id);
      }
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;

/** How often expired keys are purged, and how many at a time. */
const PURGE_INTERVAL_MS = 60_000;
const PURGE_BATCH = 1000;

/** Purges expired keys in batches, every minute while the app runs. A failed purge is retried at the next. */
export function purgeExpiredKeys(app: FastifyInstance, store: IdempotencyOptions['store']): void {
  const purge = async () => {
    try {
      while ((await store.purgeIdempotency(Date.now(), PURGE_BATCH)) === PURGE_BATCH) {
        /* more remain */
      }
    } catch (error) {
      app.log.warn({ cause: { message: (error as Error).message } }, 'purging expired idempotency keys failed; retrying later');
    }
  };
  const timer = setInterval(() => void purge(), PURGE_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
