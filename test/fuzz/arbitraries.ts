/**
 * Generators for the HTTP fuzz suite (http-fuzz.test.ts).
 *
 * Requests are generated as small models, not as final text: a JSON body is a
 * tree of `Json` nodes rendered to raw JSON text by `renderJson` (so keys like
 * `__proto__` survive, which JSON.stringify of an object literal would drop, and
 * NUL or lone surrogates appear as `\u0000` / `\ud800` escapes), and huge or
 * deeply nested parts are kept as parameters (`{ depth: 5000 }`) and expanded
 * only when sent. That keeps fast-check's counterexamples short and lets it
 * shrink a depth or a length by bisection.
 *
 * Parts that depend on the running server (the uids of the pre-created users,
 * cursors it issued) are placeholders resolved through a `RenderContext`.
 *
 * Everything generated passes `echoSafe`: the service echoes parts of a request
 * (the path in `instance`, member names in JSON pointers, stored values in 2xx
 * bodies), so a request that itself spelled `SELECT` or a stack frame would make
 * the leak check fail for the wrong reason.
 */
import fc from 'fast-check';

// ---------------------------------------------------------------------------
// Leaks
// ---------------------------------------------------------------------------

/**
 * What must never appear in a response: stack frames, SQL, driver or engine
 * names, JavaScript error names, file locations. (The brief's
 * `/at .*\(.*:\d+\)|SELECT|INSERT|sqlite|postgres|SyntaxError/i`, made precise
 * enough that fixed texts such as "at most 254 characters (local part at most 64)"
 * cannot match, and extended with the other usual suspects.)
 */
export const LEAK =
  /\bat (?:async )?[^\s()]+ \([^()]*:\d+(?::\d+)?\)|\bat (?:file|node):\S*:\d+|\\n\s+at \S|\bSELECT\b|\bINSERT\b|\bUPDATE\s+\S+\s+SET\b|\bDELETE\s+FROM\b|sqlite|postgres|SyntaxError|TypeError|RangeError|ReferenceError|Maximum call stack|constraint failed|violates|duplicate key|node_modules|\.[cm]?[jt]s:\d+|\/work\//i;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Whether the service could echo `text` (or its percent-decoded form) and so fake a leak. */
export function echoSafe(text: string): boolean {
  return !LEAK.test(text) && !LEAK.test(safeDecode(text));
}

// ---------------------------------------------------------------------------
// Characters and strings
// ---------------------------------------------------------------------------

/** Look-alikes, width variants, combining marks, invisible and bidi characters, case-mapping oddities. */
export const CONFUSABLES = [
  'ＡＬＩＣＥ', 'ａｌｉｃｅ', 'Ｂｏｂ', '\uff21', '\uff41', '\uff10', // fullwidth
  '\u0430\u006c\u0456\u0441\u0435', '\u0430', '\u0435', '\u043e', '\u0440', '\u0441', '\u0410', '\u0412', // Cyrillic а е о р с А В
  '\u03bf', '\u0391', '\u03c2', '\u03a3', // Greek ο Α ς Σ
  'e\u0301', '\u00e9', '\u0301', '\u0308', 'a\u030a', '\u00c5', '\u212b', '\u0345', '\u1f80', // combining marks, NFC pairs
  '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u180e', '\u00ad', // zero-width, soft hyphen
  '\u200e', '\u200f', '\u202a', '\u202b', '\u202d', '\u202e', '\u2066', '\u2067', '\u2069', '\u061c', // bidi marks
  '\u0131', '\u0130', '\u00df', '\u1e9e', '\ufb01', '\u212a', '\u2126', '\u01c5', '\u0149', // case mapping
  '\u2460', '\u0663', '\ud835\udc00', '\u3000', '\u00a0', '\u2028', '\u2029', '\u3164', '\uff8a', // digits, spaces, fillers
  '\ufe0f', '\ud83d\udc69\u200d\ud83d\udcbb', '\udb40\udc41', '\udbff\udfff', '\ufffd', '\ufffe', '\uffff',
];

/** Letters only (so that a username may still be valid): width variants, Cyrillic, Greek, with combining marks. */
const LETTER_CONFUSABLES = ['\uff21', '\uff42', '\u0430', '\u0435', '\u043e', '\u0456', '\u03bf', '\u0391', '\u00e9', 'e\u0301', '\u0131', '\u0130', '\u00df', '\u212a', '\u01c5', '\u0663', '\u1f80'];

/** Strings PostgreSQL and JSON text cannot hold: NUL and unpaired surrogates. */
export const UNSTORABLE = ['\u0000', '\ud800', '\udfff', '\udc00\ud800', 'a\u0000b', '\ud83d', '\u0000\u0000'];

const SPECIAL_ASCII = ['"', '\\', '/', ':', '%', '@', '.', ' ', '\t', '\n', '\r', '+', '~', '{', '}', '[', ']', ',', "'", '`', '$', '<', '>', '&', '#', '?', '=', '\u007f', '\u001b'];

export const fuzzChar: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.constantFrom(...CONFUSABLES) },
  { weight: 1, arbitrary: fc.constantFrom(...UNSTORABLE) },
  { weight: 2, arbitrary: fc.constantFrom(...SPECIAL_ASCII) },
);

export const fuzzText: fc.Arbitrary<string> = fc.string({ unit: fuzzChar, maxLength: 24 }).filter(echoSafe);

const ASCII_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';

const usernameChar = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...(ASCII_LETTERS + DIGITS + '._@+-')) },
  { weight: 2, arbitrary: fc.constantFrom(...LETTER_CONFUSABLES) },
  { weight: 1, arbitrary: fuzzChar },
);

