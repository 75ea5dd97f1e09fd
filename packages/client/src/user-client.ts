/**
 * A typed client for the user service, for TypeScript and JavaScript services
 * that call it. Its types are generated from the service's OpenAPI document
 * (openapi-types.ts, `npm run generate:client-types` at the repository root; a
 * test fails when they drift), and it keeps an API of its own: lookup by key,
 * search as an async iterator, typed problems, the entity tag, location,
 * next-page link and change-feed position of each answer, and the change feed
 * as pages or as a live stream that reconnects by itself. No runtime
 * dependency: the platform's fetch, streams, TextDecoder and crypto.randomUUID.
 */
import { createEventStreamParser } from './event-stream-parser.js';
import { nextLink } from './link-header.js';
import type { components, operations } from './openapi-types.js';
import { errorOf, isRetryable, UserServiceError } from './problem.js';

export type User = components['schemas']['User'];
export type NewUser = components['schemas']['UserCreate'];
export type UserReplacement = components['schemas']['UserReplacement'];
export type UserPatch = components['schemas']['UserPatch'];
/** A change-feed event (CloudEvents 1.0): `id` is its position, in decimal. */
export type UserEvent = components['schemas']['UserEvent'];
export type SearchFilters = Omit<NonNullable<operations['searchUsers']['parameters']['query']>, 'cursor'>;

/** The keys a user can be looked up by. */
export type LookupKey = 'uid' | 'username' | 'email_address' | 'legacy_id';

/** A user as read or written, with the entity tag to send back in `ifMatch` and its canonical path. */
export interface TaggedUser {
  user: User;
  etag: string;
  /** `/users/{uid}`: the `Location` of a create, the `Content-Location` otherwise. */
  location: string;
  /** On reads: the change-feed position the answer reflects (`Feed-Position`). */
  position?: number;
}

/** The answer of `refresh()`: the user as it is now, and whether it changed since the cached copy. */
export interface RefreshedUser extends TaggedUser {
  /** false: the service answered 304, and `user` and `etag` are the cached ones. */
  changed: boolean;
}

/** One page of a search, the URL of the next one (`Link: rel="next"`) if more follow, and the feed position it reflects. */
export interface SearchPage {
  users: User[];
  next?: string;
  /** `Feed-Position`: follow the change feed after the first page's position to mirror (docs/events.md). */
  position: number;
}

/** One page of the change feed: the events, where the next page starts, and the latest position. */
export interface EventPage {
  events: UserEvent[];
  /** The position to ask after for the next page (the last event's, or the one asked after when empty). */
  after: number;
  /** `Feed-Position`: the latest position of the feed when the page was read. */
  latest: number;
}

export interface FollowOptions {
  /** Follow the events after this position (default 0: from the start of what retention keeps). */
  after?: number;
  /** Stops following (the iteration then ends). */
  signal?: AbortSignal;
}

export interface UserClientOptions {
  /** e.g. `https://users.internal.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`; a function is asked before every request (token refresh). */
  token?: string | (() => string | Promise<string>);
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /**
   * How often a create or patch is retried after a network error or a 503 (default 3),
   * with the same Idempotency-Key, so a retry never writes twice.
   */
  retries?: number;
  /** Milliseconds before the first retry, doubling each time (default 200); a 503's Retry-After wins when longer. */
  retryDelayMs?: number;
}

export interface WriteOptions {
  /** Only write if the user is still at this entity tag (else a 412 UserServiceError). */
  ifMatch?: string;
  /**
   * Only write if the user is at none of these entity tags (a tag, a list, or `*`, which
   * fails on any existing user); else a 412 UserServiceError. Weak comparison.
   */
  ifNoneMatch?: string;
}

export interface IdempotentWriteOptions extends WriteOptions {
  /** The Idempotency-Key (default: a new random UUID per call, reused by its retries). */
  idempotencyKey?: string;
}

