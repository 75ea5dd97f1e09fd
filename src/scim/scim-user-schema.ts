/**
 * The SCIM User schema this service supports: the core User (RFC 7643 §4.1) and
 * the enterprise extension (§4.3), restricted to the attributes the service
 * stores, plus the common attributes `id`, `externalId` and `meta` (§3.1) and
 * `schemas` (§3). One set of definitions serves three readers:
 *
 * - `userSchemaDocuments` renders the `GET /Schemas` resources (RFC 7643 §7,
 *   RFC 7644 §4). Common attributes are left out of them, as §3.1 and the
 *   §8.7.1 example do: they belong to every resource type, not to a schema.
 * - `userAttributes` is the `AttributeLookup` filters and PATCH paths resolve
 *   against (RFC 7644 §3.4.2.2, §3.5.2).
 * - `resolveAttribute` gives the canonical spelling of a path, with the
 *   definitions, for code that writes resources (PATCH).
 *
 * Names resolve case-insensitively (RFC 7643 §2.1). Core attributes resolve with
 * or without the core URN prefix; enterprise attributes only with theirs (or
 * relative to the URN-keyed object, `parent` = the URN), so `department` alone
 * is unknown: a bare name always means a core attribute.
 */
import type { AttrPath, AttributeDefinition, AttributeLookup } from './filter/filter-ast.js';

export const CORE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export type UserSchemaUrn = typeof CORE_USER_SCHEMA | typeof ENTERPRISE_USER_SCHEMA;

/** An attribute definition in the RFC 7643 §7 format. */
export interface ScimAttribute {
  readonly name: string;
  readonly type: AttributeDefinition['type'];
  readonly multiValued: boolean;
  readonly description: string;
  readonly required: boolean;
  readonly caseExact: boolean;
  readonly mutability: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  readonly returned: 'always' | 'never' | 'default' | 'request';
  readonly uniqueness: 'none' | 'server' | 'global';
  readonly subAttributes?: readonly ScimAttribute[];
  readonly canonicalValues?: readonly string[];
  /** RFC 7643 §7: required for `reference` attributes. */
  readonly referenceTypes?: readonly string[];
}

type Facts = Partial<Omit<ScimAttribute, 'name' | 'description'>>;

// The defaults are RFC 7643 §2.2's: a single-valued, optional, case-insensitive,
// read-write string returned by default, with no uniqueness.
const attr = (name: string, description: string, facts: Facts = {}): ScimAttribute => ({
  name,
  type: 'string',
  multiValued: false,
  description,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...facts,
});

const complex = (name: string, description: string, subAttributes: readonly ScimAttribute[], facts: Facts = {}) =>
  attr(name, description, { type: 'complex', subAttributes, ...facts });

const typeAttr = (label: string, canonicalValues: readonly string[]) =>
  attr('type', `A label indicating the ${label}'s function.`, { canonicalValues });
const primaryAttr = (label: string) =>
  attr('primary', `Whether this is the preferred ${label}; true on at most one value (RFC 7643 §2.4).`, { type: 'boolean' });

const multiComplex = (name: string, description: string, subAttributes: readonly ScimAttribute[]) =>
  complex(name, description, subAttributes, { multiValued: true });