/** Mostly valid usernames (some with look-alike letters), some not; a few around the 64 limit. */
export const username: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 6, arbitrary: fc.string({ unit: usernameChar, minLength: 1, maxLength: 16 }) },
    { weight: 1, arbitrary: fc.string({ unit: usernameChar, minLength: 60, maxLength: 70 }) },
  )
  .filter(echoSafe);

const localChar = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...(ASCII_LETTERS + DIGITS + "!#$%&'*+/=?^_`{|}~-")) },
  { weight: 1, arbitrary: fc.constantFrom('.', ...LETTER_CONFUSABLES) },
  { weight: 1, arbitrary: fuzzChar },
);
const domainLabel = fc.string({ unit: fc.constantFrom(...(ASCII_LETTERS + DIGITS + '-'), '\u00e9', '\u0430', '\uff41'), minLength: 1, maxLength: 12 });
const domain = fc.oneof(
  fc.constantFrom('example.com', 'EXAMPLE.COM', 'ex\u0430mple.com', '\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com', 'xn--80ak6aa92e.com', '\u4f8b\u3048.\u30c6\u30b9\u30c8', 'a.b', 'localhost', 'example..com', '[127.0.0.1]'),
  fc.array(domainLabel, { minLength: 1, maxLength: 3 }).map((labels) => labels.join('.')),
);

/** Mostly valid addresses (some with Unicode), some not. */
export const emailAddress: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 8, arbitrary: fc.tuple(fc.string({ unit: localChar, minLength: 1, maxLength: 20 }), domain).map(([local, d]) => `${local}@${d}`) },
    { weight: 1, arbitrary: fuzzText },
    { weight: 1, arbitrary: fc.tuple(fc.string({ unit: localChar, minLength: 60, maxLength: 70 }), domain).map(([local, d]) => `${local}@${d}`) },
  )
  .filter(echoSafe);

/** Values a legacy id may hold (colons, slashes, spaces) and some it may not (controls, surrounding space). */
export const legacyId: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 4, arbitrary: fc.string({ unit: fc.constantFrom(...(ASCII_LETTERS + DIGITS + ':/-_ .%+')), minLength: 1, maxLength: 16 }) },
    { weight: 2, arbitrary: fuzzText },
  )
  .filter(echoSafe);

// ---------------------------------------------------------------------------
// JSON bodies
// ---------------------------------------------------------------------------

/** Shapes of deeply nested values: `open` × depth, then `leaf`, then `close` × depth. */
export const DEEP_SHAPES = {
  arrays: ['[', ']'],
  objects: ['{"a":', '}'],
  proto: ['{"__proto__":', '}'],
  constructorPrototype: ['{"constructor":{"prototype":', '}}'],
  mixed: ['[{"x":', '}]'],
} as const satisfies Record<string, readonly [string, string]>;
export type DeepShape = keyof typeof DEEP_SHAPES;

export const DEEP_LEAVES = ['1', 'null', '{}', '[]', '"x"', '"\\u0000"', '"\\ud800"', '{"__proto__":{"polluted":true}}'] as const;

/** Uid variants that a PUT body may carry in its `uid` member. */
export type UidVariant = 'same' | 'upper' | 'other';

export type Json =
  /** Literal JSON text, inserted as is (numbers, booleans, null, escapes). */
  | { t: 'raw'; text: string }
  | { t: 'str'; s: string }
  /** A string of `unit` repeated `length` times. */
  | { t: 'big'; unit: string; length: number }
  /** `count` items (or members) in one array (or object); `distinct` items differ, else they repeat (duplicate keys). */
  | { t: 'many'; container: 'arr' | 'obj'; count: number; distinct: boolean }
  | { t: 'deep'; shape: DeepShape; leaf: number; depth: number }
  | { t: 'arr'; items: Json[] }
  | { t: 'obj'; members: [string, Json][] }
  /** An object of `members` followed by one member named `unit` × `length` (a huge member name). */
  | { t: 'bigKey'; members: [string, Json][]; unit: string; length: number }
  /** The uid of the request's target user (a placeholder resolved when sent). */
  | { t: 'uid'; variant: UidVariant }
  /** A key another existing user holds (a placeholder resolved when sent): a 409 unless it is changed by the variant. */
  | { t: 'taken'; key: 'username' | 'email_address' | 'legacy_id'; variant: TakenVariant };

/** How a taken key is sent: as stored, upper-cased, or with its ASCII letters and digits in fullwidth form. */
export type TakenVariant = 'exact' | 'upper' | 'fullwidth';

export interface RenderContext {
  /** The uid in the path of a PUT (or of some existing user, for a POST). */
  targetUid: string;
  /** The uid of another existing user. */
  otherUid: string;
  /** The keys that other user holds. */
  other: { username: string; email_address: string; legacy_ids: readonly string[] };
}

function takenValue(key: 'username' | 'email_address' | 'legacy_id', variant: TakenVariant, ctx: RenderContext): string {
  const value = key === 'legacy_id' ? (ctx.other.legacy_ids[0] ?? 'no-legacy-id') : ctx.other[key];
  if (variant === 'upper') return value.toUpperCase();
  if (variant === 'fullwidth') return value.replace(/[A-Za-z0-9]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0));
  return value;
}

/** Whether a model needs `RenderContext.other`. */
export function mentionsTaken(value: Json): boolean {
  switch (value.t) {
    case 'taken':
      return true;
    case 'arr':
      return value.items.some(mentionsTaken);
    case 'obj':
    case 'bigKey':
      return value.members.some(([, member]) => mentionsTaken(member));
    default:
      return false;
  }
}

