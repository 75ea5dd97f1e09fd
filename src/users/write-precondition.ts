/**
 * The precondition a write of either door (REST, SCIM) states with If-Match and
 * If-None-Match (CONTRACT §5, RFC 9110 §13.1.1, §13.1.2). It is evaluated by the store
 * inside the write's transaction against the user as it is there, so no other write
 * can come between the check and the change.
 */
import type { FastifyRequest } from 'fastify';
import { ifMatchHolds, noneMatchTagsMatch, parseEntityTagList } from '../http/conditional-requests.js';
import { ProblemError } from '../http/problems.js';
import type { Precondition } from '../store/user-store.js';
import { etagOf } from './user-etag.js';

/**
 * The precondition of a PUT, PATCH or DELETE, or undefined when the request states none.
 * Evaluated in the order of RFC 9110 §13.2.2: If-Match first (strong comparison; a
 * malformed value matches nothing, so the write is refused), then If-None-Match (weak
 * comparison; `*` fails on any existing user). A failed one is a 412 that changes nothing.
 *
 * An If-None-Match that is neither `*` nor a list of entity tags is a 400, raised before
 * the write: ignoring it would let through a write the client meant to make conditional.
 * On a user that does not exist the write answers 404 whatever the headers say (§13.2.1:
 * preconditions are not evaluated when the request would fail without them).
 */
export function writePrecondition(request: FastifyRequest): Precondition | undefined {
  const ifMatch = request.headers['if-match'];
  const ifNoneMatch = request.headers['if-none-match'];
  const noneMatch = ifNoneMatch === undefined ? undefined : parseEntityTagList(ifNoneMatch);
  if (ifNoneMatch !== undefined && noneMatch === undefined) {
    throw new ProblemError('malformed-request', 'If-None-Match must be * or a comma-separated list of entity tags, such as "xyzzy" or W/"xyzzy".');
  }
  if (ifMatch === undefined && noneMatch === undefined) return undefined;
  return (current) => {
    const tag = etagOf(current);
    if (ifMatch !== undefined && !ifMatchHolds(ifMatch, tag)) return false;
    return noneMatch === undefined || !noneMatchTagsMatch(noneMatch, tag);
  };
}
