/**
 * Parsers for the SCIM filter grammar (RFC 7644 §3.4.2.2, Figure 1) and the
 * PATCH path grammar (RFC 7644 §3.5.2, PATH).
 *
 * `parseFilter` and `parsePatchPath` either return a tree (see filter-ast.ts) or
 * throw a `ScimFilterError` (`invalidFilter` / `invalidPath`); nothing else
 * escapes, whatever the input.
 *
 * Grammar as accepted, beyond the letter of the RFC:
 * - Keywords (`and`, `or`, `not`, `pr`, the comparison operators, `true`,
 *   `false`, `null`) are case-insensitive; attribute names are kept as written.
 * - Precedence is `not` > `and` > `or`; `and` and `or` associate to the left.
 *   `not` always takes a parenthesised filter. A word `not` not followed by `(`
 *   is an attribute path, as is any keyword in attribute position: the grammar
 *   is positional, so no attribute name is reserved.
 * - Whitespace (space, tab, CR, LF) may separate any two tokens and surround the
 *   whole text; it is required only where two words would otherwise merge.
 *   None is allowed between an attribute path and `[`, or between `]` and `.`.
 * - Attribute names are `(ALPHA / "$") *(ALPHA / DIGIT / "-" / "_" / "$")`; the
 *   leading `$` admits RFC 7643's `$ref`. An attribute path is a run of name
 *   characters, `.` and `:`; a URI prefix is everything up to its last `:`
 *   and must start with a letter; at most one `.sub` follows the name.
 * - Values are JSON strings, JSON numbers (finite) and the three literals.
 * - `attr[filter].sub <op> <value>` and `attr[filter].sub pr`, which identity
 *   providers send although the RFC grammar lacks them, become
 *   `attr[filter and sub <op> <value>]`.
 * - Value paths do not nest (`a[b[c pr]]` is refused), as in the RFC.
 *
 * Hostile input is cut off early: at most 4096 characters, 32 levels of
 * nesting (each `(`, `not (` and `[` is one level) and 100 attribute
 * expressions (comparisons and `pr`). Recursion happens only when a level is
 * entered, so the depth limit also bounds the stack. No regular expressions
 * are used.
 */
import type { AttrPath, CompareOp, Filter, FilterValue, PatchPath } from './filter-ast.js';
import { ScimFilterError, type ScimFilterErrorType } from './filter-error.js';

export const FILTER_LIMITS = {
  maxLength: 4096,
  maxDepth: 32,
  maxAttributeExpressions: 100,
} as const;

const COMPARE_OPS: ReadonlySet<string> = new Set<CompareOp>(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);

const VALUE_HINT = 'a string, a number, true, false or null';

/** Parses the value of a `filter` query parameter or `.search` request member. */
export function parseFilter(text: string): Filter {
  return new Parser(checkedText(text, 'invalidFilter'), 'invalidFilter').filterText();
}

/** Parses the `path` of a PATCH operation. */
export function parsePatchPath(text: string): PatchPath {
  return new Parser(checkedText(text, 'invalidPath'), 'invalidPath').patchPathText();
}

function checkedText(text: unknown, scimType: ScimFilterErrorType): string {
  const what = scimType === 'invalidFilter' ? 'invalid filter' : 'invalid path';
  if (typeof text !== 'string') throw new ScimFilterError(scimType, `${what} at offset 0: not a string`, 0);
  if (text.length > FILTER_LIMITS.maxLength) {
    throw new ScimFilterError(
      scimType,
      `${what} at offset ${FILTER_LIMITS.maxLength}: longer than ${FILTER_LIMITS.maxLength} characters`,
      FILTER_LIMITS.maxLength,
    );
  }
  return text;
}

// Character classes, by UTF-16 code unit.
const isAlpha = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isNameStart = (c: number): boolean => isAlpha(c) || c === 0x24; // $
const isNameChar = (c: number): boolean => isNameStart(c) || isDigit(c) || c === 0x2d || c === 0x5f; // - _
const isWordChar = (c: number): boolean => isNameChar(c) || c === 0x2e || c === 0x3a; // . :
const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

class Parser {
  private pos = 0;
  private depth = 0;
  private attributeExpressions = 0;

  constructor(
    private readonly text: string,
    private readonly scimType: ScimFilterErrorType,
  ) {}