export function renderJson(value: Json, ctx: RenderContext): string {
  switch (value.t) {
    case 'raw':
      return value.text;
    case 'str':
      // JSON.stringify writes NUL as \u0000 and a lone surrogate as \ud800 (well-formed JSON.stringify).
      return JSON.stringify(value.s);
    case 'big':
      return JSON.stringify(value.unit.repeat(value.length));
    case 'many': {
      const items = Array.from({ length: value.count }, (_, i) => (value.distinct ? `"id-${i}"` : '"id"'));
      return value.container === 'arr' ? `[${items.join(',')}]` : `{${items.map((key, i) => `${key}:${i}`).join(',')}}`;
    }
    case 'deep': {
      const [open, close] = DEEP_SHAPES[value.shape];
      return open.repeat(value.depth) + (DEEP_LEAVES[value.leaf % DEEP_LEAVES.length] ?? '1') + close.repeat(value.depth);
    }
    case 'arr':
      return `[${value.items.map((item) => renderJson(item, ctx)).join(',')}]`;
    case 'obj':
      return `{${value.members.map(([key, member]) => `${JSON.stringify(key)}:${renderJson(member, ctx)}`).join(',')}}`;
    case 'bigKey':
      return renderJson({ t: 'obj', members: [...value.members, [value.unit.repeat(value.length), { t: 'raw', text: '1' }]] }, ctx);
    case 'uid':
      return JSON.stringify(value.variant === 'same' ? ctx.targetUid : value.variant === 'upper' ? ctx.targetUid.toUpperCase() : ctx.otherUid);
    case 'taken':
      return JSON.stringify(takenValue(value.key, value.variant, ctx));
  }
}

/** The texts of a model the service may echo (strings, member names, raw literals), for echoSafe. */
function echoTexts(value: Json, out: string[] = []): string[] {
  switch (value.t) {
    case 'raw':
      out.push(value.text);
      break;
    case 'str':
      out.push(value.s);
      break;
    case 'big':
      out.push(value.unit.repeat(Math.min(value.length, 8)));
      break;
    case 'arr':
      for (const item of value.items) echoTexts(item, out);
      break;
    case 'obj':
    case 'bigKey':
      for (const [key, member] of value.members) {
        out.push(key);
        echoTexts(member, out);
      }
      if (value.t === 'bigKey') out.push(value.unit.repeat(8));
      break;
    default:
      break;
  }
  return out;
}

const rawLiteral: fc.Arbitrary<Json> = fc
  .constantFrom('null', 'true', 'false', '0', '-0', '1', '42', '-1', '1.5', '2.0', '1E2', '1e400', '-1e400', '1e-400', '9007199254740993', '123456789012345678901234567890', '0.0000001', '"42"', '"true"', '"null"', '""', '" "', '"\\u0000"', '"\\ud800"', '"\\udc00"', '"a\\u0000b"', '"\\ud800\\u0000"', '"\\uDBFF\\uDBFF"')
  .map((text) => ({ t: 'raw' as const, text }));

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
const FIELD_NAMES = ['username', 'email_address', 'legacy_ids', 'legacy_id', 'display_name', 'attributes'];
const READ_ONLY_NAMES = ['uid', 'created_at', 'updated_at', 'version'];
const NEAR_FIELD_NAMES = [
  'Username', 'USERNAME', 'user_name', 'userName', 'emailAddress', 'email', 'legacyIds', 'legacy_ids ', ' username', 'display-name',
  '\uff55\uff53\uff45\uff52\uff4e\uff41\uff4d\uff45', 'us\u0435rname', 'username\u200b', '\u202eusername', 'username\u0000', 'user\ud800name',
  '', ' ', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', '__lookupSetter__', 'isPrototypeOf', 'length', '0', '$ref', '$id', 'additionalProperties',
];

/** Member names: the service's own, near misses, prototype names, anything. */
export const memberName: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS) },
  { weight: 3, arbitrary: fc.constantFrom(...FIELD_NAMES, ...READ_ONLY_NAMES) },
  { weight: 3, arbitrary: fc.constantFrom(...NEAR_FIELD_NAMES) },
  { weight: 4, arbitrary: fuzzText },
);

/** Any JSON value, of any type, with odd member names and strings at any depth. */
export const anyJson: fc.Arbitrary<Json> = fc.letrec<{ json: Json; arr: Json; obj: Json }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: rawLiteral },
    { weight: 3, arbitrary: fuzzText.map((s): Json => ({ t: 'str', s })) },
    { weight: 2, arbitrary: tie('arr') },
    { weight: 2, arbitrary: tie('obj') },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('deep' as const), shape: fc.constantFrom(...(Object.keys(DEEP_SHAPES) as DeepShape[])), leaf: fc.nat(DEEP_LEAVES.length - 1), depth: fc.integer({ min: 1, max: 200 }) }) },
  ),
  arr: fc.array(tie('json'), { maxLength: 4 }).map((items): Json => ({ t: 'arr', items })),
  obj: fc.array(fc.tuple(memberName, tie('json')), { maxLength: 4 }).map((members): Json => ({ t: 'obj', members })),
})).json;

const str = (s: string): Json => ({ t: 'str', s });

const attributesValue: fc.Arbitrary<Json> = fc
  .array(fc.tuple(fc.oneof({ weight: 4, arbitrary: fuzzText }, { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS, 'department') }), anyJson), { maxLength: 4 })
  .map((members): Json => ({ t: 'obj', members }));

