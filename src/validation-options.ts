/**
 * The validator settings every schema is checked with: by the HTTP app (Fastify's
 * Ajv), by PATCH (which validates the patched user as a PUT body) and by the
 * import command alike, so all accept exactly the same input.
 * CONTRACT §1: unknown fields are an error, never stripped; types are never coerced.
 */
import { Ajv, type AnySchema } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { USER_FORMATS } from './users/user-formats.js';

/**
 * The schema keyword that says, in words, what a value of a `pattern` or a `format`
 * must be: a noun phrase that completes "must be …" ("an email address such as
 * name@example.com"). A 400's `detail` and `errors[].detail`, and an import report's
 * reason, say this sentence (http/problem-handler.ts), never the regular expression,
 * which stays in the OpenAPI document for other validators. Every request schema
 * with a pattern or a format carries one (test/http/expected-values.test.ts).
 * An `x-` name: an extension in OpenAPI 3.1, and an annotation to Ajv (declared below).
 */
export const EXPECTED_KEYWORD = 'x-expected';

/** The keyword as a schema option: `Type.String({ pattern, ...expecting('a BCP 47 language tag such as en-US') })`. */
export function expecting(sentence: string): { [EXPECTED_KEYWORD]: string } {
  return { [EXPECTED_KEYWORD]: sentence };
}

export const AJV_OPTIONS = {
  // An annotation only: Ajv knows it (strict mode refuses unknown keywords) and checks nothing with it.
  keywords: [EXPECTED_KEYWORD] as string[],
  removeAdditional: false,
  coerceTypes: false,
  useDefaults: false,
  allErrors: true,
  verbose: true,
  formats: USER_FORMATS,
  // The schemas are fixed at build time and checked against the JSON Schema meta-schema
  // by test/users/schemas-valid.test.ts; compiling the meta-schema at every start cost ~10 ms.
  validateSchema: false,
} as const;

// ajv-formats is CommonJS: its function is the default export's default under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** One Ajv error, as far as the problem handler reads it. */
export type ValidationError = NonNullable<ReturnType<Ajv['compile']>['errors']>[number];

/** A validator of `schema` with the service's settings and formats: the errors, or undefined when `value` is valid. */
export function compileValidator(schema: AnySchema): (value: unknown) => ValidationError[] | undefined {
  const ajv = new Ajv({ ...AJV_OPTIONS, strict: false });
  addFormats(ajv);
  for (const [name, check] of Object.entries(USER_FORMATS)) ajv.addFormat(name, check);
  const validate = ajv.compile(schema);
  return (value) => (validate(value) ? undefined : (validate.errors ?? []));
}
