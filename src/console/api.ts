/**
 * The console's HTTP client: every call goes to this origin, with the operator's
 * credential in the Authorization header (never in a URL), and every error
 * arrives as the service's problem document.
 */
import { nextLink } from '../../packages/client/src/link-header.js';

export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
}

/** A response the service refused: its status, its problem document, its headers. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
    readonly headers: Headers,
  ) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
  }
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface Api {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Opens a streaming response (the change feed as Server-Sent Events). */
  stream(path: string, headers: Record<string, string>, signal: AbortSignal): Promise<Response>;
}

/** `token()` is read before every call, so signing out takes effect at once; `onUnauthorized` hears every 401. */
export function createApi(token: () => string | undefined, onUnauthorized: (error: ApiError) => void): Api {
  function headersFor(extra: Record<string, string>): Record<string, string> {
    const credential = token();
    return { ...(credential ? { authorization: `Bearer ${credential}` } : {}), ...extra };
  }

  async function refusal(response: Response): Promise<ApiError> {
    const text = await response.text();
    let problem: Problem = { status: response.status, title: response.statusText };
    try {
      problem = JSON.parse(text) as Problem;
    } catch {
      // Not a problem document (a proxy's page): keep the status line.
    }
    const error = new ApiError(response.status, problem, response.headers);
    if (response.status === 401) onUnauthorized(error);
    return error;
  }

  return {
    async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
      const headers = headersFor({ accept: 'application/json, application/problem+json', ...options.headers });
      if (options.body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
      const response = await fetch(path, {
        method,
        headers,
        cache: 'no-store',
        credentials: 'omit',
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (!response.ok) throw await refusal(response);
      const body = (response.status === 204 || method === 'HEAD' ? undefined : await response.json()) as T;
      return { status: response.status, headers: response.headers, body };
    },

    async stream(path, headers, signal) {
      const response = await fetch(path, { headers: headersFor(headers), cache: 'no-store', credentials: 'omit', signal });
      if (!response.ok) throw await refusal(response);
      return response;
    },
  };
}

/** The `rel="next"` target of a Link header, as a path on this origin. */
export function nextPage(headers: Headers): string | undefined {
  const link = nextLink(headers.get('link'));
  if (link === undefined) return undefined;
  const url = new URL(link, location.origin);
  return url.origin === location.origin ? `${url.pathname}${url.search}` : undefined;
}

/** What to tell the operator about a failed call. */
export function describe(error: unknown): string {
  if (error instanceof ApiError) return `${error.problem.title ?? `HTTP ${error.status}`}${error.problem.detail ? `: ${error.problem.detail}` : ''}`;
  if (error instanceof DOMException && error.name === 'AbortError') return 'Cancelled.';
  // fetch fails with a TypeError when no answer came (network, refused connection).
  if (error instanceof TypeError) return 'The service could not be reached.';
  return error instanceof Error ? error.message : String(error);
}