export function createUserClient(options: UserClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const retries = options.retries ?? 3;
  const retryDelayMs = options.retryDelayMs ?? 200;

  /**
   * Sends a request; a 2xx (or, when `notModified` allows it, a 304) is returned, anything
   * else thrown as a UserServiceError. A 304 is not `ok` to fetch and has no body: only a
   * request that sent If-None-Match may get one, and only the caller that sent it knows
   * what it means.
   */
  async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}, signal?: AbortSignal, notModified = false): Promise<Response> {
    const token = typeof options.token === 'function' ? await options.token() : options.token;
    const response = await doFetch(url, {
      method,
      ...(signal ? { signal } : {}),
      headers: {
        accept: 'application/json, application/problem+json',
        ...(body !== undefined ? { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (response.ok || (notModified && response.status === 304)) return response;
    throw await errorOf(response, url);
  }

  /**
   * A write that is safe to repeat: it carries an Idempotency-Key (the caller's or
   * a new UUID) and is sent again, with the same key, after a network error or a
   * 503, so a response lost on the way never turns into a second write.
   */
  async function idempotent(method: string, url: string, body: unknown, headers: Record<string, string>, key: string = crypto.randomUUID()): Promise<Response> {
    const withKey = { ...headers, 'idempotency-key': `"${key.replace(/["\\]/g, '\\$&')}"` };
    for (let attempt = 0; ; attempt++) {
      try {
        return await call(method, url, body, withKey);
      } catch (error) {
        if (attempt >= retries || !isRetryable(error)) throw error;
        const retryAfterMs = error instanceof UserServiceError && error.retryAfterS !== undefined ? error.retryAfterS * 1000 : 0;
        await new Promise((resolve) => setTimeout(resolve, Math.max(retryDelayMs * 2 ** attempt, retryAfterMs)));
      }
    }
  }

  /** A path under baseUrl, keeping its path prefix. */
  const at = (path: string) => `${base}${path}`;

  /** The Feed-Position header as a number, when the answer has one. */
  const positionOf = (response: Response): number | undefined => {
    const header = response.headers.get('feed-position');
    return header === null ? undefined : Number(header);
  };

  async function tagged(response: Response): Promise<TaggedUser> {
    const user = (await response.json()) as User;
    const headers = response.headers;
    const position = positionOf(response);
    return { user, etag: headers.get('etag') ?? '', location: headers.get('location') ?? headers.get('content-location') ?? `/users/${user.uid}`, ...(position === undefined ? {} : { position }) };
  }

  /** The precondition headers of a write. */
  const ifMatch = (o?: WriteOptions): Record<string, string> => ({ ...(o?.ifMatch ? { 'if-match': o.ifMatch } : {}), ...(o?.ifNoneMatch ? { 'if-none-match': o.ifNoneMatch } : {}) });

  async function* pages(filters: SearchFilters = {}): AsyncGenerator<SearchPage, void, undefined> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(filters)) if (value !== undefined) query.set(name, String(value));
    let url: string | undefined = at(`/users${query.size > 0 ? `?${query}` : ''}`);
    while (url !== undefined) {
      const response: Response = await call('GET', url);
      const users = (await response.json()) as User[];
      const link = nextLink(response.headers.get('link'));
      const next: string | undefined = link === undefined ? undefined : new URL(link, url).toString();
      const position = positionOf(response) ?? 0;
      yield next === undefined ? { users, position } : { users, next, position };
      url = next;
    }
  }

  /** Waits `ms`, or less when `signal` aborts; leaves no listener behind either way (follow() may wait thousands of times). */
  const sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
    });

  /**
   * GET /events as Server-Sent Events, for as long as the caller iterates:
   * every event after `after`, each once, in position order. When the stream
   * ends or breaks it reconnects with Last-Event-ID (after the server's `retry`
   * delay), so nothing is missed or repeated. A 410 (the position is older than
   * retention) is thrown as a UserServiceError: the consumer must resync from a listing.
   */
  async function* follow({ after = 0, signal }: FollowOptions = {}): AsyncGenerator<UserEvent, void, undefined> {
    let position = after;
    let retryMs = 1000;
    for (let failures = 0; !signal?.aborted; ) {
      let response: Response;
      try {
        response = await call('GET', at(`/events?after=${position}`), undefined, { accept: 'text/event-stream', 'last-event-id': String(position) }, signal);
      } catch (error) {
        if (signal?.aborted) return;
        if (failures >= retries || !isRetryable(error)) throw error;
        failures += 1;
        await sleep(Math.max(retryDelayMs * 2 ** failures, error instanceof UserServiceError ? (error.retryAfterS ?? 0) * 1000 : 0), signal);
        continue;
      }
      failures = 0;
      const parser = createEventStreamParser((ms) => (retryMs = ms));
      const decoder = new TextDecoder();
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          for (const message of parser.feed(decoder.decode(chunk, { stream: true }))) {
            const event = JSON.parse(message.data) as UserEvent;
            position = Number(event.id);
            yield event;
          }
        }
      } catch (error) {
        // A broken connection (fetch's body stream fails with a TypeError): reconnect below.
        // Anything else (an event that is not JSON) is the caller's to see.
        if (signal?.aborted) return;
        if (!(error instanceof TypeError)) throw error;
      }
      await sleep(retryMs, signal);
    }
  }

  return {
    /** POST /users: `location` is the new user's canonical path. Retried safely (see `retries`). */
    async create(user: NewUser, options?: Pick<IdempotentWriteOptions, 'idempotencyKey'>): Promise<TaggedUser> {
      return tagged(await idempotent('POST', at('/users'), user, {}, options?.idempotencyKey));
    },

    /** PATCH /users/{uid} with a JSON Merge Patch: `null` removes a field or attribute. Retried safely (see `retries`). */
    async patch(uid: string, patch: UserPatch, options?: IdempotentWriteOptions): Promise<TaggedUser> {
      return tagged(await idempotent('PATCH', at(`/users/${encodeURIComponent(uid)}`), patch, ifMatch(options), options?.idempotencyKey));
    },

    async get(uid: string): Promise<TaggedUser> {
      return tagged(await call('GET', at(`/users/${encodeURIComponent(uid)}`)));
    },

    /** GET /users/{key}:{value}; the value is percent-encoded, so colons, slashes, '%' and '+' are safe. */
    async lookup(key: LookupKey, value: string): Promise<TaggedUser> {
      return tagged(await call('GET', at(`/users/${key}:${encodeURIComponent(value)}`)));
    },

    /**
     * Reads `cached` again with If-None-Match: its own tag. A 304 (the user has not changed)
     * answers `cached`'s user and tag with `changed: false`; a 200 the user as it is now with
     * `changed: true`. The only call that can meet a 304, and it never surfaces one as an error.
     */
    async refresh(cached: TaggedUser): Promise<RefreshedUser> {
      const response = await call('GET', at(cached.location), undefined, { 'if-none-match': cached.etag }, undefined, true);
      if (response.status !== 304) return { ...(await tagged(response)), changed: true };
      const position = positionOf(response);
      return { ...cached, ...(position === undefined ? {} : { position }), changed: false };
    },

    async update(uid: string, user: UserReplacement, options?: WriteOptions): Promise<TaggedUser> {
      return tagged(await call('PUT', at(`/users/${encodeURIComponent(uid)}`), user, ifMatch(options)));
    },

    async delete(uid: string, options?: WriteOptions): Promise<void> {
      await call('DELETE', at(`/users/${encodeURIComponent(uid)}`), undefined, ifMatch(options));
    },

    /** Search page by page: each page's users and the link to the next. */
    pages,

    /** Every matching user, in uid order, fetching pages as the iteration needs them (following Link: rel="next"). */
    async *search(filters: SearchFilters = {}): AsyncGenerator<User, void, undefined> {
      for await (const page of pages(filters)) yield* page.users;
    },

    events: {
      /** GET /events?after=&limit=: one page of the change feed (poll it again with `after` for more). */
      async list({ after = 0, limit }: { after?: number; limit?: number } = {}): Promise<EventPage> {
        const response = await call('GET', at(`/events?after=${after}${limit === undefined ? '' : `&limit=${limit}`}`));
        const events = (await response.json()) as UserEvent[];
        const last = events[events.length - 1];
        return { events, after: last === undefined ? after : Number(last.id), latest: positionOf(response) ?? 0 };
      },

      follow,
    },
  };
}

export type UserClient = ReturnType<typeof createUserClient>;
