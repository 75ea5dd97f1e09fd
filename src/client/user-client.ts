/**
 * A typed client for the user service, for TypeScript services that call it.
 * Its types come from the same TypeBox schemas that validate the server's
 * requests and serialise its responses (type-only imports: no runtime
 * dependency beyond the platform's fetch). Errors are thrown as
 * UserServiceError carrying the server's RFC 9457 problem document.
 */
import type { Static } from 'typebox';
import type { LookupKey } from '../users/user.js';
import type { CreateUserBody, ReplaceUserBody, SearchQuery, UserResource } from '../users/user-schemas.js';

export type User = Static<typeof UserResource>;
export type NewUser = Static<typeof CreateUserBody>;
export type UserReplacement = Static<typeof ReplaceUserBody>;
export type SearchFilters = Omit<Static<typeof SearchQuery>, 'limit' | 'cursor'> & { limit?: number };
export type { LookupKey };

/** A user as read, with the entity tag to send back in `ifMatch`. */
export interface TaggedUser {
  user: User;
  etag: string;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  errors?: { pointer?: string; parameter?: string; detail: string }[];
  key?: string;
}

export class UserServiceError extends Error {
  readonly status: number;
  readonly type: string;
  constructor(readonly problem: Problem) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.name = 'UserServiceError';
    this.status = problem.status;
    this.type = problem.type;
  }
}

export interface UserClientOptions {
  /** e.g. `https://users.internal.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`; a function is asked before every request (token refresh). */
  token?: string | (() => string | Promise<string>);
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
}

export interface WriteOptions {
  /** Only write if the user is still at this entity tag (else a 412 UserServiceError). */
  ifMatch?: string;
}

/** The `rel="next"` target of a Link header (RFC 8288), if any. */
export function nextLink(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (match && /(^|;)\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(match[2] as string)) return match[1];
  }
  return undefined;
}

export function createUserClient(options: UserClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;

  async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const token = typeof options.token === 'function' ? await options.token() : options.token;
    const response = await doFetch(url, {
      method,
      headers: {
        accept: 'application/json, application/problem+json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (response.ok) return response;
    const text = await response.text();
    let problem: Problem;
    try {
      problem = JSON.parse(text) as Problem;
    } catch {
      problem = { type: 'about:blank', title: response.statusText, status: response.status, detail: text.slice(0, 200), instance: new URL(url).pathname };
    }
    throw new UserServiceError(problem);
  }

  /** A path under baseUrl, keeping its path prefix. */
  const at = (path: string) => `${base}${path}`;

  async function tagged(response: Response): Promise<TaggedUser> {
    return { user: (await response.json()) as User, etag: response.headers.get('etag') ?? '' };
  }

  const ifMatch = (o?: WriteOptions): Record<string, string> => (o?.ifMatch ? { 'if-match': o.ifMatch } : {});

  return {
    async create(user: NewUser): Promise<TaggedUser> {
      return tagged(await call('POST', at('/users'), user));
    },

    async get(uid: string): Promise<TaggedUser> {
      return tagged(await call('GET', at(`/users/${encodeURIComponent(uid)}`)));
    },

    /** GET /users/{key}:{value}; the value is percent-encoded, so colons, slashes, '%' and '+' are safe. */
    async lookup(key: LookupKey, value: string): Promise<TaggedUser> {
      return tagged(await call('GET', at(`/users/${key}:${encodeURIComponent(value)}`)));
    },

    async update(uid: string, user: UserReplacement, options?: WriteOptions): Promise<TaggedUser> {
      return tagged(await call('PUT', at(`/users/${encodeURIComponent(uid)}`), user, ifMatch(options)));
    },

    async delete(uid: string, options?: WriteOptions): Promise<void> {
      await call('DELETE', at(`/users/${encodeURIComponent(uid)}`), undefined, ifMatch(options));
    },

    /** Every matching user, in uid order, fetching pages as the iteration needs them (following Link: rel="next"). */
    async *search(filters: SearchFilters = {}): AsyncGenerator<User, void, undefined> {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(filters)) if (value !== undefined) query.set(name, String(value));
      let url: string | undefined = at(`/users${query.size > 0 ? `?${query}` : ''}`);
      while (url !== undefined) {
        const response: Response = await call('GET', url);
        yield* (await response.json()) as User[];
        const next = nextLink(response.headers.get('link'));
        url = next === undefined ? undefined : new URL(next, url).toString();
      }
    },
  };
}

export type UserClient = ReturnType<typeof createUserClient>;
