/**
 * The one mapping between a SCIM User (RFC 7643 §4.1, enterprise extension §4.3)
 * and the user resource (docs/scim.md, "Attribute map"). SCIM names are matched
 * case-insensitively (RFC 7643 §2.1). What the mapping cannot place is refused with
 * 400 `invalidValue`, never dropped, except what the RFC says a server ignores
 * (`id`, `meta`, `groups`: read-only) and `password`, which this directory accepts
 * and discards (it is not a credential store).
 *
 * `legacy_ids` and `attributes` have no SCIM attribute: a SCIM PUT keeps them as
 * they are. An empty string stands for an unassigned value (IdPs send `""` for an
 * empty source attribute). The primary email becomes `email_address` (the unique
 * key); without emails, a userName shaped like an email address is used.
 */
import { isEmailAddress } from '../users/user-formats.js';
import type { User } from '../users/user.js';
import { etagOf } from '../users/user-etag.js';
import { badRequest } from './scim-error.js';
import { isPlainObject, scimBoolean } from './patch/patch-values.js';
import { CORE_USER_SCHEMA as CORE_SCHEMA, ENTERPRISE_USER_SCHEMA as ENTERPRISE_SCHEMA } from './scim-user-schema.js';

type Json = Record<string, unknown>;

/** SCIM name → REST name, for the string attributes that map one to one. */
const CORE_STRINGS: Record<string, string> = {
  externalId: 'external_id',
  displayName: 'display_name',
  nickName: 'nick_name',
  title: 'title',
  userType: 'user_type',
  preferredLanguage: 'preferred_language',
  locale: 'locale',
  timezone: 'timezone',
};
const ENTERPRISE_STRINGS: Record<string, string> = {
  employeeNumber: 'employee_number',
  costCenter: 'cost_center',
  organization: 'organization',
  division: 'division',
  department: 'department',
};
const NAME_PARTS: Record<string, string> = {
  formatted: 'formatted',
  familyName: 'family_name',
  givenName: 'given_name',
  middleName: 'middle_name',
  honorificPrefix: 'honorific_prefix',
  honorificSuffix: 'honorific_suffix',
};
const ADDRESS_PARTS: Record<string, string> = {
  formatted: 'formatted',
  streetAddress: 'street_address',
  locality: 'locality',
  region: 'region',
  postalCode: 'postal_code',
  country: 'country',
  type: 'type',
  primary: 'primary',
};
/** Attributes a server ignores in a request (read-only), and the one it discards (write-only, never stored). */
const IGNORED = new Set(['schemas', 'id', 'meta', 'groups', 'password']);

const invert = (map: Record<string, string>) => Object.fromEntries(Object.entries(map).map(([k, v]) => [v, k]));
const REST_TO_CORE = invert(CORE_STRINGS);
const REST_TO_ENTERPRISE = invert(ENTERPRISE_STRINGS);
const REST_TO_NAME = invert(NAME_PARTS);
const REST_TO_ADDRESS = invert(ADDRESS_PARTS);

const LOWER_CORE_STRINGS = Object.fromEntries(Object.keys(CORE_STRINGS).map((k) => [k.toLowerCase(), k]));
/** RFC 7643 §2.5: null, an empty array and (from IdPs) an empty string are an unassigned value: nothing to store. */
const isUnassigned = (value: unknown) => value === null || value === '' || (Array.isArray(value) && value.length === 0);


/** The members of `object` keyed by their lower-cased names (SCIM names are case-insensitive). */
function byLowerName(object: Json): Map<string, [string, unknown]> {
  const out = new Map<string, [string, unknown]>();
  for (const [name, value] of Object.entries(object)) out.set(name.toLowerCase(), [name, value]);
  return out;
}

/** A string value: `""` and null are unassigned; anything else that is not a string is refused. */
function text(value: unknown, where: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string') throw badRequest('invalidValue', `${where} must be a string`);
  return value;
}


/** Copies `source`'s members named in `map` (case-insensitively) into `target` under their REST names; returns the names not in the map. */
function mapMembers(source: Json, map: Record<string, string>, target: Json, where: string, convert: (value: unknown, at: string) => unknown = text): string[] {
  const known = new Map(Object.entries(map).map(([scim, rest]) => [scim.toLowerCase(), [scim, rest] as const]));
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(source)) {
    const entry = known.get(name.toLowerCase());
    if (entry === undefined) unknown.push(`${where}${name}`);
    else {
      const converted = convert(value, `${where}${entry[0]}`);
      if (converted !== null) target[entry[1]] = converted;
    }
  }
  return unknown;
}

