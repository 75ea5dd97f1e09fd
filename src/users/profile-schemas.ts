/**
 * TypeBox schemas of the profile members of the user resource (user-profile.ts
 * states the rules they cannot). Three shapes: as written (create, replace, import),
 * as merge-patched (objects nullable and merged, arrays replaced) and as answered.
 */
import { Type, type TSchema } from 'typebox';
import { expecting } from '../validation-options.js';
import { EMAIL_ADDRESS_EXPECTED, EMAIL_ADDRESS_PATTERN } from './user-formats.js';

/** Longest value of a one-line profile string (a title, a department, a name part). */
export const PROFILE_TEXT_MAX = 256;
/** Most entries of `emails`, `phone_numbers` and `addresses`. */
export const PROFILE_LIST_MAX = 20;

const Text = (description: string, maxLength = PROFILE_TEXT_MAX) => Type.String({ minLength: 1, maxLength, description });
/** `schema` or null; the union carries a description (its own, else the value's) because a 400 for it quotes it. */
const Nullable = <T extends TSchema>(schema: T, description?: string) => {
  const text = description ?? (schema as { description?: string }).description;
  return Type.Union([schema, Type.Null()], text === undefined ? {} : { description: text });
};
const EntryType = Type.String({ minLength: 1, maxLength: 64, description: 'A label such as `work`, `home`, `mobile` or `other`.' });

/** A BCP 47 language tag as IdPs send them (`en`, `en-US`, `zh-Hant-TW`); `_` is accepted as in `en_US`. */
const LanguageTag = { pattern: '^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*$', ...expecting('a BCP 47 language tag such as en-US') };
/** An IANA time zone name (`Europe/Paris`, `America/Argentina/Buenos_Aires`, `UTC`). */
const TimeZone = { pattern: '^[A-Za-z][A-Za-z0-9_+-]*(?:/[A-Za-z0-9_+-]+)*$', ...expecting('an IANA time zone name such as Europe/Paris') };

const NameWritten = Type.Object(
  {
    formatted: Type.Optional(Text('The full name as displayed.')),
    family_name: Type.Optional(Text('Family name (surname).')),
    given_name: Type.Optional(Text('Given name (first name).')),
    middle_name: Type.Optional(Text('Middle name(s).')),
    honorific_prefix: Type.Optional(Text('Title before the name, such as `Dr.`.')),
    honorific_suffix: Type.Optional(Text('Suffix after the name, such as `III`.')),
  },
  { additionalProperties: false },
);

const EmailWritten = Type.Object(
  {
    value: Type.String({ format: 'email-address', minLength: 3, maxLength: 254, pattern: EMAIL_ADDRESS_PATTERN, ...expecting(EMAIL_ADDRESS_EXPECTED) }),
    type: Type.Optional(EntryType),
    primary: Type.Optional(Type.Boolean({ description: 'Derived: true for the entry equal to `email_address`. May be sent back as read; it is recomputed.' })),
  },
  { additionalProperties: false },
);

