/**
 * The structured profile of a user (CONTRACT §1, docs/api.md "Profile fields"):
 * the SCIM core and enterprise attributes identity providers send and directories
 * search on, as snake_case members of the user resource. TypeBox schemas in
 * profile-schemas.ts validate the shape; the rules a schema cannot state live here:
 * defaults, an empty `name` or `manager` becoming null, and how `emails` relates to
 * `email_address`.
 *
 * `email_address` is the unique key and the primary email. `emails` lists every
 * address of the user, the primary one always among them with `primary: true`
 * and the others `primary: false`: the flag is derived from `email_address`, never
 * taken from the input. A write whose `emails` lacks `email_address` gets it added
 * first; when `email_address` changes, the earlier primary stays in `emails` as a
 * secondary address until a write leaves it out. Entries are unique by their
 * canonical value (a repeated address keeps its first entry).
 */
import { canon } from './canonical.js';

export interface PersonName {
  formatted?: string;
  family_name?: string;
  given_name?: string;
  middle_name?: string;
  honorific_prefix?: string;
  honorific_suffix?: string;
}

export interface TypedEmail {
  value: string;
  type?: string;
  primary: boolean;
}

export interface PhoneNumber {
  value: string;
  type?: string;
  primary: boolean;
}

export interface PostalAddress {
  formatted?: string;
  street_address?: string;
  locality?: string;
  region?: string;
  postal_code?: string;
  country?: string;
  type?: string;
  primary: boolean;
}

export interface Manager {
  /** The manager's id as the writer gave it (a uid when written through SCIM by an IdP that resolved it). */
  value: string;
  display_name?: string;
}

export interface Profile {
  name: PersonName | null;
  nick_name: string | null;
  title: string | null;
  user_type: string | null;
  preferred_language: string | null;
  locale: string | null;
  timezone: string | null;
  emails: TypedEmail[];
  phone_numbers: PhoneNumber[];
  addresses: PostalAddress[];
  employee_number: string | null;
  cost_center: string | null;
  organization: string | null;
  division: string | null;
  department: string | null;
  manager: Manager | null;
}

/** Members of the profile in the order the resource lists them. */
export const PROFILE_KEYS = [
  'name',
  'nick_name',
  'title',
  'user_type',
  'preferred_language',
  'locale',
  'timezone',
  'emails',
  'phone_numbers',
  'addresses',
  'employee_number',
  'cost_center',
  'organization',
  'division',
  'department',
  'manager',
] as const satisfies readonly (keyof Profile)[];

export const NAME_KEYS = ['formatted', 'family_name', 'given_name', 'middle_name', 'honorific_prefix', 'honorific_suffix'] as const;
export const ADDRESS_KEYS = ['formatted', 'street_address', 'locality', 'region', 'postal_code', 'country'] as const;

/** What a profile member holds when absent from a create or a replacement. */
export function emptyProfile(): Profile {
  return {
    name: null,
    nick_name: null,
    title: null,
    user_type: null,
    preferred_language: null,
    locale: null,
    timezone: null,
    emails: [],
    phone_numbers: [],
    addresses: [],
    employee_number: null,
    cost_center: null,
    organization: null,
    division: null,
    department: null,
    manager: null,
  };
}

/** The profile members of a validated body (members absent take their defaults), `emails` derived as stated above. */
export interface ProfileInput {
  name?: PersonName | null;
  nick_name?: string | null;
  title?: string | null;
  user_type?: string | null;
  preferred_language?: string | null;
  locale?: string | null;
  timezone?: string | null;
  emails?: { value: string; type?: string; primary?: boolean }[] | null;
  phone_numbers?: { value: string; type?: string; primary?: boolean }[] | null;
  addresses?: (Omit<PostalAddress, 'primary'> & { primary?: boolean })[] | null;
  employee_number?: string | null;
  cost_center?: string | null;
  organization?: string | null;
  division?: string | null;
  department?: string | null;
  manager?: Manager | null;
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<T> {
  const out: Partial<T> = {};
  for (const key of keys) if (source[key] !== undefined && source[key] !== null) out[key] = source[key];
  return out;
}

/** A name with no member is no name. Members in a fixed order, so the stored text does not depend on the input's. */
function nameOf(name: PersonName | null | undefined): PersonName | null {
  if (!name) return null;
  const kept = pick(name, NAME_KEYS);
  return Object.keys(kept).length === 0 ? null : kept;
}

function typed<T extends { type?: string; primary?: boolean }>(entry: T): { type?: string } {
  return entry.type === undefined ? {} : { type: entry.type };
}

/** `emails` with `email_address` as its one primary entry (see the file's comment). */
export function derivedEmails(emailAddress: string, emails: readonly { value: string; type?: string }[]): TypedEmail[] {
  const primary = canon(emailAddress);
  const seen = new Set<string>();
  const out: TypedEmail[] = [];
  for (const entry of emails) {
    const key = canon(entry.value);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ value: key === primary ? emailAddress : entry.value, ...typed(entry), primary: key === primary });
  }
  if (!seen.has(primary)) out.unshift({ value: emailAddress, primary: true });
  return out;
}

export function toProfile(input: ProfileInput, emailAddress: string): Profile {
  return {
    name: nameOf(input.name),
    nick_name: input.nick_name ?? null,
    title: input.title ?? null,
    user_type: input.user_type ?? null,
    preferred_language: input.preferred_language ?? null,
    locale: input.locale ?? null,
    timezone: input.timezone ?? null,
    emails: derivedEmails(emailAddress, input.emails ?? []),
    phone_numbers: (input.phone_numbers ?? []).map((p) => ({ value: p.value, ...typed(p), primary: p.primary === true })),
    addresses: (input.addresses ?? []).map((a) => ({ ...pick(a, ADDRESS_KEYS), ...typed(a), primary: a.primary === true })),
    employee_number: input.employee_number ?? null,
    cost_center: input.cost_center ?? null,
    organization: input.organization ?? null,
    division: input.division ?? null,
    department: input.department ?? null,
    manager: input.manager ? { value: input.manager.value, ...(input.manager.display_name === undefined ? {} : { display_name: input.manager.display_name }) } : null,
  };
}

/**
 * The profile as its store column keeps it: members that differ from their defaults
 * only, so a user without a profile costs `{}`. profileFromColumn() restores it.
 */
export function profileColumn(profile: Profile): string {
  const kept: Record<string, unknown> = {};
  for (const key of PROFILE_KEYS) {
    const value = profile[key];
    if (value === null || (Array.isArray(value) && value.length === 0)) continue;
    kept[key] = value;
  }
  return JSON.stringify(kept);
}

/** The profile members of stored JSON text holding them (a stored representation, or a profile column); undefined for none stored. */
export function profileOfStoredJson(json: string | null | undefined): Partial<Profile> | undefined {
  if (json === null || json === undefined) return undefined;
  const stored = JSON.parse(json) as Record<string, unknown>;
  const profile: Record<string, unknown> = {};
  for (const key of PROFILE_KEYS) if (key in stored) profile[key] = stored[key];
  return profile as Partial<Profile>;
}

/** The profile a column holds; a row written before profiles existed derives its `emails` from `email_address`. */
export function profileFromColumn(stored: Partial<Profile> | undefined, emailAddress: string): Profile {
  const profile = { ...emptyProfile(), ...stored };
  if (profile.emails.length === 0) profile.emails = derivedEmails(emailAddress, []);
  return profile;
}
