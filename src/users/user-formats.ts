/**
 * String formats of CONTRACT §1 that a JSON Schema keyword cannot express on its
 * own (they depend on NFC or on the structure of an address). They are registered
 * as named formats on the request validator, so the TypeBox schemas stay the one
 * description of the input and the OpenAPI document names them.
 */

/** Unicode letters, combining marks, decimal digits and `. _ - @ +`; 1–64 code points after NFC. */
const USERNAME = /^[\p{L}\p{M}\p{Nd}._@+-]{1,64}$/u;

export function isUsername(value: string): boolean {
  return USERNAME.test(value.normalize('NFC'));
}

/** Dot-atom local part (RFC 5322 atext, plus non-ASCII letters per RFC 6531), no leading, trailing or double dot. */
const LOCAL_PART = /^[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u;
/** A DNS label (or its Unicode form): letters and digits, inner hyphens, at most 63. */
const DOMAIN_LABEL = /^[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}-]{0,61}[\p{L}\p{M}\p{N}])?$/u;

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
