/**
 * The items of a failed validation, as a 400 problem lists them (`errors`, with
 * `detail` joining them) and as an import report gives its reason: a JSON pointer
 * (or a query parameter) and a sentence. A value of the wrong form (a `pattern` or
 * a `format`) is told what it must be in its schema's own words (EXPECTED_KEYWORD,
 * validation-options.ts), never with the regular expression: an email address's
 * is 400 characters, and no one who mistyped an address can act on it.
 */
import { pointerToken } from '../json-pointer.js';
import { EXPECTED_KEYWORD } from '../validation-options.js';
import type { ProblemItem } from './problems.js';

/** The fields a create may not send (the service assigns them). */
const READ_ONLY_FIELDS = new Set(['uid', 'created_at', 'updated_at', 'version']);

export interface AjvError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
  /** With `verbose`: the keyword's value (for `not`, the schema that must not hold). */
  schema?: unknown;
  /** With `verbose`: the value that failed. */
  data?: unknown;
  parentSchema?: { description?: string; [EXPECTED_KEYWORD]?: unknown };
}

/** Failures of a value's form: answered with what the value must be, never with the pattern. */
const FORM_KEYWORDS = new Set(['pattern', 'format']);
/** Failures of a value's size: answered with the limit (ajv's sentence states it). */
const LIMIT_KEYWORDS = new Set(['maxLength', 'minLength', 'maxItems', 'minItems', 'maximum', 'minimum']);

/**
 * What a value that failed `e` (a pattern or a format) must be: its schema's sentence.
 * Every request schema has one (test/http/expected-values.test.ts); without it the
 * detail still names no pattern: the format's name, or the document.
 */
function expectation(e: AjvError): string {
  const sentence = e.parentSchema?.[EXPECTED_KEYWORD];
  if (typeof sentence === 'string') return `must be ${sentence}`;
  return e.keyword === 'format' ? `must be a valid ${String(e.params.format)}` : 'is not in the form the OpenAPI document states';
}

/** Whether `path` is `at` or below it (JSON pointers). */
const within = (path: string, at: string) => path === at || path.startsWith(`${at}/`);

/**
 * A union (`anyOf`: every nullable member is one) that failed. When the value had a
 * branch's shape but a value in it had the wrong form (`"timezone": "Europe Paris"`,
 * `"emails": [{ "value": "nope" }]` in a patch) or size (an 800-character given name),
 * what that value must be, at its own pointer; else the union's description.
 */
function unionItems(e: AjvError, all: AjvError[]): ProblemItem[] {
  const inBranch = (b: AjvError) => b.schemaPath.startsWith(`${e.schemaPath}/`) && within(b.instancePath, e.instancePath);
  const forms = all.filter((b) => (FORM_KEYWORDS.has(b.keyword) || LIMIT_KEYWORDS.has(b.keyword)) && inBranch(b));
  if (forms.length > 0) return forms.map((b) => ({ pointer: b.instancePath, detail: FORM_KEYWORDS.has(b.keyword) ? expectation(b) : (b.message ?? 'is not valid') }));
  return [{ pointer: e.instancePath, detail: `is not valid${e.parentSchema?.description ? `: ${e.parentSchema.description}` : ''}` }];
}

function bodyItems(e: AjvError, all: AjvError[]): ProblemItem[] {
  // Branch failures of a union are summarised by the union's own error.
  if (e.schemaPath.includes('/anyOf/')) return [];
  switch (e.keyword) {
    case 'additionalProperties': {
      const name = String(e.params.additionalProperty);
      const pointer = `${e.instancePath}/${pointerToken(name)}`;
      const detail = e.instancePath === '' && READ_ONLY_FIELDS.has(name) ? 'is read-only; the service assigns it' : 'is not a known field';
      return [{ pointer, detail }];
    }
    case 'required':
      return [{ pointer: `${e.instancePath}/${pointerToken(String(e.params.missingProperty))}`, detail: 'is required' }];
    case 'format':
    case 'pattern':
      return [{ pointer: e.instancePath, detail: expectation(e) }];
    case 'anyOf':
      return unionItems(e, all);
    case 'type':
      return [{ pointer: e.instancePath, detail: `must be of type ${String(e.params.type)}` }];
    case 'not': {
      // The schemas use `not` only as "these members must not all be present" (legacy_id and legacy_ids).
      const [first, ...others] = ((e.schema as { required?: string[] } | undefined)?.required ?? []).map(String);
      if (first !== undefined) return [{ pointer: `${e.instancePath}/${pointerToken(first)}`, detail: `cannot be sent together with ${others.join(', ')}` }];
      return [{ pointer: e.instancePath, detail: 'is not valid' }];
    }
    default:
      return [{ pointer: e.instancePath, detail: e.message ?? 'is not valid' }];
  }
}

/**
 * The `errors` entries (JSON pointers) of a failed body validation, each once: a value
 * that fails both the pattern and the format of its schema (a username, an email
 * address) is told once what it must be.
 */
export function bodyValidationItems(errors: AjvError[]): ProblemItem[] {
  const seen = new Set<string>();
  return errors.flatMap((e) => bodyItems(e, errors)).filter((item) => !seen.has(JSON.stringify(item)) && seen.add(JSON.stringify(item)));
}

function queryItem(e: AjvError): ProblemItem {
  if (e.keyword === 'additionalProperties') return { parameter: String(e.params.additionalProperty), detail: 'is not a known parameter' };
  const parameter = e.instancePath.slice(1);
  if (e.keyword === 'type' && Array.isArray(e.data)) return { parameter, detail: 'must be given once' };
  if (e.keyword === 'minLength') return { parameter, detail: 'must not be empty' };
  if (FORM_KEYWORDS.has(e.keyword)) return { parameter, detail: expectation(e) };
  // A size (a `q` past its length): ajv's sentence states the limit.
  if (LIMIT_KEYWORDS.has(e.keyword) && e.message !== undefined) return { parameter, detail: e.message };
  return { parameter, detail: `is not valid: ${e.parentSchema?.description ?? e.message ?? 'see the OpenAPI document'}` };
}

/** The `errors` entries (parameter names) of a failed query validation. */
export function queryValidationItems(errors: AjvError[]): ProblemItem[] {
  return errors.map(queryItem);
}

/** Most `errors` items a problem lists: a hostile body can fail one rule thousands of times. */
const MAX_ERROR_ITEMS = 100;

/** The items a problem lists, the last saying how many more there were. */
export function listedItems(items: ProblemItem[]): ProblemItem[] {
  if (items.length <= MAX_ERROR_ITEMS) return items;
  return [...items.slice(0, MAX_ERROR_ITEMS), { pointer: '', detail: `and ${items.length - MAX_ERROR_ITEMS} more errors` }];
}

/** The items as one sentence: a problem's `detail`, an import report's reason. */
export function describe(items: ProblemItem[]): string {
  return items.map((item) => `${'pointer' in item ? item.pointer || '(body)' : item.parameter} ${item.detail}`).join('; ');
}
