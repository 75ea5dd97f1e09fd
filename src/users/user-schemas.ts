/**
 * TypeBox schemas of the user resource: one per shape. They validate requests,
 * serialise responses and generate the OpenAPI document; nothing else restates them.
 * String formats named here are registered from user-formats.ts.
 */
import { Type, type Static, type TOptional, type TString } from 'typebox';
import { FACETS, SORT_FIELDS, type Facet } from './user-vocabulary.js';
import { QUERY_WORDS_MAX } from './search-words.js';
import { named } from '../http/openapi/api-document.js';
import { LINKED_PARAMETER_MAX } from '../http/link-query.js';
import { expecting } from '../validation-options.js';
import { EMAIL_ADDRESS_EXPECTED, EMAIL_ADDRESS_PATTERN, LEGACY_ID_PATTERN, USERNAME_PATTERN } from './user-formats.js';
import { profileAnswered, profilePatch, profileWritten } from './profile-schemas.js';

export const USERNAME_MAX = 64;
/**
 * Longest username as sent: 64 characters after NFC are at most 256 code points in
 * any normalisation form (a canonical decomposition is at most four code points),
 * so this bound never refuses a valid username; the `username` format counts after NFC.
 */
const USERNAME_MAX_AS_SENT = 4 * USERNAME_MAX;
export const LEGACY_IDS_MAX = 100;
export const DISPLAY_NAME_MAX = 256;
/** Largest serialised `attributes` object, in bytes of UTF-8 (CONTRACT §1: 16 KiB). */
export const ATTRIBUTES_MAX_BYTES = 16 * 1024;

const Username = Type.String({
  format: 'username',
  minLength: 1,
  maxLength: USERNAME_MAX_AS_SENT,
  pattern: USERNAME_PATTERN,
  ...expecting(`1–${USERNAME_MAX} Unicode letters, combining marks, digits and . _ - @ + (such as alice)`),
  description: `1–${USERNAME_MAX} Unicode letters, combining marks, digits and \`. _ - @ +\` (counted after NFC; at most ${USERNAME_MAX_AS_SENT} code points as sent). Unique case-insensitively (RFC 8265 UsernameCaseMapped).`,
  examples: ['alice'],
});

const EmailAddress = Type.String({
  format: 'email-address',
  minLength: 3,
  maxLength: 254,
  pattern: EMAIL_ADDRESS_PATTERN,
  ...expecting(EMAIL_ADDRESS_EXPECTED),
  description: '`local@domain`, at most 254 characters (local part at most 64, a dot-atom; a domain of at least two labels). Stored as given; unique case-insensitively over the whole address.',
  examples: ['Alice.Liddell+news@Example.com'],
});

const LegacyId = Type.String({
  format: 'legacy-id',
  minLength: 1,
  maxLength: 128,
  pattern: LEGACY_ID_PATTERN,
  ...expecting('1–128 printable characters with no control or format characters and no leading or trailing space (such as crm:77)'),
  description: '1–128 printable characters (colons, slashes and inner spaces allowed; no control or format characters, no leading or trailing space). Matched exactly.',
  examples: ['crm:77'],
});

const LegacyIds = Type.Array(LegacyId, {
  maxItems: LEGACY_IDS_MAX,
  uniqueItems: true,
  description: `At most ${LEGACY_IDS_MAX} identifiers from earlier systems; each belongs to at most one user. Default \`[]\`.`,
});

const DisplayName = Type.Union([Type.String({ maxLength: DISPLAY_NAME_MAX }), Type.Null()], {
  description: `At most ${DISPLAY_NAME_MAX} characters, or null. Default null.`,
});

const Attributes = Type.Object({}, {
  additionalProperties: true,
  description: 'Free-form JSON object, at most 16 KiB serialised. Default `{}`.',
  examples: [{ department: 'R&D' }],
});