function list(value: unknown, where: string): Json[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw badRequest('invalidValue', `${where} must be an array`);
  return value.map((entry, i) => {
    if (!isPlainObject(entry)) throw badRequest('invalidValue', `${where}[${i}] must be an object`);
    return entry;
  });
}

/**
 * `{ value, type, primary }` entries (emails, phoneNumbers); `display` is accepted and not kept.
 * `value` is required in each entry, as /Schemas declares: an entry without one is refused, never dropped.
 */
function valueEntries(value: unknown, where: string, unknown: string[]): Json[] {
  return list(value, where).flatMap((entry, i) => {
    const out: Json = {};
    for (const [name, member] of Object.entries(entry)) {
      const lower = name.toLowerCase();
      if (lower === 'value' || lower === 'type') {
        const v = text(member, `${where}[${i}].${lower}`);
        if (v !== null) out[lower] = v;
      } else if (lower === 'primary') out.primary = scimBoolean(member, `${where}[${i}].primary`);
      else if (lower !== 'display') unknown.push(`${where}[${i}].${name}`);
    }
    if (out.value === undefined) throw badRequest('invalidValue', `${where}[${i}].value is required: each entry of ${where} needs a value.`);
    return [out];
  });
}

function primaryEmail(emails: Json[], userName: unknown): string {
  const chosen = emails.find((e) => e.primary === true) ?? emails.find((e) => typeof e.type === 'string' && e.type.toLowerCase() === 'work') ?? emails[0];
  if (chosen) return chosen.value as string;
  if (typeof userName === 'string' && isEmailAddress(userName)) return userName;
  throw badRequest('invalidValue', 'A user needs an email address: send emails (or a userName that is one).');
}

/**
 * The REST body (the shape of POST /users) a SCIM User describes. `active` is left
 * out when the resource does not say it, so a caller can keep the current state.
 */
export function restBodyOf(resource: unknown): Json {
  if (!isPlainObject(resource)) throw badRequest('invalidSyntax', 'The body must be a JSON object (a SCIM User).');
  const body: Json = {};
  const unknown: string[] = [];
  const members = byLowerName(resource);
  const schemas = members.get('schemas')?.[1];
  if (schemas !== undefined && (!Array.isArray(schemas) || !schemas.some((s) => typeof s === 'string' && s.toLowerCase() === CORE_SCHEMA.toLowerCase()))) {
    throw badRequest('invalidValue', `schemas must list ${CORE_SCHEMA}`);
  }
  for (const [lower, [name, value]] of members) {
    if (IGNORED.has(name) || IGNORED.has(lower)) continue;
    if (lower === 'username') body.username = value;
    else if (lower === 'active') {
      if (value !== null && value !== undefined) body.active = scimBoolean(value, 'active');
    } else if (lower === 'name') {
      if (value === null) continue;
      if (!isPlainObject(value)) throw badRequest('invalidValue', 'name must be an object');
      const name: Json = {};
      unknown.push(...mapMembers(value, NAME_PARTS, name, 'name.'));
      if (Object.keys(name).length > 0) body.name = name;
    } else if (lower === 'emails') body.emails = valueEntries(value, 'emails', unknown);
    else if (lower === 'phonenumbers') body.phone_numbers = valueEntries(value, 'phoneNumbers', unknown);
    else if (lower === 'addresses') {
      body.addresses = list(value, 'addresses').map((entry, i) => {
        const address: Json = {};
        unknown.push(...mapMembers(entry, ADDRESS_PARTS, address, `addresses[${i}].`, (v, at) => (at.endsWith('.primary') ? scimBoolean(v, at) : text(v, at))));
        return address;
      });
    } else if (lower === ENTERPRISE_SCHEMA.toLowerCase()) {
      if (value === null) continue;
      if (!isPlainObject(value)) throw badRequest('invalidValue', `${ENTERPRISE_SCHEMA} must be an object`);
      for (const [member, memberValue] of Object.entries(value)) {
        if (member.toLowerCase() === 'manager') {
          const manager = managerOf(memberValue);
          if (manager !== null) body.manager = manager;
        } else unknown.push(...mapMembers({ [member]: memberValue }, ENTERPRISE_STRINGS, body, `${ENTERPRISE_SCHEMA}:`));
      }
    } else if (!(lower in LOWER_CORE_STRINGS) && isUnassigned(value)) continue;
    else unknown.push(...mapMembers({ [name]: value }, CORE_STRINGS, body, ''));
  }
  if (unknown.length > 0) throw badRequest('invalidValue', `Attributes this service does not store: ${unknown.join(', ')}.`);
  const emails = (body.emails as Json[] | undefined) ?? [];
  body.email_address = primaryEmail(emails, body.username);
  if (emails.length === 0) delete body.emails;
  else body.emails = emails.map(({ primary: _derived, ...entry }) => entry);
  // RFC 7643 §2.4: `primary: true` appears no more than once per attribute.
  for (const [list, scimName] of [[emails, 'emails'], [body.phone_numbers, 'phoneNumbers'], [body.addresses, 'addresses']] as const) {
    if (((list as Json[] | undefined) ?? []).filter((entry) => entry.primary === true).length > 1) throw badRequest('invalidValue', `At most one of ${scimName} may be primary.`);
  }
  return body;
}