const takenVariant = fc.constantFrom<TakenVariant>('exact', 'upper', 'fullwidth');
/** A string member value: mostly generated, sometimes a key another user holds. */
const stringOrTaken = (generated: fc.Arbitrary<string>, key: 'username' | 'email_address' | 'legacy_id'): fc.Arbitrary<Json> =>
  fc.oneof(
    { weight: 12, arbitrary: generated.map(str) },
    { weight: 1, arbitrary: takenVariant.map((variant): Json => ({ t: 'taken', key, variant })) },
  );

/** The members of a plausible user body (many are valid; POST bodies never carry read-only fields here). */
function userMembers(forPut: boolean): fc.Arbitrary<[string, Json][]> {
  const legacy = fc.oneof(
    { weight: 3, arbitrary: fc.constant<[string, Json][]>([]) },
    { weight: 3, arbitrary: fc.array(stringOrTaken(legacyId, 'legacy_id'), { maxLength: 3 }).map((items): [string, Json][] => [['legacy_ids', { t: 'arr', items }]]) },
    { weight: 1, arbitrary: legacyId.map((id): [string, Json][] => [['legacy_ids', { t: 'arr', items: [str(id), str(id)] }]]) },
    { weight: 1, arbitrary: stringOrTaken(legacyId, 'legacy_id').map((id): [string, Json][] => [['legacy_id', id]]) },
    { weight: 1, arbitrary: fc.tuple(legacyId, legacyId).map(([a, b]): [string, Json][] => [['legacy_id', str(a)], ['legacy_ids', { t: 'arr', items: [str(b)] }]]) },
  );
  const displayName = fc.oneof(
    { weight: 2, arbitrary: fc.constant<[string, Json][]>([]) },
    { weight: 3, arbitrary: fuzzText.map((s): [string, Json][] => [['display_name', str(s)]]) },
    { weight: 1, arbitrary: fc.constant<[string, Json][]>([['display_name', { t: 'raw', text: 'null' }]]) },
  );
  const attributes = fc.oneof(
    { weight: 2, arbitrary: fc.constant<[string, Json][]>([]) },
    { weight: 1, arbitrary: attributesValue.map((value): [string, Json][] => [['attributes', value]]) },
  );
  const readOnly = forPut
    ? fc.subarray<[string, Json]>([
        ['uid', { t: 'uid', variant: 'same' }],
        ['created_at', str('2026-11-21T10:00:00.000Z')],
        ['updated_at', str('not a timestamp')],
        ['version', { t: 'raw', text: '7' }],
      ]).chain((fields) =>
        fc.oneof(
          { weight: 4, arbitrary: fc.constant(fields) },
          { weight: 1, arbitrary: fc.constantFrom<UidVariant>('upper', 'other').map((variant): [string, Json][] => [['uid', { t: 'uid', variant }]]) },
        ),
      )
    : fc.constant<[string, Json][]>([]);
  return fc
    .tuple(stringOrTaken(username, 'username'), stringOrTaken(emailAddress, 'email_address'), legacy, displayName, attributes, readOnly)
    .map(([name, email, ...rest]): [string, Json][] => [['username', name], ['email_address', email], ...rest.flat()]);
}

type Mutation =
  /** Replace (or add) a member with a value of any type. */
  | { m: 'set'; key: string; value: Json }
  | { m: 'drop'; key: string }
  /** Append a member, even when the name is already there (a duplicate key). */
  | { m: 'add'; key: string; value: Json };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ m: fc.constant('set' as const), key: fc.constantFrom(...FIELD_NAMES, ...READ_ONLY_NAMES), value: anyJson }) },
  { weight: 1, arbitrary: fc.record({ m: fc.constant('drop' as const), key: fc.constantFrom(...FIELD_NAMES) }) },
  { weight: 3, arbitrary: fc.record({ m: fc.constant('add' as const), key: memberName, value: anyJson }) },
);

function mutate(members: [string, Json][], mutations: Mutation[]): [string, Json][] {
  let out = members;
  for (const mu of mutations) {
    if (mu.m === 'add') out = [...out, [mu.key, mu.value]];
    else if (mu.m === 'drop') out = out.filter(([key]) => key !== mu.key);
    else out = out.some(([key]) => key === mu.key) ? out.map(([key, value]): [string, Json] => [key, key === mu.key ? mu.value : value]) : [...out, [mu.key, mu.value]];
  }
  return out;
}

/** How the body travels: valid JSON of a model, arbitrary text, a model's JSON cut and patched, or nothing. */
export type Payload =
  | { kind: 'json'; doc: Json }
  | { kind: 'raw'; text: string }
  | { kind: 'broken'; doc: Json; cut: number; garbage: string }
  | { kind: 'none' };

const RAW_BODIES = [
  '', ' ', '\n', '{', '}', '[', ']', 'null', 'true', '1', '"x"', '[]', '{}', '[{}]', '{"username":}', "{'username':'a'}", '{"a":1,}', '{"a" 1}', '{,}',
  'NaN', 'Infinity', '{"a":NaN}', '{"a":undefined}', '/* c */{}', '{}//', '\ufeff{}', '{}\u0000', '{"a":"b\u0000c"}', '{"a":"\\x41"}', '{"a":"\\u12"}', '{"a":"\\ud800"}',
  '{"a":"\\uZZZZ"}', '{"a":01}', '{"a":1e}', '{"a":-}', '{"a":"\t"}', '{"a":"\n"}', '\u0000', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}',
  '{"username":"a","username":"b"}', '{"username":"a","email_address":"a@example.com"}{}', 'username=a&email_address=a@example.com', '<user/>', '\u00ff\u00fe{', '{"a":"\\', '{"a":"\\"}',
];