const ExternalId = Type.Union(
  [
    Type.String({
      format: 'legacy-id',
      minLength: 1,
      maxLength: 256,
      pattern: LEGACY_ID_PATTERN,
      // The legacy-id format counts at most 128 code points: the sentence says what is enforced.
      ...expecting('1–128 printable characters with no control or format characters and no leading or trailing space'),
      description: 'Printable characters, matched exactly.',
    }),
    Type.Null(),
  ],
  {
    description:
      "The provisioning client's id for the user (SCIM `externalId`): unique across users and matched exactly, like a legacy id; null (the default) when none. Separate from `legacy_ids`: an identity provider owns it and may change it.",
    examples: ['00u1a2b3c4D5e6F7g8h9'],
  },
);

const Active = Type.Boolean({
  description: 'false: deprovisioned. The user stays readable by uid and every key, keeps its keys and appears in search unless filtered by `active`. Default true.',
});

export const Uid = Type.String({
  format: 'uuid',
  ...expecting('a UUID such as 01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f'),
  description: 'Canonical ID: a lower-case UUIDv7 assigned by the service. Read-only.',
  examples: ['01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f'],
});

export const Timestamp = Type.String({ format: 'date-time', ...expecting('an RFC 3339 date-time such as 2026-11-21T10:00:00.000Z'), description: 'RFC 3339 UTC with milliseconds. Read-only.' });
export const Version = Type.Integer({ minimum: 1, description: '1 on create, +1 on every accepted write. Read-only.' });

const writableFields = {
  username: Username,
  email_address: EmailAddress,
  legacy_ids: Type.Optional(LegacyIds),
  legacy_id: Type.Optional(Type.String({ ...LegacyId, description: 'Shorthand for `legacy_ids: [value]`; not together with `legacy_ids`.' })),
  external_id: Type.Optional(ExternalId),
  active: Type.Optional(Active),
  display_name: Type.Optional(DisplayName),
  ...profileWritten,
  attributes: Type.Optional(Attributes),
};

/** `legacy_id` is shorthand for `legacy_ids: [value]`; sending both is refused. */
const NOT_BOTH_LEGACY_FORMS = { not: { required: ['legacy_id', 'legacy_ids'], properties: { legacy_id: {}, legacy_ids: {} } } };

/** POST /users. Read-only fields are not accepted: the service assigns them. */
export const CreateUserBody = named('UserCreate', Type.Object(writableFields, {
  additionalProperties: false,
  ...NOT_BOTH_LEGACY_FORMS,
  description: 'A new user. Unknown fields are rejected, never dropped.',
  examples: [{ username: 'alice', email_address: 'Alice.Liddell+news@Example.com', legacy_ids: ['A-1001', 'crm:77'], display_name: 'Alice Liddell', attributes: { department: 'R&D' } }],
}));
export type CreateUserBody = Static<typeof CreateUserBody>;

/**
 * PUT /users/{uid}: full replacement of the writable fields. The read-only fields may
 * be sent back as read; `uid` must equal the path's, the others are ignored.
 */
export const ReplaceUserBody = named('UserReplacement', Type.Object(
  {
    ...writableFields,
    uid: Type.Optional(Uid),
    created_at: Type.Optional(Type.String()),
    updated_at: Type.Optional(Type.String()),
    version: Type.Optional(Type.Integer()),
  },
  {
    additionalProperties: false,
    ...NOT_BOTH_LEGACY_FORMS,
    description: 'The user as it should be. Omitted optional fields reset to their defaults. Read-only fields may be sent back as read: `uid` must equal the path\'s, the others are ignored.',
    examples: [{ username: 'alice', email_address: 'alice@example.com', legacy_id: 'A-1001' }],
  },
));
export type ReplaceUserBody = Static<typeof ReplaceUserBody>;

/**
 * PATCH /users/{uid}: a JSON Merge Patch (RFC 7396) of the user's writable fields.
 * `null` removes an optional field (display_name, legacy_ids, attributes, or one
 * attribute); objects merge recursively; arrays are replaced whole. The patched
 * user is then validated exactly as a PUT body. Read-only fields are refused.
 */