export const CORE_USER_ATTRIBUTES: readonly ScimAttribute[] = [
  attr('userName', 'Unique identifier for the User, typically used by the user to directly authenticate to the service provider.', {
    required: true,
    uniqueness: 'server',
  }),
  complex('name', "The components of the user's real name.", [
    attr('formatted', 'The full name, including all middle names, titles, and suffixes as appropriate, formatted for display.'),
    attr('familyName', 'The family name of the User, or last name in most Western languages.'),
    attr('givenName', 'The given name of the User, or first name in most Western languages.'),
    attr('middleName', 'The middle name(s) of the User.'),
    attr('honorificPrefix', "The honorific prefix(es) of the User, or title in most Western languages (e.g., 'Ms.')."),
    attr('honorificSuffix', "The honorific suffix(es) of the User, or suffix in most Western languages (e.g., 'III')."),
  ]),
  attr('displayName', 'The name of the User, suitable for display to end-users.'),
  attr('nickName', 'The casual way to address the user in real life.'),
  attr('title', "The user's title, such as 'Vice President'."),
  attr('userType', 'Used to identify the relationship between the organization and the user.'),
  attr('preferredLanguage', "The User's preferred written or spoken language, as an RFC 7231 language tag."),
  attr('locale', "The User's default location for localizing items, as an RFC 5646 language tag."),
  attr('timezone', "The User's time zone in the 'Olson' time zone database format, e.g., 'America/Los_Angeles'."),
  attr('active', "A Boolean value indicating the User's administrative status.", { type: 'boolean' }),
  // Accepted so that IdPs which always send one are not refused; the service keeps no password.
  attr('password', "The User's cleartext password. Accepted and discarded: this service stores no password.", {
    mutability: 'writeOnly',
    returned: 'never',
  }),
  // Required here, unlike RFC 7643: the primary address is the directory's unique email_address key.
  complex(
    'emails',
    'Email addresses for the user. At least one is required (or a userName that is an email address): the primary one is the unique key email_address of the directory.',
    // `value` is what an entry is: an entry without one (`{"primary":true}`) is refused, as declared.
    [attr('value', 'Email address for the user. Required in every entry.', { required: true }), typeAttr('email', ['work', 'home', 'other']), primaryAttr('mailing address')],
    { multiValued: true, required: true },
  ),
  multiComplex('phoneNumbers', 'Phone numbers for the User.', [
    attr('value', 'Phone number of the User. Required in every entry.', { required: true }),
    typeAttr('phone number', ['work', 'home', 'mobile', 'fax', 'pager', 'other']),
    primaryAttr('phone number'),
  ]),
  multiComplex('addresses', 'A physical mailing address for this User.', [
    attr('formatted', 'The full mailing address, formatted for display or use with a mailing label.'),
    attr('streetAddress', 'The full street address component.'),
    attr('locality', 'The city or locality component.'),
    attr('region', 'The state or region component.'),
    attr('postalCode', 'The zip code or postal code component.'),
    attr('country', 'The country name component, as an ISO 3166-1 alpha-2 code.'),
    typeAttr('address', ['work', 'home', 'other']),
    primaryAttr('mailing address'),
  ]),
];

/** §3.1's common attributes and §3's `schemas`: top-level members of every User, in no schema document. */
export const COMMON_ATTRIBUTES: readonly ScimAttribute[] = [
  attr('id', 'A unique identifier for the resource, assigned by the service provider.', {
    caseExact: true,
    mutability: 'readOnly',
    returned: 'always',
    uniqueness: 'server',
  }),
  attr('externalId', 'An identifier for the resource as defined by the provisioning client.', { caseExact: true }),
  attr('schemas', 'The URIs of the schemas the resource conforms to.', {
    type: 'reference',
    referenceTypes: ['uri'],
    multiValued: true,
    caseExact: true,
    mutability: 'readOnly',
    returned: 'always',
  }),
  complex(
    'meta',
    'Resource metadata.',
    [
      attr('resourceType', 'The name of the resource type of the resource.', { caseExact: true, mutability: 'readOnly' }),
      attr('created', 'When the resource was added to the service provider.', { type: 'dateTime', mutability: 'readOnly' }),
      attr('lastModified', 'When the resource was last modified.', { type: 'dateTime', mutability: 'readOnly' }),
      attr('location', 'The URI of the resource being returned.', {
        type: 'reference',
        referenceTypes: ['uri'],
        caseExact: true,
        mutability: 'readOnly',
      }),
      attr('version', 'The version (ETag) of the resource being returned.', { caseExact: true, mutability: 'readOnly' }),
    ],
    { mutability: 'readOnly' },
  ),
];