  filterText(): Filter {
    this.skipSpace();
    if (this.atEnd()) this.fail('the filter is empty');
    const filter = this.orExpression(false);
    this.skipSpace();
    if (!this.atEnd()) this.unexpectedAfterExpression('the end of the filter');
    return filter;
  }

  patchPathText(): PatchPath {
    this.skipSpace();
    if (this.atEnd()) this.fail('the path is empty');
    if (!isNameStart(this.code())) this.fail('expected an attribute path');
    const result: PatchPath = { path: this.attrPath() };
    if (this.code() === 0x5b) {
      result.filter = this.valueFilter();
      if (this.code() === 0x2e) {
        this.pos++;
        result.sub = this.subAttributeAfterBracket();
      }
    }
    this.skipSpace();
    if (!this.atEnd()) {
      this.fail(result.filter === undefined ? 'unexpected text after the attribute path' : 'unexpected text after "]"');
    }
    return result;
  }

  // --- logical structure -----------------------------------------------------

  private orExpression(inBrackets: boolean): Filter {
    let left = this.andExpression(inBrackets);
    while (this.keyword('or')) left = { kind: 'or', left, right: this.andExpression(inBrackets) };
    return left;
  }

  private andExpression(inBrackets: boolean): Filter {
    let left = this.unary(inBrackets);
    while (this.keyword('and')) left = { kind: 'and', left, right: this.unary(inBrackets) };
    return left;
  }

  private unary(inBrackets: boolean): Filter {
    this.skipSpace();
    const start = this.pos;
    if (this.atEnd()) this.fail('the text ends where an attribute path, "(" or "not (" was expected');
    const c = this.code();
    if (c === 0x28) {
      this.enter(start);
      this.pos++;
      const inner = this.orExpression(inBrackets);
      this.close(')', start);
      return inner;
    }
    if (!isNameStart(c)) this.fail('expected an attribute path, "(" or "not ("');
    const afterWord = this.wordEnd(start);
    if (afterWord - start === 3 && this.text.slice(start, afterWord).toLowerCase() === 'not') {
      let paren = afterWord;
      while (paren < this.text.length && isSpace(this.text.charCodeAt(paren))) paren++;
      if (this.text.charCodeAt(paren) === 0x28) {
        this.enter(start);
        this.pos = paren + 1;
        const inner = this.orExpression(inBrackets);
        this.close(')', paren);
        return { kind: 'not', filter: inner };
      }
    }
    return this.attributeExpression(inBrackets);
  }

  /** Consumes `)` or `]` that closes the level opened at `openedAt`. */
  private close(closer: ')' | ']', openedAt: number): void {
    this.skipSpace();
    if (this.atEnd()) this.fail(`missing "${closer}" for the "${closer === ')' ? '(' : '['}" at offset ${openedAt}`);
    if (this.text[this.pos] !== closer) this.unexpectedAfterExpression(`"${closer}"`);
    this.pos++;
    this.depth--;
  }

  private unexpectedAfterExpression(expected: string): never {
    const c = this.text[this.pos];
    if (c === ')' && expected !== '")"') this.fail('")" without a matching "("');
    if (c === ']' && expected !== '"]"') this.fail('"]" without a matching "["');
    if (c === '[') this.fail('"[" must directly follow an attribute name');
    if (c === '"' || c === '-' || isDigit(this.code())) this.fail(`a value where "and", "or" or ${expected} was expected`);
    this.fail(`expected "and", "or" or ${expected}`);
  }

  // --- attribute expressions -------------------------------------------------

  private attributeExpression(inBrackets: boolean): Filter {
    const start = this.pos;
    const path = this.attrPath();
    if (this.code() !== 0x5b) return this.operation(path, start);
    if (inBrackets) this.fail('value paths cannot be nested: "[" inside "[…]"');
    let filter = this.valueFilter();
    if (this.code() === 0x2e) {
      // `emails[type eq "work"].value eq "x"`: the comparison applies to the
      // same member the bracket filter selects, so it joins that filter.
      this.pos++;
      const subStart = this.pos;
      const sub = this.subAttributeAfterBracket();
      filter = { kind: 'and', left: filter, right: this.operation({ attr: sub }, subStart) };
    }
    return { kind: 'has', path, filter };
  }