export const UserPatch = named(
  'UserPatch',
  Type.Object(
    {
      username: Type.Optional(Username),
      email_address: Type.Optional(EmailAddress),
      legacy_ids: Type.Optional(Type.Union([LegacyIds, Type.Null()], { description: 'Replaces the whole list; null empties it.' })),
      external_id: Type.Optional(ExternalId),
      active: Type.Optional(Active),
      display_name: Type.Optional(DisplayName),
      ...profilePatch,
      attributes: Type.Optional(
        Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
          description: 'Merged into the attributes member by member (recursively); a member set to null is removed; null empties them.',
        }),
      ),
    },
    {
      additionalProperties: false,
      description: 'The members to change. `{}` changes nothing (the version stays).',
      examples: [{ display_name: 'Alice L.', attributes: { department: null, team: 'Identity' } }],
    },
  ),
);
export type UserPatch = Static<typeof UserPatch>;

/**
 * One record of an import file: a new user, or a user as exported (its uid,
 * timestamps and version are then kept, so an export re-imported gives the same users).
 */
export const ImportUserRecord = Type.Object(
  {
    ...writableFields,
    uid: Type.Optional(Uid),
    created_at: Type.Optional(Timestamp),
    updated_at: Type.Optional(Timestamp),
    version: Type.Optional(Version),
  },
  { additionalProperties: false, ...NOT_BOTH_LEGACY_FORMS },
);
export type ImportUserRecord = Static<typeof ImportUserRecord>;

/** The user resource as every response carries it. */
export const UserResource = Type.Object(
  {
    uid: Uid,
    username: Username,
    email_address: EmailAddress,
    legacy_ids: LegacyIds,
    external_id: ExternalId,
    active: Active,
    display_name: DisplayName,
    ...profileAnswered,
    attributes: Attributes,
    created_at: Timestamp,
    updated_at: Timestamp,
    version: Version,
  },
  { $id: 'User', additionalProperties: false },
);

/** Responses reference the registered `User` schema (app.addSchema(UserResource)). */
export const UserResourceRef = Type.Ref('User');

export const UserList = Type.Array(UserResourceRef, { description: 'A page of users in the order of the search (maybe empty).' });

/** Values of the path segment after `/users/` as GET and HEAD take it: a uid, or `{key}:{value}`. */
export const UserRefParams = Type.Object({
  ref: Type.String({
    maxLength: 2048,
    description:
      'A uid, or `{key}:{value}` with key one of `uid`, `username`, `email_address`, `legacy_id`. The segment is percent-decoded once and split at its first colon; percent-encode `/` as `%2F`, `%` as `%25`, `?` as `%3F`, `#` as `%23`. A `+` is a literal plus. At most 2048 characters after decoding (else 414).',
    examples: ['01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f', 'uid:01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f', 'username:alice', 'email_address:alice.liddell+news@example.com', 'legacy_id:crm:77'],
  }),
});

/**
 * The same path segment as PUT, PATCH and DELETE take it: a uid only. A `{key}:{value}`
 * still reaches the route and is answered 405 (CONTRACT §2), so the schema does not
 * narrow the value; it describes what the write methods accept.
 */
export const UserUidParams = Type.Object({
  ref: Type.String({
    maxLength: 2048,
    description:
      'The uid of the user. Only the canonical path takes this method: `/users/{key}:{value}` (also `uid:…`) answers 405 with `Allow: GET, HEAD`. An unknown or malformed uid is a 404.',
    examples: ['01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f'],
  }),
});

export const SEARCH_LIMIT_MAX = 1000;
export const SEARCH_LIMIT_DEFAULT = 100;

/** A text filter: a link to the next page repeats it, so it is bounded (http/link-query.ts). */
const SearchParam = (description: string) => Type.String({ minLength: 1, maxLength: LINKED_PARAMETER_MAX, description });

/** `count=true` is exact when a condition of the search names at most this many users (store/user-store.ts countMatches()). */
export const COUNT_BOUND = 10_000;