export const ENTERPRISE_USER_ATTRIBUTES: readonly ScimAttribute[] = [
  attr('employeeNumber', 'Numeric or alphanumeric identifier assigned to a person, typically based on order of hire or association with an organization.'),
  attr('costCenter', 'Identifies the name of a cost center.'),
  attr('organization', 'Identifies the name of an organization.'),
  attr('division', 'Identifies the name of a division.'),
  attr('department', 'Identifies the name of a department.'),
  complex('manager', "The User's manager: a reference to the 'id' of another User.", [
    // It holds a User's `id`, which is case-exact.
    attr('value', "The id of the SCIM resource representing the User's manager.", { caseExact: true }),
    // Derived from `value` (the manager's SCIM location, as meta.location is made), so never
    // stale: read-only, returned with the manager, and ignored in a POST or PUT (RFC 7644 §3.3).
    attr('$ref', "The URI of the SCIM resource representing the User's manager: built by the service from value; read-only.", {
      type: 'reference',
      referenceTypes: ['User'],
      caseExact: true,
      mutability: 'readOnly',
    }),
    attr('displayName', "The displayName of the User's manager.", { mutability: 'readOnly' }),
  ]),
];

const SCHEMA_DOCUMENTS = [
  { id: CORE_USER_SCHEMA, name: 'User', description: 'User Account', attributes: CORE_USER_ATTRIBUTES },
  { id: ENTERPRISE_USER_SCHEMA, name: 'EnterpriseUser', description: 'Enterprise User', attributes: ENTERPRISE_USER_ATTRIBUTES },
] as const;