  /** `[valFilter]`, starting at `[`; leaves the cursor after `]`. */
  private valueFilter(): Filter {
    const open = this.pos;
    this.enter(open);
    this.pos++;
    this.skipSpace();
    if (this.code() === 0x5d) this.fail('the value filter "[]" is empty');
    const filter = this.orExpression(true);
    this.close(']', open);
    return filter;
  }

  /** The operator and value after an attribute path: `pr`, or `<op> <value>`. */
  private operation(path: AttrPath, pathStart: number): Filter {
    this.skipSpace();
    const opStart = this.pos;
    const op = this.word().toLowerCase();
    const isBareNot = path.uri === undefined && path.sub === undefined && path.attr.toLowerCase() === 'not';
    if (op === 'pr' || COMPARE_OPS.has(op)) {
      this.countAttributeExpression(pathStart);
    } else if (isBareNot) {
      this.fail('"not" must be followed by a parenthesised filter: not (…)', pathStart);
    } else if (op === '') {
      this.fail(this.atEnd() ? 'the attribute path is not followed by an operator' : 'expected an operator after the attribute path', opStart);
    } else {
      this.fail('unknown operator (expected eq, ne, co, sw, ew, gt, ge, lt, le or pr)', opStart);
    }
    if (op === 'pr') {
      this.refuseValueAfterPresent();
      return { kind: 'present', path };
    }
    return { kind: 'compare', op: op as CompareOp, path, value: this.value() };
  }

  private refuseValueAfterPresent(): void {
    let at = this.pos;
    while (at < this.text.length && isSpace(this.text.charCodeAt(at))) at++;
    const c = this.text.charCodeAt(at);
    let isValue = c === 0x22 || c === 0x2d || isDigit(c);
    if (!isValue && isAlpha(c)) {
      const word = this.text.slice(at, this.wordEnd(at)).toLowerCase();
      isValue = word === 'true' || word === 'false' || word === 'null';
    }
    if (isValue) this.fail('"pr" takes no value', at);
  }

  private countAttributeExpression(at: number): void {
    this.attributeExpressions++;
    if (this.attributeExpressions > FILTER_LIMITS.maxAttributeExpressions) {
      this.fail(`more than ${FILTER_LIMITS.maxAttributeExpressions} comparisons`, at);
    }
  }

  // --- attribute paths -------------------------------------------------------

  /** `[URI ":"] ATTRNAME ["." ATTRNAME]`, as one run of word characters. */
  private attrPath(): AttrPath {
    const start = this.pos;
    const word = this.word();
    if (word === '') this.fail('expected an attribute path');
    const colon = word.lastIndexOf(':');
    if (colon >= 0 && !isAlpha(word.charCodeAt(0))) this.fail('a schema URI must start with a letter', start);
    const nameStart = start + colon + 1;
    const rest = word.slice(colon + 1);
    const dot = rest.indexOf('.');
    const attr = dot < 0 ? rest : rest.slice(0, dot);
    this.checkName(attr, nameStart, 'an attribute name');
    let sub: string | undefined;
    if (dot >= 0) {
      sub = rest.slice(dot + 1);
      const extra = sub.indexOf('.');
      if (extra >= 0) this.fail('an attribute path has at most one sub-attribute', nameStart + dot + 1 + extra);
      this.checkName(sub, nameStart + dot + 1, 'a sub-attribute name');
    }
    return {
      ...(colon >= 0 ? { uri: word.slice(0, colon) } : {}),
      attr,
      ...(sub === undefined ? {} : { sub }),
    };
  }

  /** The `sub` of `[…].sub`. */
  private subAttributeAfterBracket(): string {
    const start = this.pos;
    while (this.pos < this.text.length && isNameChar(this.code())) this.pos++;
    const sub = this.text.slice(start, this.pos);
    this.checkName(sub, start, 'a sub-attribute name after "]."');
    if (this.code() === 0x2e || this.code() === 0x3a) this.fail('only one sub-attribute may follow "]"');
    return sub;
  }

  private checkName(name: string, at: number, what: string): void {
    if (name === '') this.fail(`missing ${what}`, at);
    if (!isNameStart(name.charCodeAt(0))) this.fail(`${what} must start with a letter`, at);
  }

  // --- values (RFC 8259 strings and numbers) ---------------------------------

