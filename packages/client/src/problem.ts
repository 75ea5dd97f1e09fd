/**
 * The errors the client throws: a UserServiceError carries the service's problem
 * document (RFC 9457), so a caller branches on `status` and `type`, never on a message.
 */
import type { components } from './openapi-types.js';

/** The service's problem document; `about:blank` when something in between (a proxy) answered with no problem document. */
export type Problem = Omit<components['schemas']['Problem'], 'type'> & { type: components['schemas']['Problem']['type'] | 'about:blank' };

export class UserServiceError extends Error {
  readonly status: number;
  readonly type: string;
  constructor(
    readonly problem: Problem,
    /** The answer's Retry-After, in seconds, when it had one. */
    readonly retryAfterS?: number,
  ) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.name = 'UserServiceError';
    this.status = problem.status;
    this.type = problem.type;
  }
}

/** The error of a failed answer: its problem document, or one made from its status when the body is not one. */
export async function errorOf(response: Response, url: string): Promise<UserServiceError> {
  const text = await response.text();
  let problem: Problem;
  try {
    problem = JSON.parse(text) as Problem;
  } catch {
    problem = { type: 'about:blank', title: response.statusText, status: response.status, detail: text.slice(0, 200), instance: new URL(url).pathname };
  }
  return new UserServiceError(problem, Number(response.headers.get('retry-after')) || undefined);
}

/**
 * A failure that a retry with the same Idempotency-Key may get past: a 503, a
 * request with this key still running (409 idempotency-key-in-use), or a network
 * error (fetch rejects with a TypeError when the connection fails or breaks).
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof UserServiceError) return error.status === 503 || (error.status === 409 && error.type === '/problems/idempotency-key-in-use');
  return error instanceof TypeError;
}
