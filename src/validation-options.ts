/**
 * The validator settings every schema is checked with: by the HTTP app (Fastify's
 * Ajv) and by the import command alike, so both accept exactly the same input.
 * CONTRACT §1: unknown fields are an error, never stripped; types are never coerced.
 */
import { USER_FORMATS } from './users/user-formats.js';

export const AJV_OPTIONS = {
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