/** The `GET /Schemas` resources; `baseUrl` is the SCIM base, e.g. `https://host/scim/v2`. */
export function userSchemaDocuments(baseUrl: string): object[] {
  const base = baseUrl.replace(/\/+$/, '');
  return SCHEMA_DOCUMENTS.map((schema) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    ...schema,
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${schema.id}` },
  }));
}

const byLowerName = (attributes: readonly ScimAttribute[]) => new Map(attributes.map((a) => [a.name.toLowerCase(), a]));
const CORE_INDEX = byLowerName([...CORE_USER_ATTRIBUTES, ...COMMON_ATTRIBUTES]);
const ENTERPRISE_INDEX = byLowerName(ENTERPRISE_USER_ATTRIBUTES);
const SCHEMA_INDEX = new Map<string, { urn: UserSchemaUrn; attributes: Map<string, ScimAttribute> }>([
  [CORE_USER_SCHEMA.toLowerCase(), { urn: CORE_USER_SCHEMA, attributes: CORE_INDEX }],
  [ENTERPRISE_USER_SCHEMA.toLowerCase(), { urn: ENTERPRISE_USER_SCHEMA, attributes: ENTERPRISE_INDEX }],
]);

/** The canonical URN of a schema this service supports, for `text` in any case; undefined otherwise. */
export function userSchemaUrn(text: string): UserSchemaUrn | undefined {
  return SCHEMA_INDEX.get(text.toLowerCase())?.urn;
}

/** An attribute path in canonical spelling, with the definitions it names. */
export interface ResolvedAttribute {
  /** Where the value lives: the core schema's are (like the common attributes) top-level members, the enterprise ones are members of the object keyed by its URN. */
  schema: UserSchemaUrn;
  name: string;
  sub?: string;
  attribute: ScimAttribute;
  subAttribute?: ScimAttribute;
}

/** Splits `[urn:…:]attr[.sub]` as written; undefined if it has more than one dot or a URN this service does not know. */
function splitPath(text: string): AttrPath | undefined {
  let uri: string | undefined;
  let rest = text;
  for (const urn of SCHEMA_INDEX.keys()) {
    if (text.toLowerCase().startsWith(`${urn}:`)) {
      uri = text.slice(0, urn.length);
      rest = text.slice(urn.length + 1);
    }
  }
  const [name, sub, more] = rest.split('.');
  if (name === undefined || name === '' || sub === '' || more !== undefined) return undefined;
  return { ...(uri === undefined ? {} : { uri }), attr: name, ...(sub === undefined ? {} : { sub }) };
}

/**
 * The canonical spelling of a path (`{ schema, name, sub? }`, plus definitions),
 * or undefined if it names no attribute of the User. A string is read as an
 * attribute path without value filter: `userName`, `name.givenName`,
 * `urn:…:enterprise:2.0:User:manager.value`. `inSchema` resolves a URN-less path
 * inside that schema's URN-keyed object.
 */
export function resolveAttribute(path: string | AttrPath, inSchema?: UserSchemaUrn): ResolvedAttribute | undefined {
  const split = typeof path === 'string' ? splitPath(path) : path;
  if (split === undefined) return undefined;
  const schemaKey = (split.uri ?? inSchema ?? CORE_USER_SCHEMA).toLowerCase();
  if (split.uri !== undefined && inSchema !== undefined && schemaKey !== inSchema.toLowerCase()) return undefined;
  const schema = SCHEMA_INDEX.get(schemaKey);
  const attribute = schema?.attributes.get(split.attr.toLowerCase());
  if (schema === undefined || attribute === undefined) return undefined;
  if (split.sub === undefined) return { schema: schema.urn, name: attribute.name, attribute };
  const subAttribute = subAttributeOf(attribute, split.sub);
  if (subAttribute === undefined) return undefined;
  return { schema: schema.urn, name: attribute.name, sub: subAttribute.name, attribute, subAttribute };
}

/** The sub-attribute `name` (any case) of a complex attribute, or undefined. */
export function subAttributeOf(attribute: ScimAttribute, name: string): ScimAttribute | undefined {
  const lower = name.toLowerCase();
  return attribute.subAttributes?.find((s) => s.name.toLowerCase() === lower);
}

/** The complex attribute of this name, in any case (names are unique across the two schemas). */
function complexAttributeNamed(name: string): ScimAttribute | undefined {
  const lower = name.toLowerCase();
  const found = CORE_INDEX.get(lower) ?? ENTERPRISE_INDEX.get(lower);
  return found?.type === 'complex' ? found : undefined;
}

const definition = (name: string, subName: string | undefined, a: ScimAttribute, multiValued: boolean): AttributeDefinition => ({
  name,
  ...(subName === undefined ? {} : { subName }),
  type: a.type,
  caseExact: a.caseExact,
  multiValued,
});

/**
 * The `AttributeLookup` for Users. `parent` is either the canonical name of a
 * complex attribute (paths inside `emails[…]` name its sub-attributes: `type`
 * yields `{ name: 'emails', subName: 'type' }`; a URN is ignored there, as the
 * evaluator ignores it) or a schema URN (paths inside the URN-keyed object).
 * `multiValued` is true for a sub-attribute of a multi-valued attribute reached
 * from the resource (`emails.value`: the resource holds several), false for one
 * reached from a member.
 */
export const userAttributes: AttributeLookup = {
  resolve(path: AttrPath, parent?: string): AttributeDefinition | undefined {
    const parentSchema = parent === undefined ? undefined : userSchemaUrn(parent);
    if (parent !== undefined && parentSchema === undefined) {
      const container = complexAttributeNamed(parent);
      if (container === undefined || path.sub !== undefined) return undefined;
      const sub = subAttributeOf(container, path.attr);
      return sub && definition(container.name, sub.name, sub, false);
    }
    const resolved = resolveAttribute(path, parentSchema);
    if (resolved === undefined) return undefined;
    const { attribute, subAttribute } = resolved;
    return subAttribute === undefined
      ? definition(resolved.name, undefined, attribute, attribute.multiValued)
      : definition(resolved.name, resolved.sub, subAttribute, attribute.multiValued || subAttribute.multiValued);
  },
};