export const payloadRawText: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...RAW_BODIES), fuzzText, fc.string({ unit: 'binary', maxLength: 40 }).filter(echoSafe));

const CONTENT_TYPES = [
  'application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8', 'application/json; charset=utf-16', 'application/json; charset=latin1',
  'application/json ; x=y', 'application/merge-patch+json', 'application/problem+json', 'application/vnd.api+json', 'application/jsonx', 'text/json', 'text/plain',
  'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'application/octet-stream', 'application/xml', '*/*', '',
  ';', 'application/', '/json', 'application/json, text/plain', 'json',
];

/** The Content-Type header to send; `null` sends none. Mostly application/json. */
export const contentType: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 60, arbitrary: fc.constant('application/json') },
  { weight: 6, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 30 }).filter(echoSafe) },
);

export interface BodyCase {
  method: 'POST' | 'PUT';
  /** Index (modulo their number) of the pre-created user a PUT targets. */
  target: number;
  contentType: string | null;
  /** An If-Match header (a PUT with a tag that cannot match is a 412 that changes nothing); `null` sends none. */
  ifMatch: string | null;
  payload: Payload;
}

const IF_MATCH_VALUES = ['*', '"nope"', 'W/"nope"', '"a", "b"', '', 'garbage'];
export const ifMatch: fc.Arbitrary<string | null> = fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...IF_MATCH_VALUES) });

export function renderPayload(payload: Payload, ctx: RenderContext): string | undefined {
  switch (payload.kind) {
    case 'json':
      return renderJson(payload.doc, ctx);
    case 'raw':
      return payload.text;
    case 'broken': {
      const text = renderJson(payload.doc, ctx);
      const cut = text.length === 0 ? 0 : payload.cut % (text.length + 1);
      return text.slice(0, cut) + payload.garbage;
    }
    case 'none':
      return undefined;
  }
}

function payloadEchoSafe(payload: Payload): boolean {
  switch (payload.kind) {
    case 'json':
      return echoSafe(echoTexts(payload.doc).join(' '));
    case 'raw':
      return echoSafe(payload.text);
    case 'broken':
      return echoSafe(echoTexts(payload.doc).join(' ')) && echoSafe(payload.garbage);
    case 'none':
      return true;
  }
}

function userDoc(forPut: boolean): fc.Arbitrary<Json> {
  return userMembers(forPut).map((members): Json => ({ t: 'obj', members }));
}

function mutatedUserDoc(forPut: boolean): fc.Arbitrary<Json> {
  return fc.tuple(userMembers(forPut), fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([members, mutations]): Json => ({ t: 'obj', members: mutate(members, mutations) }));
}

function payload(forPut: boolean): fc.Arbitrary<Payload> {
  return fc.oneof(
    { weight: 40, arbitrary: userDoc(forPut).map((doc): Payload => ({ kind: 'json', doc })) },
    { weight: 60, arbitrary: mutatedUserDoc(forPut).map((doc): Payload => ({ kind: 'json', doc })) },
    { weight: 10, arbitrary: anyJson.map((doc): Payload => ({ kind: 'json', doc })) },
    { weight: 10, arbitrary: payloadRawText.map((text): Payload => ({ kind: 'raw', text })) },
    { weight: 10, arbitrary: fc.record({ kind: fc.constant('broken' as const), doc: userDoc(forPut), cut: fc.nat(), garbage: fc.oneof(fc.constant(''), fuzzText) }) },
    { weight: 3, arbitrary: fc.constant<Payload>({ kind: 'none' }) },
  );
}

/** POST /users and PUT /users/{uid} with every kind of body (nesting of at most a few hundred levels). */
export const bodyCase: fc.Arbitrary<BodyCase> = fc
  .oneof(
    fc.record({ method: fc.constant('POST' as const), target: fc.nat(15), contentType, ifMatch, payload: payload(false) }),
    fc.record({ method: fc.constant('PUT' as const), target: fc.nat(15), contentType, ifMatch, payload: payload(true) }),
  )
  .filter((c) => payloadEchoSafe(c.payload));

/** Units of huge strings: 1 to 4 bytes of UTF-8, escapes of 2 or 6 bytes, unstorable ones. */
const BIG_UNITS = ['a', 'A', ' ', '\u00e9', '\u20ac', '\ud835\udc00', '\u0000', '\ud800', 'e\u0301', '\u200b', '"', '\\', ':', '\uff21'];

const hugeLength = fc.oneof(fc.integer({ min: 1, max: 90_000 }), fc.constantFrom(256, 257, 16_384, 16_385, 65_000, 65_536, 70_000));
const hugeString: fc.Arbitrary<Json> = fc.record({ t: fc.constant('big' as const), unit: fc.constantFrom(...BIG_UNITS), length: hugeLength });
const many: fc.Arbitrary<Json> = fc.record({ t: fc.constant('many' as const), container: fc.constantFrom('arr' as const, 'obj' as const), count: fc.integer({ min: 1, max: 12_000 }), distinct: fc.boolean() });
const deep: fc.Arbitrary<Json> = fc.record({
  t: fc.constant('deep' as const),
  shape: fc.constantFrom(...(Object.keys(DEEP_SHAPES) as DeepShape[])),
  leaf: fc.nat(DEEP_LEAVES.length - 1),
  depth: fc.oneof(fc.integer({ min: 1, max: 40_000 }), fc.integer({ min: 1, max: 4_000 })),
});
const hugeValue = fc.oneof(hugeString, many, deep);

