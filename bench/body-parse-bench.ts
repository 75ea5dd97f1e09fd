/**
 * What refusing repeated member names (src/http/duplicate-members.ts) costs a write's
 * body parse: the parser's work before (UTF-8 check, decode, secure-json-parse) and
 * after (the same, then the check), on the bodies a write sends, in alternating rounds
 * in one process so both sides meet the same machine state.
 *
 *   npm run bench:body-parse   (BENCH_ROUNDS, default 7)
 *
 * Prints, per body, the median time per parse of each side over the rounds and the
 * difference.
 */
import { isUtf8 } from 'node:buffer';
import secureJson from 'secure-json-parse';
import { repeatedMember } from '../src/http/duplicate-members.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

const restCreate = {
  username: 'alice.liddell',
  email_address: 'Alice.Liddell+news@Example.com',
  legacy_ids: ['A-1001', 'crm:77'],
  display_name: 'Alice Liddell',
  name: { given_name: 'Alice', family_name: 'Liddell' },
  title: 'Engineer',
  phone_numbers: [{ value: '+44 20 7946 0000', type: 'work' }],
  department: 'R&D',
  attributes: { department: 'R&D', cost_centre: 'CC-42', badges: ['a', 'b', 'c'] },
};
const scimCreate = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
  userName: 'bjensen@example.com',
  externalId: 'bjensen',
  name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
  emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }],
  phoneNumbers: [{ value: '555-555-8377', type: 'work' }],
  active: true,
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { employeeNumber: '701984', department: 'Tour Operations', manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d' } },
};
// Near the 64 KiB body limit: 16 KiB of attributes is the contract's cap, so a large body is mostly strings elsewhere.
const large = { ...restCreate, attributes: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`key${i}`, { note: 'x'.repeat(30), list: [i, `v${i}`], flag: i % 2 === 0 }])) };

const BODIES: [string, Buffer, number][] = [
  ['REST create', Buffer.from(JSON.stringify(restCreate)), 20_000],
  ['SCIM create', Buffer.from(JSON.stringify(scimCreate)), 20_000],
  ['large body', Buffer.from(JSON.stringify(large)), 300],
];

const OPTIONS = { protoAction: 'error', constructorAction: 'error' } as const;
const before = (body: Buffer) => (isUtf8(body) ? secureJson.parse(body.toString('utf8'), undefined, OPTIONS) : undefined);
const after = (body: Buffer) => {
  if (!isUtf8(body)) return undefined;
  const text = body.toString('utf8');
  const value = secureJson.parse(text, undefined, OPTIONS);
  if (repeatedMember(text, value) !== undefined) throw new Error('a bench body repeats a member');
  return value;
};

/** Nanoseconds per parse over `n` parses. */
function timed(parse: (body: Buffer) => unknown, body: Buffer, n: number): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) parse(body);
  return Number(process.hrtime.bigint() - started) / n;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (const [name, body, n] of BODIES) {
  timed(before, body, n);
  timed(after, body, n);
  const sides = { before: [] as number[], after: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    sides.before.push(timed(before, body, n));
    sides.after.push(timed(after, body, n));
  }
  const [b, a] = [median(sides.before), median(sides.after)];
  console.log(`${name} (${body.length} bytes): before ${(b / 1000).toFixed(2)} µs, after ${(a / 1000).toFixed(2)} µs per parse: +${((a - b) / 1000).toFixed(2)} µs (${(((a - b) / b) * 100).toFixed(0)} %)`);
}