const PhoneWritten = Type.Object(
  {
    value: Type.String({ minLength: 1, maxLength: 64, pattern: '^[^\\p{Cc}]+$', ...expecting('a phone number without control characters, such as +15555550100'), description: 'As given, preferably E.164 (`+15555550100`).' }),
    type: Type.Optional(EntryType),
    primary: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const AddressWritten = Type.Object(
  {
    formatted: Type.Optional(Text('The full address as displayed (lines separated by newlines).', 1024)),
    street_address: Type.Optional(Text('Street, number, apartment (lines separated by newlines).', 1024)),
    locality: Type.Optional(Text('City or locality.')),
    region: Type.Optional(Text('State or region.')),
    postal_code: Type.Optional(Text('Postal code.', 32)),
    country: Type.Optional(Text('Country: ISO 3166-1 alpha-2 preferred.', 64)),
    type: Type.Optional(EntryType),
    primary: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const ManagerWritten = Type.Object(
  {
    value: Type.String({ minLength: 1, maxLength: 256, description: "The manager's id (SCIM `manager.value`): a uid when an IdP resolved it." }),
    display_name: Type.Optional(Text("The manager's name as the writer gave it.")),
  },
  { additionalProperties: false },
);

const list = <T extends TSchema>(item: T, description: string) => Type.Array(item, { maxItems: PROFILE_LIST_MAX, description });

const EMAILS_DESCRIPTION = `Every address of the user, at most ${PROFILE_LIST_MAX}. \`email_address\` is always among them, as the one \`primary\` entry (added first when missing); \`primary\` is derived, never taken from the input.`;

/** Scalar profile members: the same schema in every shape. */
const scalars = {
  nick_name: Text('Casual name.'),
  title: Text('Job title.'),
  user_type: Text('Relationship to the organisation, such as `Employee` or `Contractor`.'),
  preferred_language: Type.String({ minLength: 2, maxLength: 35, ...LanguageTag, description: 'A BCP 47 language tag (`en-US`).' }),
  locale: Type.String({ minLength: 2, maxLength: 35, ...LanguageTag, description: 'A BCP 47 language tag for formatting (`en-US`).' }),
  timezone: Type.String({ minLength: 1, maxLength: 64, ...TimeZone, description: 'An IANA time zone name (`Europe/Paris`).' }),
  employee_number: Text('Employee number (enterprise extension).'),
  cost_center: Text('Cost centre (enterprise extension).'),
  organization: Text('Organisation (enterprise extension).'),
  division: Text('Division (enterprise extension).'),
  department: Text('Department (enterprise extension).'),
};

const nullable = {
  nick_name: Nullable(scalars.nick_name),
  title: Nullable(scalars.title),
  user_type: Nullable(scalars.user_type),
  preferred_language: Nullable(scalars.preferred_language),
  locale: Nullable(scalars.locale),
  timezone: Nullable(scalars.timezone),
  employee_number: Nullable(scalars.employee_number),
  cost_center: Nullable(scalars.cost_center),
  organization: Nullable(scalars.organization),
  division: Nullable(scalars.division),
  department: Nullable(scalars.department),
};

/** The profile members of a create, replacement or import: each optional; null or absent is the default. */
export const profileWritten = {
  name: Type.Optional(Nullable(NameWritten, 'Name parts; null (the default) for none.')),
  nick_name: Type.Optional(nullable.nick_name),
  title: Type.Optional(nullable.title),
  user_type: Type.Optional(nullable.user_type),
  preferred_language: Type.Optional(nullable.preferred_language),
  locale: Type.Optional(nullable.locale),
  timezone: Type.Optional(nullable.timezone),
  emails: Type.Optional(list(EmailWritten, EMAILS_DESCRIPTION)),
  phone_numbers: Type.Optional(list(PhoneWritten, `Phone numbers, at most ${PROFILE_LIST_MAX}; at most one \`primary\`.`)),
  addresses: Type.Optional(list(AddressWritten, `Postal addresses, at most ${PROFILE_LIST_MAX}; at most one \`primary\`.`)),
  employee_number: Type.Optional(nullable.employee_number),
  cost_center: Type.Optional(nullable.cost_center),
  organization: Type.Optional(nullable.organization),
  division: Type.Optional(nullable.division),
  department: Type.Optional(nullable.department),
  manager: Type.Optional(Nullable(ManagerWritten, 'The manager; null (the default) for none.')),
};

const NamePatch = Type.Object(
  {
    formatted: Type.Optional(Nullable(NameWritten.properties.formatted)),
    family_name: Type.Optional(Nullable(NameWritten.properties.family_name)),
    given_name: Type.Optional(Nullable(NameWritten.properties.given_name)),
    middle_name: Type.Optional(Nullable(NameWritten.properties.middle_name)),
    honorific_prefix: Type.Optional(Nullable(NameWritten.properties.honorific_prefix)),
    honorific_suffix: Type.Optional(Nullable(NameWritten.properties.honorific_suffix)),
  },
  { additionalProperties: false },
);

const ManagerPatch = Type.Object(
  { value: Type.Optional(ManagerWritten.properties.value), display_name: Type.Optional(Nullable(ManagerWritten.properties.display_name)) },
  { additionalProperties: false },
);

/** The profile members of a merge patch: objects merge member by member, arrays are replaced whole, null resets. */
export const profilePatch = {
  ...profileWritten,
  name: Type.Optional(Nullable(NamePatch, 'Merged member by member; a member set to null is removed; null removes the name.')),
  emails: Type.Optional(Nullable(list(EmailWritten, EMAILS_DESCRIPTION))),
  phone_numbers: Type.Optional(Nullable(list(PhoneWritten, 'Replaces the whole list; null empties it.'))),
  addresses: Type.Optional(Nullable(list(AddressWritten, 'Replaces the whole list; null empties it.'))),
  manager: Type.Optional(Nullable(ManagerPatch, 'Merged member by member; null removes the manager.')),
};

/** The profile members as every response carries them: all present, null or [] when unset. */
export const profileAnswered = {
  name: Nullable(NameWritten),
  nick_name: nullable.nick_name,
  title: nullable.title,
  user_type: nullable.user_type,
  preferred_language: nullable.preferred_language,
  locale: nullable.locale,
  timezone: nullable.timezone,
  emails: Type.Array(Type.Object({ value: Type.String(), type: Type.Optional(Type.String()), primary: Type.Boolean() }, { additionalProperties: false }), { description: EMAILS_DESCRIPTION }),
  phone_numbers: Type.Array(Type.Object({ value: Type.String(), type: Type.Optional(Type.String()), primary: Type.Boolean() }, { additionalProperties: false })),
  addresses: Type.Array(Type.Object({ ...AddressWritten.properties, primary: Type.Boolean() }, { additionalProperties: false })),
  employee_number: nullable.employee_number,
  cost_center: nullable.cost_center,
  organization: nullable.organization,
  division: nullable.division,
  department: nullable.department,
  manager: Nullable(ManagerWritten),
};