/** Where a huge value goes: a field, a member of attributes, an unknown member (or its name), or the whole body. */
const HUGE_PLACES = ['username', 'email_address', 'display_name', 'legacy_id', 'legacy_ids', 'attributes', 'attributes.member', 'extra', 'extra-name', 'attributes.name', 'body', 'legacy_ids.item'] as const;

export const hugeBodyCase: fc.Arbitrary<BodyCase> = fc
  .record({
    method: fc.constantFrom('POST' as const, 'PUT' as const),
    target: fc.nat(15),
    contentType: fc.oneof({ weight: 9, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: contentType }),
    members: userMembers(false),
    place: fc.constantFrom(...HUGE_PLACES),
    value: hugeValue,
    name: fc.record({ unit: fc.constantFrom(...BIG_UNITS), length: hugeLength }),
  })
  .map(({ method, target, contentType: type, members, place, value, name }): BodyCase => {
    const without = (key: string) => members.filter(([k]) => k !== key && !(key.startsWith('legacy_id') && k.startsWith('legacy_id')));
    let doc: Json;
    switch (place) {
      case 'body':
        doc = value;
        break;
      case 'attributes.member':
        doc = { t: 'obj', members: [...without('attributes'), ['attributes', { t: 'obj', members: [['m', value]] }]] };
        break;
      case 'legacy_ids.item':
        doc = { t: 'obj', members: [...without('legacy_ids'), ['legacy_ids', { t: 'arr', items: [value] }]] };
        break;
      case 'extra':
        doc = { t: 'obj', members: [...members, ['extra', value]] };
        break;
      case 'extra-name':
        // A huge member name (it is echoed in the JSON pointer of the 400).
        doc = { t: 'bigKey', members, ...name };
        break;
      case 'attributes.name':
        doc = { t: 'obj', members: [...without('attributes'), ['attributes', { t: 'bigKey', members: [], ...name }]] };
        break;
      default:
        doc = { t: 'obj', members: [...without(place), [place, value]] };
    }
    return { method, target, contentType: type, ifMatch: null, payload: { kind: 'json', doc } };
  })
  .filter((c) => payloadEchoSafe(c.payload));

// ---------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------

export const METHODS = ['GET', 'HEAD', 'PUT', 'DELETE', 'POST', 'PATCH', 'OPTIONS'] as const;
export type Method = (typeof METHODS)[number];

export const PERCENT_PIECES = [
  '%', '%G1', '%1', '%%', '%%32%35', '%E0%A4', '%C0%AF', '%C0%80', '%00', '%2F', '%2f', '%25', '%252F', '%3A', '%3a', '%20', '+', '%2B', '%FF', '%FE%FF',
  '%ED%A0%80', '%ED%B0%80', '%F4%90%80%80', '%F0%9F%98', '%F0%9F%98%80', '%C3%A9', '%65%CC%81', '%E2%80%8B', '%E2%80%AE', '%EF%BB%BF', '%EF%BC%A1', '%D0%B0',
  '%0A', '%0D%0A', '%09', '%7F', '%u0041', '%2e', '%2E%2E', '%3F', '%23', '%5C', '%40', '%3Cscript%3E', '%C2%A0', '%E3%80%80',
];

const KEY_PIECES = [
  'uid:', 'username:', 'email_address:', 'legacy_id:', 'Uid:', 'UID:', 'USERNAME:', 'Username:', 'email:', 'id:', 'legacy_ids:', 'key:', '__proto__:', 'constructor:',
  'prototype:', 'toString:', 'hasOwnProperty:', 'username%3A', 'username%3a', 'uid%3A', '%75sername:', 'username%00:', 'user%E2%80%8Bname:', '%EF%BD%95sername:', ':', '::',
];

const RAW_PATH_CHARS = ASCII_LETTERS + DIGITS + "-._~!$&'()*,;=:@+";
/** Raw bytes 0xA1–0xFF in the request line (Node writes the path as latin1): never valid UTF-8 on their own. */
const LATIN1_CHARS = Array.from({ length: 0xff - 0xa1 + 1 }, (_, i) => String.fromCharCode(0xa1 + i)).join('');

const REPEAT_UNITS = ['a', 'A', '0', ':', '.', '-', '%41', '%00', '%25', '%2F', '%C3%A9', '%E2%80%8B', '\u00e9', '+', '~'];

export type Segment =
  | { t: 'lit'; s: string }
  /** The uid of pre-created user `index` (modulo their number). */
  | { t: 'target'; index: number; upper: boolean }
  /** `{key}:{value}` naming pre-created user `index` by one of its keys, as is or altered, percent-encoded. */
  | { t: 'lookup'; key: 'uid' | 'username' | 'email_address' | 'legacy_id'; index: number; variant: TakenVariant | 'encoded-colon' | 'raw' }
  | { t: 'repeat'; unit: string; count: number };

/** What path rendering needs to know of a pre-created user. */
export interface TargetUser {
  uid: string;
  username: string;
  email_address: string;
  legacy_ids: readonly string[];
}

