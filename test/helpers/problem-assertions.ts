/**
 * The one check of an error response (CONTRACT §6, README "Errors"): an RFC 9457
 * problem document served as `application/problem+json; charset=utf-8` with
 * `Cache-Control: no-store`, carrying `type`, `title`, `status`, `detail` and
 * `instance`, its `status` equal to the HTTP status, and no stack or SQL text.
 */
import assert from 'node:assert/strict';
import type { TestResponse } from './http-client.js';

/** Text that only a leaked stack trace or SQL statement would contain. */
const STACK_OR_SQL = /\bat \S+ \(|\.[cm]?[jt]s:\d+:\d+|\bSELECT\b[\s\S]*\bFROM\b|\bINSERT INTO\b|\bDELETE FROM\b|\bSQLITE_[A-Z]+|syntax error at or near/;

/**
 * Asserts that `res` is a problem document with HTTP status `status` and problem
 * type `/problems/{type}` (`type` is the name from the README's table, e.g. `not-found`).
 */
export function assertProblem(res: TestResponse, status: number, type: string): void {
  assert.equal(res.status, status, `expected ${status} ${type}, got ${res.status}: ${res.text}`);
  assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8', res.text);
  assert.equal(res.headers['cache-control'], 'no-store', res.text);
  const body = res.body;
  assert.ok(body !== null && typeof body === 'object' && !Array.isArray(body), `the body is not a JSON object: ${res.text}`);
  for (const member of ['type', 'title', 'detail', 'instance']) assert.equal(typeof body[member], 'string', `${member}: ${res.text}`);
  assert.equal(body.status, status, `status member: ${res.text}`);
  assert.equal(body.type, `/problems/${type}`, res.text);
  assert.equal('stack' in body, false, `the problem carries a stack: ${res.text}`);
  assert.doesNotMatch(res.text, STACK_OR_SQL, 'the problem reveals a stack or SQL');
}
