/**
 * The one canonical form used for case-insensitive keys (username, email address)
 * and for the `q` search prefix. It follows the UsernameCaseMapped profile of
 * RFC 8265 §3.3: width mapping (RFC 8264 §9.2), then case mapping to lower case
 * (Unicode default case mapping, never locale-dependent), then NFC.
 *
 * The service computes it; the database only compares canonical strings
 * byte-for-byte, so every store agrees (SQLite's NOCASE folds ASCII only).
 */

/**
 * Code points whose Unicode decomposition is tagged <wide> or <narrow>
 * (U+3000, the Halfwidth and Fullwidth Forms block, U+FFE0–U+FFEE).
 * RFC 8264 §9.2 maps each of them to its decomposition, which NFKC of the
 * single code point yields.
 */
const WIDTH_VARIANT = /[\u3000\uFF01-\uFF60\uFF61-\uFFDC\uFFE0-\uFFE6\uFFE8-\uFFEE]/gu;

const ASCII = /^[\x00-\x7f]*$/;

function widthMap(value: string): string {
  return value.replace(WIDTH_VARIANT, (ch) => ch.normalize('NFKC'));
}

function mapOnce(value: string): string {
  return widthMap(value).toLowerCase().normalize('NFC');
}

/**
 * Canonical form of a case-insensitive key. Idempotent: canon(canon(x)) === canon(x).
 * One pass reaches the fixed point for all but a handful of exotic sequences
 * (where NFC composes something that lower-cases again); repeating the mapping
 * until it no longer changes makes idempotence hold by construction.
 */
export function canon(value: string): string {
  // ASCII alone: width mapping and NFC leave it as it is, and lower case is already the fixed
  // point (most keys are ASCII; the mapping below costs an import about 4 % of its CPU).
  if (ASCII.test(value)) return value.toLowerCase();
  let current = mapOnce(value);
  for (let i = 0; i < 4; i++) {
    const next = mapOnce(current);
    if (next === current) return current;
    current = next;
  }
  return current;
}

/**
 * The least string greater than every string that starts with `prefix`, in code
 * point order (which is the byte order of UTF-8, the order both stores compare
 * canonical keys in). `undefined` when no such bound exists (a prefix made only
 * of U+10FFFF). Used for index range scans: prefix <= s < upperBound(prefix).
 */
export function prefixUpperBound(prefix: string): string | undefined {
  const points = Array.from(prefix, (ch) => ch.codePointAt(0) as number);
  while (points.length > 0) {
    const last = points.pop() as number;
    if (last < 0x10ffff) {
      // Skip the surrogate range: those code points never occur in a well-formed string.
      points.push(last + 1 === 0xd800 ? 0xe000 : last + 1);
      return String.fromCodePoint(...points);
    }
  }
  return undefined;
}