const segment: fc.Arbitrary<Segment> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PERCENT_PIECES).map((s): Segment => ({ t: 'lit', s })) },
  { weight: 3, arbitrary: fc.constantFrom(...KEY_PIECES).map((s): Segment => ({ t: 'lit', s })) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...ASCII_LETTERS, '_'), minLength: 1, maxLength: 12 }).map((s): Segment => ({ t: 'lit', s: `${s}:` })) },
  { weight: 2, arbitrary: fuzzText.map((s): Segment => ({ t: 'lit', s: encodeURIComponent(s.toWellFormed()) })) },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...RAW_PATH_CHARS), minLength: 1, maxLength: 16 }).map((s): Segment => ({ t: 'lit', s })) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...LATIN1_CHARS), minLength: 1, maxLength: 4 }).map((s): Segment => ({ t: 'lit', s })) },
  { weight: 1, arbitrary: fc.constantFrom('.', '..', '%2e', '%2E%2E', '.%2e', '...').map((s): Segment => ({ t: 'lit', s })) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('target' as const), index: fc.nat(15), upper: fc.boolean() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('lookup' as const),
      key: fc.constantFrom('uid' as const, 'username' as const, 'email_address' as const, 'legacy_id' as const),
      index: fc.nat(15),
      variant: fc.constantFrom('exact' as const, 'upper' as const, 'fullwidth' as const, 'encoded-colon' as const, 'raw' as const),
    }),
  },
  { weight: 1, arbitrary: fc.oneof(fc.uuid({ version: 7 }), fc.uuid()).map((s): Segment => ({ t: 'lit', s })) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('repeat' as const),
      unit: fc.constantFrom(...REPEAT_UNITS),
      count: fc.oneof(fc.integer({ min: 1, max: 5_000 }), fc.constantFrom(2_034, 2_047, 2_048, 2_049)),
    }),
  },
);

const ODD_PATH_PREFIXES = ['/users', '/users//', '//users/', '/Users/', '/USERS/', '/users/./', '/users/../users/', '/./users/', '/users%2F', '/users%2f', '/%75sers/', '/users;x/', '/api/users/', '/'];
const ODD_PATH_TAILS = ['/', '/profile', '/..', '/.', '//', '/x/y', '?', '?x=1', '?limit=1', '#frag', ';x', '/%2e%2e', '%2F', '%2Fprofile', '/:', '?%'];

export interface PathCase {
  method: Method;
  prefix: string;
  segments: Segment[];
  tail: string;
  /** A body for the methods that carry one. */
  body: 'none' | 'user' | 'empty-object' | 'bad-type';
  ifMatch: string | null;
}

export const pathCase: fc.Arbitrary<PathCase> = fc
  .record({
    method: fc.oneof({ weight: 3, arbitrary: fc.constant('GET' as Method) }, { weight: 7, arbitrary: fc.constantFrom(...METHODS) }),
    prefix: fc.oneof({ weight: 4, arbitrary: fc.constant('/users/') }, { weight: 1, arbitrary: fc.constantFrom(...ODD_PATH_PREFIXES) }),
    segments: fc.oneof({ weight: 2, arbitrary: segment.map((s) => [s]) }, { weight: 3, arbitrary: fc.array(segment, { maxLength: 5 }) }),
    tail: fc.oneof({ weight: 4, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom(...ODD_PATH_TAILS) }),
    body: fc.constantFrom('none' as const, 'user' as const, 'empty-object' as const, 'bad-type' as const),
    ifMatch,
  })
  .filter((c) => echoSafe(c.prefix + c.segments.map((s) => (s.t === 'lit' ? s.s : '')).join('') + c.tail));

/**
 * The path as Node's HTTP client can send it: it refuses characters outside
 * U+0021–U+00FF, so those (spaces, controls, anything non-Latin-1) are
 * percent-encoded as UTF-8; everything else, broken encodings included, is kept.
 */
export function sendable(path: string): string {
  return path.replace(/[^\u0021-\u00ff]/gu, (ch) => encodeURIComponent(ch.toWellFormed()));
}

export function renderSegment(segment: Segment, target: (index: number) => TargetUser): string {
  switch (segment.t) {
    case 'lit':
      return segment.s;
    case 'target': {
      const uid = target(segment.index).uid;
      return segment.upper ? uid.toUpperCase() : uid;
    }
    case 'lookup': {
      const user = target(segment.index);
      const value = segment.key === 'legacy_id' ? (user.legacy_ids[0] ?? 'no-legacy-id') : user[segment.key];
      const other = { username: '', email_address: '', legacy_ids: [] };
      const altered =
        segment.variant === 'upper' || segment.variant === 'fullwidth'
          ? takenValue('username', segment.variant, { targetUid: '', otherUid: '', other: { ...other, username: value } })
          : value;
      if (segment.variant === 'raw') return `${segment.key}:${altered}`;
      return `${segment.key}${segment.variant === 'encoded-colon' ? '%3A' : ':'}${encodeURIComponent(altered)}`;
    }
    case 'repeat':
      return segment.unit.repeat(segment.count);
  }
}

// ---------------------------------------------------------------------------
// Query strings of GET /users
// ---------------------------------------------------------------------------

export type CursorMode = 'real' | 'truncated' | 'flipped' | 'appended' | 'padded' | 'other-filters' | 'percent-encoded';

export type QueryValue =
  | { t: 'lit'; s: string }
  /** A cursor the server issued, or one derived from it; `n` picks the position altered. */
  | { t: 'cursor'; mode: CursorMode; n: number };

export interface QueryParam {
  name: string;
  /** `null`: the name without `=`. */
  value: QueryValue | null;
}

export interface QueryCase {
  prefix: string;
  params: QueryParam[];
  separator: string;
  tail: string;
}