/** Fields `sort` accepts. */
const SORTABLE = SORT_FIELDS.filter((field) => field !== 'uid');

const INSTANT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?([Zz]|[+-]\\d{2}:\\d{2})$';
const InstantParam = (description: string) =>
  Type.String({ pattern: INSTANT_PATTERN, ...expecting('an RFC 3339 date-time with a time zone, such as 2026-01-31T12:00:00Z'), description, examples: ['2026-01-31T12:00:00Z'] });

/** One filter per facet (user-vocabulary.ts FACETS), named as the profile member. */
function facetParams() {
  const described: Record<Facet, string> = {
    department: 'Department',
    title: 'Title',
    organization: 'Organization',
    division: 'Division',
    cost_center: 'Cost center',
    employee_number: 'Employee number',
    user_type: 'User type',
    manager: "Manager's id (`manager.value`)",
  };
  return Object.fromEntries(FACETS.map((facet) => [facet, Type.Optional(SearchParam(`${described[facet]} equal to this, compared case-insensitively.`))])) as {
    [F in Facet]: TOptional<TString>;
  };
}

/** GET /users query. Unknown, repeated and empty parameters are rejected. */
export const SearchQuery = Type.Object(
  {
    username: Type.Optional(SearchParam('Exact username, compared case-insensitively.')),
    email_address: Type.Optional(SearchParam('Exact email address, compared case-insensitively.')),
    legacy_id: Type.Optional(SearchParam('Exact legacy id (case-sensitive).')),
    external_id: Type.Optional(SearchParam('Exact external id (case-sensitive).')),
    active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: '`true` or `false`: only active or only deactivated users.' })),
    q: Type.Optional(
      SearchParam(
        `Words, each the start of a word of the display name, the given or family name, the username or the email address's local part; case, accents and apostrophes are ignored (docs/api.md, "Search"). A username or email address equal to \`q\` comes first. At most ${QUERY_WORDS_MAX} distinct words.`,
      ),
    ),
    ...facetParams(),
    created_after: Type.Optional(InstantParam('Only users created at or after this instant.')),
    created_before: Type.Optional(InstantParam('Only users created before this instant.')),
    updated_since: Type.Optional(InstantParam('Only users changed at or after this instant (delta syncs: pass the time of the previous sync).')),
    updated_before: Type.Optional(InstantParam('Only users changed before this instant.')),
    sort: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        pattern: `^-?(${SORTABLE.join('|')})(,-?(${SORTABLE.join('|')})){0,2}$`,
        ...expecting(`up to three of ${SORTABLE.join(', ')}, separated by commas, each optionally preceded by - for descending order`),
        description: `Up to three sort fields, comma-separated, \`-\` for descending: ${SORTABLE.map((f) => `\`${f}\``).join(', ')}. Text compares folded (case and accents ignored), by code point; an absent name sorts as empty, first. Ties are broken by uid in the direction of the last field. Default: uid.`,
        examples: ['family_name,given_name', '-created_at'],
      }),
    ),
    count: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        description: `\`true\`: the \`Total-Count\` header gives how many users match: exact when the directory holds at most ${COUNT_BOUND.toLocaleString('en')} users or an indexed condition names at most that many (docs/api.md, "Counting"), else an estimate marked \`; estimate\`.`,
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: SEARCH_LIMIT_MAX,
        description: `Page size, 1–${SEARCH_LIMIT_MAX}; default ${SEARCH_LIMIT_DEFAULT}. Written in plain decimal: \`007\`, \`+7\`, \`7.0\` and \`1e2\` are refused.`,
      }),
    ),
    // Not bounded as a filter: a link writes its own cursor, never the one it was sent.
    cursor: Type.Optional(Type.String({ minLength: 1, description: 'Opaque; copy it from the `Link: rel="next"` URL.' })),
  },
  { additionalProperties: false },
);
export type SearchQuery = Static<typeof SearchQuery>;
