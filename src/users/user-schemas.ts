/**
 * TypeBox schemas of the user resource: one per shape. They validate requests,
 * serialise responses and generate the OpenAPI document; nothing else restates them.
 * String formats named here are registered from user-formats.ts.
 */
import { Type, type Static } from 'typebox';

export const USERNAME_MAX = 64;
export const LEGACY_IDS_MAX = 100;
export const DISPLAY_NAME_MAX = 256;
/** Largest serialised `attributes` object, in bytes of UTF-8 (CONTRACT §1: 16 KiB). */
export const ATTRIBUTES_MAX_BYTES = 16 * 1024;

const Username = Type.String({
  format: 'username',
  minLength: 1,
  description: `1–${USERNAME_MAX} Unicode letters, combining marks, digits and \`. _ - @ +\` (counted after NFC). Unique case-insensitively (RFC 8265 UsernameCaseMapped).`,
  examples: ['alice'],
});

const EmailAddress = Type.String({
  format: 'email-address',
  minLength: 3,
  maxLength: 254,
  description: '`local@domain`, at most 254 characters (local part at most 64). Stored as given; unique case-insensitively over the whole address.',
  examples: ['Alice.Liddell+news@Example.com'],
});

const LegacyId = Type.String({
  format: 'legacy-id',
  minLength: 1,
  maxLength: 128,
  description: '1–128 printable characters (colons, slashes and inner spaces allowed). Matched exactly.',
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

const Uid = Type.String({
  format: 'uuid',
  description: 'Canonical ID: a lower-case UUIDv7 assigned by the service. Read-only.',
  examples: ['01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f'],
});

const Timestamp = Type.String({ format: 'date-time', description: 'RFC 3339 UTC with milliseconds. Read-only.' });
const Version = Type.Integer({ minimum: 1, description: '1 on create, +1 on every accepted write. Read-only.' });

const writableFields = {
  username: Username,
  email_address: EmailAddress,
  legacy_ids: Type.Optional(LegacyIds),
  legacy_id: Type.Optional(Type.String({ ...LegacyId, description: 'Shorthand for `legacy_ids: [value]`; not together with `legacy_ids`.' })),
  display_name: Type.Optional(DisplayName),
  attributes: Type.Optional(Attributes),
};

/** POST /users. Read-only fields are not accepted: the service assigns them. */
export const CreateUserBody = Type.Object(writableFields, {
  additionalProperties: false,
  description: 'A new user. Unknown fields are rejected, never dropped.',
});
export type CreateUserBody = Static<typeof CreateUserBody>;

/**
 * PUT /users/{uid}: full replacement of the writable fields. The read-only fields may
 * be sent back as read; `uid` must equal the path's, the others are ignored.
 */
export const ReplaceUserBody = Type.Object(
  {
    ...writableFields,
    uid: Type.Optional(Uid),
    created_at: Type.Optional(Type.String()),
    updated_at: Type.Optional(Type.String()),
    version: Type.Optional(Type.Integer()),
  },
  {
    additionalProperties: false,
    description: 'The user as it should be. Omitted optional fields reset to their defaults.',
  },
);
export type ReplaceUserBody = Static<typeof ReplaceUserBody>;

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
  { additionalProperties: false },
);
export type ImportUserRecord = Static<typeof ImportUserRecord>;

/** The user resource as every response carries it. */
export const UserResource = Type.Object(
  {
    uid: Uid,
    username: Username,
    email_address: EmailAddress,
    legacy_ids: LegacyIds,
    display_name: DisplayName,
    attributes: Attributes,
    created_at: Timestamp,
    updated_at: Timestamp,
    version: Version,
  },
  { $id: 'User', additionalProperties: false },
);

/** Responses reference the registered `User` schema (app.addSchema(UserResource)). */
export const UserResourceRef = Type.Ref('User');

export const UserList = Type.Array(UserResourceRef, { description: 'A page of users in uid order (maybe empty).' });

/** Values of the path segment after `/users/`: a uid, or `{key}:{value}`. */
export const UserRefParams = Type.Object({
  ref: Type.String({
    description: 'A uid, or `{key}:{value}` with key one of `uid`, `username`, `email_address`, `legacy_id`. Percent-encode the value (`/` as `%2F`, `%` as `%25`).',
  }),
});

export const SEARCH_LIMIT_MAX = 1000;
export const SEARCH_LIMIT_DEFAULT = 100;

const SearchParam = (description: string) => Type.String({ minLength: 1, description });

/** GET /users query. Unknown, repeated and empty parameters are rejected. */
export const SearchQuery = Type.Object(
  {
    username: Type.Optional(SearchParam('Exact username, compared case-insensitively.')),
    email_address: Type.Optional(SearchParam('Exact email address, compared case-insensitively.')),
    legacy_id: Type.Optional(SearchParam('Exact legacy id (case-sensitive).')),
    q: Type.Optional(SearchParam('Case-insensitive prefix of the username, email address or display name.')),
    limit: Type.Optional(
      Type.String({
        pattern: '^(?:[1-9][0-9]{0,2}|1000)$',
        description: `Page size, 1–${SEARCH_LIMIT_MAX}; default ${SEARCH_LIMIT_DEFAULT}.`,
      }),
    ),
    cursor: Type.Optional(SearchParam('Opaque; copy it from the `Link: rel="next"` URL.')),
  },
  { additionalProperties: false },
);
export type SearchQuery = Static<typeof SearchQuery>;