const QUERY_NAMES = ['username', 'email_address', 'legacy_id', 'q', 'limit', 'cursor'];
const ODD_QUERY_NAMES = [
  'Limit', 'LIMIT', 'limit ', 'limit%20', 'lim%69t', '%71', 'q%00', 'q%', 'cursor[]', 'username[0]', 'limit[]', '__proto__', 'constructor', 'prototype', 'toString',
  'hasOwnProperty', 'valueOf', '', '=', 'offset', 'page', 'sort', 'uid', 'legacy_ids', 'email', 'filter', '%E2%80%8Bq', 'q%E2%80%8B', '%EF%BD%91', 'q.x', 'a+b', '%2B',
];
const BAD_LIMITS = ['0', '-1', '1001', '1e2', '01', '001', '0x10', 'abc', '10.0', '1.', ' 5', '5 ', '%205', '5%20', '+5', '%2B5', '100000000000000000000', '\u0661\u0660', '%D9%A1%D9%A0', 'NaN', 'Infinity', '1000', '999', '1', '2', '100'];

const percentBytes = fc.uint8Array({ minLength: 1, maxLength: 8 }).map((bytes) => Array.from(bytes, (b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join(''));
const base64Url = fc.string({ unit: fc.constantFrom(...(ASCII_LETTERS + DIGITS + '-_')), maxLength: 60 });

const queryValue: fc.Arbitrary<QueryValue> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<QueryValue>({ t: 'lit', s: '' }) },
  { weight: 4, arbitrary: fuzzText.map((s): QueryValue => ({ t: 'lit', s: encodeURIComponent(s.toWellFormed()) })) },
  { weight: 2, arbitrary: percentBytes.map((s): QueryValue => ({ t: 'lit', s })) },
  { weight: 2, arbitrary: fc.constantFrom(...BAD_LIMITS, ...PERCENT_PIECES).map((s): QueryValue => ({ t: 'lit', s })) },
  {
    weight: 1,
    arbitrary: fc
      .string({ unit: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...RAW_PATH_CHARS, '/', '?') }, { weight: 1, arbitrary: fc.constantFrom(...LATIN1_CHARS) }), maxLength: 12 })
      .map((s): QueryValue => ({ t: 'lit', s })),
  },
  { weight: 2, arbitrary: base64Url.map((s): QueryValue => ({ t: 'lit', s })) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('cursor' as const),
      mode: fc.constantFrom<CursorMode>('real', 'truncated', 'flipped', 'appended', 'padded', 'other-filters', 'percent-encoded'),
      n: fc.nat(),
    }),
  },
);

const queryParam: fc.Arbitrary<QueryParam> = fc.record({
  name: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...QUERY_NAMES) },
    { weight: 2, arbitrary: fc.constantFrom(...ODD_QUERY_NAMES) },
    { weight: 1, arbitrary: fuzzText.map((s) => encodeURIComponent(s.toWellFormed())) },
  ),
  value: fc.oneof({ weight: 9, arbitrary: queryValue }, { weight: 1, arbitrary: fc.constant(null) }),
});

export const queryCase: fc.Arbitrary<QueryCase> = fc
  .record({
    prefix: fc.oneof({ weight: 8, arbitrary: fc.constant('/users?') }, { weight: 1, arbitrary: fc.constantFrom('/users/?', '/users??', '/users?&', '/users/?limit=1&') }),
    params: fc.oneof({ weight: 3, arbitrary: fc.array(queryParam, { maxLength: 2 }) }, { weight: 1, arbitrary: fc.array(queryParam, { maxLength: 6 }) }).chain((params) =>
      // Sometimes repeat one parameter exactly.
      fc.oneof({ weight: 4, arbitrary: fc.constant(params) }, { weight: 1, arbitrary: fc.nat().map((i) => (params.length === 0 ? params : [...params, params[i % params.length] as QueryParam])) }),
    ),
    separator: fc.oneof({ weight: 8, arbitrary: fc.constant('&') }, { weight: 1, arbitrary: fc.constantFrom(';', '&&', '&amp;') }),
    tail: fc.oneof({ weight: 8, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('&', '#x', '=', '&=') }),
  })
  .filter((c) => echoSafe(c.params.map((p) => `${p.name}=${p.value?.t === 'lit' ? p.value.s : ''}`).join('&')));

/** Cursors the server issued: for the empty filter (limit 1), and for `q=user`. */
export interface Cursors {
  plain: string;
  forQ: string;
}

const BASE64URL = ASCII_LETTERS + DIGITS + '-_';

export function renderCursor(mode: CursorMode, n: number, cursors: Cursors): string {
  const c = cursors.plain;
  switch (mode) {
    case 'real':
      return c;
    case 'truncated':
      return c.slice(0, n % c.length);
    case 'flipped': {
      const i = n % c.length;
      const current = c[i] ?? 'A';
      const replacement = BASE64URL[(BASE64URL.indexOf(current) + 1 + (n % 63)) % BASE64URL.length] ?? 'A';
      return c.slice(0, i) + replacement + c.slice(i + 1);
    }
    case 'appended':
      return c + (BASE64URL[n % BASE64URL.length] ?? 'A');
    case 'padded':
      return `${c}=`;
    case 'other-filters':
      return cursors.forQ;
    case 'percent-encoded':
      return Array.from(c, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`).join('');
  }
}

export function renderQuery(q: QueryCase, cursors: Cursors): string {
  const params = q.params.map(({ name, value }) => {
    if (value === null) return name;
    return `${name}=${value.t === 'lit' ? value.s : renderCursor(value.mode, value.n, cursors)}`;
  });
  return sendable(q.prefix + params.join(q.separator) + q.tail);
}