/** `manager` as Entra sends it (a plain id) or as the RFC says (`{ value, displayName, $ref }`). */
function managerOf(value: unknown): Json | null {
  if (value === null || value === '') return null;
  if (typeof value === 'string') return { value };
  if (!isPlainObject(value)) throw badRequest('invalidValue', 'manager must be an object with a value');
  const members = byLowerName(value);
  const id = text(members.get('value')?.[1], 'manager.value');
  if (id === null) return null;
  const displayName = text(members.get('displayname')?.[1], 'manager.displayName');
  return displayName === null ? { value: id } : { value: id, display_name: displayName };
}

/** REST members whose SCIM names the tables above do not give. */
const REST_TO_SCIM_OTHERS: Record<string, string> = { username: 'userName', email_address: 'emails', active: 'active', name: 'name', emails: 'emails', phone_numbers: 'phoneNumbers', addresses: 'addresses' };
const SUB_NAMES: Record<string, string> = { ...REST_TO_NAME, ...REST_TO_ADDRESS, display_name: 'displayName' };

/**
 * The SCIM path of a JSON pointer into the REST body a SCIM request was mapped to, for the
 * 400 that names what is wrong: `/name/given_name` is `name.givenName`, `/phone_numbers/0/value`
 * `phoneNumbers[0].value`, `/department` the enterprise extension's `department`.
 */
export function scimPathOf(pointer: string): string {
  const [member = '', ...rest] = pointer.split('/').slice(1);
  const enterprise = REST_TO_ENTERPRISE[member] ?? (member === 'manager' ? 'manager' : undefined);
  let path = enterprise !== undefined ? `${ENTERPRISE_SCHEMA}:${enterprise}` : (REST_TO_CORE[member] ?? REST_TO_SCIM_OTHERS[member] ?? member);
  for (const token of rest) path += /^[0-9]+$/.test(token) ? `[${token}]` : `.${SUB_NAMES[token] ?? token}`;
  return path;
}

function pickRenamed(source: Json, renames: Record<string, string>): Json {
  const out: Json = {};
  for (const [rest, scim] of Object.entries(renames)) if (source[rest] !== undefined && source[rest] !== null) out[scim] = source[rest];
  return out;
}

/**
 * The SCIM User of `user`; `locationOf(id)` is the URL of the User with that id (its
 * meta.location, and the manager's `$ref`).
 */
export function scimUserOf(user: User, locationOf: (id: string) => string): Json {
  const enterprise = pickRenamed(user as unknown as Json, REST_TO_ENTERPRISE);
  if (user.manager) {
    const { value, display_name: displayName } = user.manager;
    enterprise.manager = { value, $ref: locationOf(value), ...(displayName === undefined ? {} : { displayName }) };
  }
  const hasEnterprise = Object.keys(enterprise).length > 0;
  const core = pickRenamed(user as unknown as Json, REST_TO_CORE);
  return {
    schemas: hasEnterprise ? [CORE_SCHEMA, ENTERPRISE_SCHEMA] : [CORE_SCHEMA],
    id: user.uid,
    ...(core.externalId === undefined ? {} : { externalId: core.externalId }),
    userName: user.username,
    ...(user.name ? { name: pickRenamed(user.name as Json, REST_TO_NAME) } : {}),
    ...(core.displayName === undefined ? {} : { displayName: core.displayName }),
    ...Object.fromEntries(Object.entries(core).filter(([k]) => k !== 'externalId' && k !== 'displayName')),
    active: user.active,
    emails: user.emails.map((e) => ({ value: e.value, ...(e.type === undefined ? {} : { type: e.type }), primary: e.primary })),
    ...(user.phone_numbers.length ? { phoneNumbers: user.phone_numbers.map((p) => ({ value: p.value, ...(p.type === undefined ? {} : { type: p.type }), primary: p.primary })) } : {}),
    ...(user.addresses.length ? { addresses: user.addresses.map((a) => pickRenamed(a as unknown as Json, REST_TO_ADDRESS)) } : {}),
    ...(hasEnterprise ? { [ENTERPRISE_SCHEMA]: enterprise } : {}),
    meta: { resourceType: 'User', created: user.created_at, lastModified: user.updated_at, location: locationOf(user.uid), version: etagOf(user) },
  };
}
