/**
 * String formats of CONTRACT §1 that a JSON Schema keyword cannot express on its
 * own (they depend on NFC or on the structure of an address). They are registered
 * as named formats on the request validator, so the TypeBox schemas stay the one
 * description of the input and the OpenAPI document names them.
 */

/**
 * The alphabet of usernames, as a JSON Schema `pattern` (ECMA-262 with the `u`
 * flag): other validators can enforce it from the OpenAPI document.
 */
export const USERNAME_PATTERN = '^[\\p{L}\\p{M}\\p{Nd}._@+-]+$';

/** Unicode letters, combining marks, decimal digits and `. _ - @ +`; 1–64 code points after NFC. */
const USERNAME = /^[\p{L}\p{M}\p{Nd}._@+-]{1,64}$/u;

export function isUsername(value: string): boolean {
  return USERNAME.test(value.normalize('NFC'));
}

const ATOM = "[\\p{L}\\p{M}\\p{N}!#$%&'*+/=?^_`{|}~-]+";
/** Dot-atom local part (RFC 5322 atext, plus non-ASCII letters per RFC 6531), no leading, trailing or double dot. */
const LOCAL_PART_SOURCE = `${ATOM}(?:\\.${ATOM})*`;
/** A DNS label (or its Unicode form): letters and digits, inner hyphens, at most 63. */
const LABEL_SOURCE = '[\\p{L}\\p{M}\\p{N}](?:[\\p{L}\\p{M}\\p{N}-]{0,61}[\\p{L}\\p{M}\\p{N}])?';
const LOCAL_PART = new RegExp(`^${LOCAL_PART_SOURCE}$`, 'u');
const DOMAIN_LABEL = new RegExp(`^${LABEL_SOURCE}$`, 'u');

/**
 * The whole address as a JSON Schema `pattern`: a local part of at most 64
 * characters, `@`, and a domain of at least two labels. With `maxLength: 254`
 * it states the whole rule, so other validators enforce it too.
 */
export const EMAIL_ADDRESS_PATTERN = `^(?=.{1,64}@)${LOCAL_PART_SOURCE}@${LABEL_SOURCE}(?:\\.${LABEL_SOURCE})+$`;

/** What an email address must be, in words: a 400 and an import report say this, never the pattern above. */
export const EMAIL_ADDRESS_EXPECTED = 'an email address such as name@example.com (at most 254 characters, at most 64 before the @, a domain of at least two labels)';

/**
 * `local@domain`: at most 254 characters, local part at most 64, a domain of at
 * least two labels. Quoted local parts and address literals are not accepted:
 * no directory we migrate from issues them, and they cannot be canonicalised safely.
 */
export function isEmailAddress(value: string): boolean {
  if ([...value].length > 254) return false;
  const at = value.lastIndexOf('@');
  if (at <= 0) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if ([...local].length > 64 || !LOCAL_PART.test(local)) return false;
  const labels = domain.split('.');
  return labels.length >= 2 && labels.every((label) => DOMAIN_LABEL.test(label));
}

/**
 * 1–128 printable characters: no control or invisible format characters (zero
 * width spaces, bidi overrides, BOM: ids that look alike must not coexist under
 * exact matching), no line or paragraph separators, no leading or trailing white
 * space (spaces inside are allowed, as are colons and slashes). Compared exactly,
 * so it is stored as given.
 */
export const LEGACY_ID_PATTERN = '^(?!\\s)[^\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]+(?<!\\s)$';
const LEGACY_ID = /^(?![\s])[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]{1,128}(?<![\s])$/u;

export function isLegacyId(value: string): boolean {
  return LEGACY_ID.test(value);
}

/** Named formats for the validator: name → predicate. */
export const USER_FORMATS = {
  username: isUsername,
  'email-address': isEmailAddress,
  'legacy-id': isLegacyId,
} as const;