  private value(): FilterValue {
    this.skipSpace();
    const start = this.pos;
    if (this.atEnd()) this.fail(`the comparison has no value (expected ${VALUE_HINT})`);
    const c = this.code();
    if (c === 0x22) return this.string();
    if (c === 0x2d || isDigit(c)) return this.number();
    if (isAlpha(c)) {
      const word = this.word().toLowerCase();
      if (word === 'true') return true;
      if (word === 'false') return false;
      if (word === 'null') return null;
    }
    this.fail(`the comparison has no value (expected ${VALUE_HINT})`, start);
  }

  private string(): string {
    const open = this.pos;
    this.pos++;
    let out = '';
    let chunk = this.pos;
    for (;;) {
      if (this.atEnd()) this.fail('unterminated string', open);
      const c = this.code();
      if (c === 0x22) {
        out += this.text.slice(chunk, this.pos);
        this.pos++;
        return out;
      }
      if (c === 0x5c) {
        out += this.text.slice(chunk, this.pos);
        out += this.escape();
        chunk = this.pos;
      } else if (c < 0x20) {
        this.fail('a control character in a string must be escaped');
      } else {
        this.pos++;
      }
    }
  }

  /** One escape sequence, starting at the backslash. */
  private escape(): string {
    const at = this.pos;
    const letter = this.text[at + 1];
    if (letter === undefined) this.fail('unterminated string', at);
    const simple = ESCAPES[letter];
    if (simple !== undefined) {
      this.pos += 2;
      return simple;
    }
    if (letter !== 'u') this.fail('invalid escape sequence in a string', at);
    for (let i = at + 2; i < at + 6; i++) {
      if (!isHex(this.text.charCodeAt(i))) this.fail('"\\u" must be followed by four hexadecimal digits', at);
    }
    this.pos += 6;
    return String.fromCharCode(Number.parseInt(this.text.slice(at + 2, at + 6), 16));
  }

  private number(): number {
    const start = this.pos;
    if (this.code() === 0x2d) this.pos++;
    if (this.code() === 0x30) this.pos++;
    else if (isDigit(this.code())) this.skipDigits();
    else this.fail('invalid number', start);
    if (this.code() === 0x2e) {
      this.pos++;
      if (!isDigit(this.code())) this.fail('invalid number: digits must follow "."', start);
      this.skipDigits();
    }
    if (this.code() === 0x65 || this.code() === 0x45) {
      this.pos++;
      if (this.code() === 0x2b || this.code() === 0x2d) this.pos++;
      if (!isDigit(this.code())) this.fail('invalid number: digits must follow the exponent', start);
      this.skipDigits();
    }
    if (isWordChar(this.code())) this.fail('invalid number', start);
    const value = Number(this.text.slice(start, this.pos));
    if (!Number.isFinite(value)) this.fail('number out of range', start);
    return value;
  }

  private skipDigits(): void {
    while (isDigit(this.code())) this.pos++;
  }

  // --- scanning --------------------------------------------------------------

  /** Consumes `word` (case-insensitively) if it is the next whole word. */
  private keyword(word: string): boolean {
    this.skipSpace();
    const end = this.wordEnd(this.pos);
    if (end - this.pos !== word.length || this.text.slice(this.pos, end).toLowerCase() !== word) return false;
    this.pos = end;
    return true;
  }

  private word(): string {
    const start = this.pos;
    this.pos = this.wordEnd(start);
    return this.text.slice(start, this.pos);
  }

  private wordEnd(from: number): number {
    let end = from;
    while (end < this.text.length && isWordChar(this.text.charCodeAt(end))) end++;
    return end;
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && isSpace(this.code())) this.pos++;
  }

  /** The code unit at the cursor; NaN at the end, which no class matches. */
  private code(): number {
    return this.text.charCodeAt(this.pos);
  }

  private atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  private enter(at: number): void {
    this.depth++;
    if (this.depth > FILTER_LIMITS.maxDepth) this.fail(`nested deeper than ${FILTER_LIMITS.maxDepth} levels`, at);
  }

  private fail(problem: string, at: number = this.pos): never {
    const what = this.scimType === 'invalidFilter' ? 'invalid filter' : 'invalid path';
    throw new ScimFilterError(this.scimType, `${what} at offset ${at}: ${problem}`, at);
  }
}
