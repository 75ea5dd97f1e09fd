/**
 * patchedFields() with `membersValid` (what an import's merge uses, its records
 * having passed the user schema when read) gives exactly what the REST PATCH's
 * full validation gives: the same fields, the same "nothing changes", the same
 * 400. Property-tested over valid users and valid records, members drawn so
 * that objects merge into objects, lists replace lists and nulls remove.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createRecordChecker } from '../../src/cli/import-records.js';
import { ProblemError } from '../../src/http/problems.js';
import type { User } from '../../src/users/user.js';
import { patchedFields } from '../../src/users/user-patch.js';
import type { UserPatch } from '../../src/users/user-schemas.js';

const check = createRecordChecker(() => '2026-01-01T00:00:00.000Z');

/** Members of an import record (JSON Lines: null allowed where the schema allows it). */
const membersArb = fc.record(
  {
    username: fc.constantFrom('ann', 'Ann', 'bo'),
    email_address: fc.constantFrom('ann@example.com', 'other@example.com'),
    legacy_ids: fc.constantFrom([], ['crm:1'], ['crm:1', 'A-2']),
    display_name: fc.constantFrom(null, 'Ann', 'Ann L.'),
    department: fc.constantFrom(null, 'Ops', 'Sales'),
    active: fc.boolean(),
    name: fc.constantFrom(null, { given_name: 'Ann' }, { family_name: 'Lee', given_name: 'Ann' }),
    manager: fc.constantFrom(null, { value: 'm-1' }, { value: 'm-2', display_name: 'Mo' }),
    emails: fc.constantFrom([], [{ value: 'home@example.com', type: 'home' }], [{ value: 'ann@example.com', type: 'work' }, { value: 'x@example.com' }]),
    phone_numbers: fc.constantFrom([], [{ value: '+1 555 0100', primary: true }], [{ value: '+1 555 0101' }, { value: '+1 555 0102' }]),
    attributes: fc.constantFrom({}, { team: 'north' }, { team: null, floor: 3 }, { deep: { a: 1, b: { c: null } } }, { big: 'x'.repeat(9000) }, { other: 'y'.repeat(9000) }),
  },
  { requiredKeys: ['username', 'email_address'] },
);

/** The user a valid record creates; undefined for a record the schema refuses (the property skips it). */
function userOf(record: unknown): User | undefined {
  const result = check(record);
  if (!result.ok) return undefined;
  const { given: _given, ...user } = result.user;
  return user;
}

/** What a call gives, comparable: the fields, "unchanged", or the 400's detail. */
function outcome(call: () => unknown): unknown {
  try {
    return { value: call() ?? 'unchanged' };
  } catch (error) {
    if (error instanceof ProblemError) return { problem: error.detail, errors: error.extras.errors };
    throw error;
  }
}

describe('patchedFields with members already validated', () => {
  it('equals the PATCH with full validation over valid users and valid records', () => {
    fc.assert(
      fc.property(membersArb, membersArb, (existingMembers, recordMembers) => {
        const existing = userOf(existingMembers);
        const result = check(recordMembers);
        fc.pre(existing !== undefined && result.ok);
        if (existing === undefined || !result.ok) return;
        const given = result.user.given as UserPatch;
        assert.deepEqual(outcome(() => patchedFields(existing, given, true)), outcome(() => patchedFields(existing, given)));
      }),
      { numRuns: 3000, seed: 20261125 },
    );
  });
});
