/**
 * SCIM attribute names are case-insensitive (RFC 7643 §2.1): `userName` and `USERNAME`
 * name one attribute. The body parser already refuses a name repeated exactly (I-JSON,
 * RFC 7493 §2.3; http/duplicate-members.ts), but two spellings of one attribute in one
 * object are two JSON members: the mapping, reading names case-insensitively, kept the
 * last, while a proxy, a WAF or an audit tool may read the first (`{"active":true,
 * "ACTIVE":false}` deactivated the user; `emails[0]` `value` and `VALUE` stored the
 * second address). Every member name in a SCIM body (User, PatchOp, SearchRequest) is
 * an attribute or message name, never data, so a SCIM body is refused at the first
 * object holding two names equal but for case, naming both.
 */
import { pointerToken } from '../json-pointer.js';
import { badRequest } from './scim-error.js';

export interface CaseRepeat {
  /** The JSON pointer of the object holding both names ('' for the body). */
  pointer: string;
  first: string;
  second: string;
}

/** The first object in `body` with two member names equal case-insensitively. Iterative: no depth can exhaust the stack. */
export function caseRepeatedMember(body: unknown): CaseRepeat | undefined {
  const pending: { value: unknown; pointer: string }[] = [{ value: body, pointer: '' }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const { value, pointer } = item;
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      value.forEach((member, i) => pending.push({ value: member, pointer: `${pointer}/${i}` }));
      continue;
    }
    const seen = new Map<string, string>();
    for (const [name, member] of Object.entries(value)) {
      const lower = name.toLowerCase();
      const first = seen.get(lower);
      if (first !== undefined) return { pointer, first, second: name };
      seen.set(lower, name);
      pending.push({ value: member, pointer: `${pointer}/${pointerToken(name)}` });
    }
  }
  return undefined;
}

/** Refuses a SCIM body naming one attribute twice in one object: 400 invalidSyntax, as an exact repeat is. */
export function assertNoCaseRepeats(body: unknown): void {
  const found = caseRepeatedMember(body);
  if (found === undefined) return;
  const where = found.pointer === '' ? 'the body' : `the object at ${found.pointer}`;
  throw badRequest(
    'invalidSyntax',
    `The members ${JSON.stringify(found.first)} and ${JSON.stringify(found.second)} in ${where} name one attribute (SCIM names are case-insensitive, RFC 7643 §2.1); send it once.`,
  );
}
