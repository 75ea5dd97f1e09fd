/**
 * Every schema the service validates with is valid JSON Schema. The app's Ajv
 * skips this check at start (AJV_OPTIONS.validateSchema is false, to start
 * faster), so it is made here, with the meta-schema, once per build.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { ProblemSchema } from '../../src/http/problem-schema.js';
import { CreateUserBody, ImportUserRecord, ReplaceUserBody, SearchQuery, UserList, UserRefParams, UserResource, UserResourceRef } from '../../src/users/user-schemas.js';
import { AJV_OPTIONS } from '../../src/validation-options.js';

const SCHEMAS = { CreateUserBody, ReplaceUserBody, ImportUserRecord, UserResource, UserResourceRef, UserList, UserRefParams, SearchQuery, ProblemSchema };

describe('schemas', () => {
  it('are valid JSON Schema, and compile with the service\'s Ajv settings', () => {
    // As Fastify's Ajv: ajv-formats (uuid, date-time) plus the service's own formats.
    const ajv = new Ajv({ ...AJV_OPTIONS, validateSchema: true, strict: true });
    addFormats.default(ajv);
    ajv.addSchema(UserResource);
    for (const [name, schema] of Object.entries(SCHEMAS)) {
      assert.equal(ajv.validateSchema(schema), true, `${name}: ${ajv.errorsText(ajv.errors)}`);
      assert.doesNotThrow(() => ajv.compile((schema as { $id?: string }).$id === 'User' ? { $ref: 'User' } : schema), name);
    }
  });

  it('a schema that is not valid JSON Schema is caught by this check', () => {
    const ajv = new Ajv({ ...AJV_OPTIONS, validateSchema: true });
    assert.equal(ajv.validateSchema({ type: 'object', properties: { a: { type: 'strnig' } } }), false);
  });
});
