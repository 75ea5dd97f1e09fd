/**
 * SCIM PATCH (RFC 7644 §3.5.2) for a User resource held as JSON: canonical
 * attribute names, enterprise attributes (RFC 7643 §4.3) under the
 * ENTERPRISE_USER_SCHEMA key, no `meta`.
 *
 * `applyScimPatch` applies the operations in order to a copy and returns it;
 * the argument is never modified, and the first operation that cannot be
 * applied throws a ScimError (400 with a `scimType`, RFC 7644 §3.12) whose
 * message starts with `Operations[i]`. The request is atomic, as §3.5.2
 * requires (on an error the original resource is kept), because the caller
 * stores only a returned result.
 *
 * The request-level rules are here; patch/ holds the rest:
 * - `op` is `add`, `replace` or `remove` in any case (identity providers send
 *   `Add`, `Replace`), else `invalidSyntax`; remove without `path` is
 *   `noTarget` (§3.5.2.2); add and replace without `value` are `invalidValue`.
 * - A `path` is resolved by patch/patch-target.ts; a path that is just a
 *   schema URN designates that schema's attributes (remove of the enterprise
 *   URN drops the whole extension; of the core URN, `invalidPath`). A `null`
 *   value unassigns its target (RFC 7643 §2.5).
 * - Without `path`, `value` is an object whose keys are each read as a path
 *   (any case, `name.givenName`, URN-prefixed names) or are a schema URN whose
 *   object holds that schema's attributes (§3.5.2.1, §3.5.2.3).
 * - After each operation at most one member per multi-valued attribute is
 *   primary (patch/primary.ts).
 * - The result carries no `password` (accepted and dropped), no empty arrays
 *   or objects (RFC 7643 §2.5: they equal unassigned), and a `schemas` that
 *   lists the enterprise URN exactly when enterprise attributes remain.
 * - At most MAX_PATCH_OPERATIONS operations (else 400 `tooMany`), bounding
 *   the work one request can cause.
 */
import { checkMutable, patchTarget, type PatchTarget } from './patch/patch-target.js';
import { isPlainObject } from './patch/patch-values.js';
import { primaryBefore, settlePrimary } from './patch/primary.js';
import { removeTarget, writeTarget, type WriteOp } from './patch/apply-target.js';
import { badRequest, ScimError } from './scim-error.js';
import { CORE_USER_SCHEMA, ENTERPRISE_USER_SCHEMA, userSchemaUrn } from './scim-user-schema.js';

export interface PatchOperation {
  op: string;
  path?: string;
  value?: unknown;
}

export const MAX_PATCH_OPERATIONS = 1000;

type Json = Record<string, unknown>;

/**
 * Applies the operations in order to a copy of `resource` (a SCIM User as JSON,
 * canonical attribute names, enterprise attributes under the
 * ENTERPRISE_USER_SCHEMA key) and returns the result. Throws ScimError (400
 * with scimType) on anything it cannot apply; never modifies its argument.
 */
export function applyScimPatch(resource: Record<string, unknown>, operations: readonly PatchOperation[]): Record<string, unknown> {
  if (!Array.isArray(operations)) throw badRequest('invalidSyntax', 'Operations must be an array');
  if (operations.length > MAX_PATCH_OPERATIONS) {
    throw badRequest('tooMany', `a PATCH request may carry at most ${MAX_PATCH_OPERATIONS} operations`);
  }
  const result = structuredClone(resource);
  operations.forEach((operation: unknown, index) => {
    try {
      applyOperation(result, operation);
    } catch (error) {
      if (error instanceof ScimError) throw new ScimError(error.status, `Operations[${index}]: ${error.message}`, error.scimType);
      throw error;
    }
  });
  return tidy(result);
}

function applyOperation(resource: Json, operation: unknown): void {
  if (!isPlainObject(operation)) throw badRequest('invalidSyntax', 'an operation must be an object');
  const op = typeof operation.op === 'string' ? operation.op.toLowerCase() : undefined;
  if (op !== 'add' && op !== 'replace' && op !== 'remove') throw badRequest('invalidSyntax', 'op must be "add", "replace" or "remove"');
  const { path, value } = operation;
  if (path !== undefined && typeof path !== 'string') throw badRequest('invalidPath', 'path must be a string');

  const before = primaryBefore(resource);
  if (op === 'remove') {
    if (path === undefined) throw badRequest('noTarget', 'remove needs a path');
    remove(resource, path);
  } else {
    if (value === undefined) throw badRequest('invalidValue', `${op} needs a value`);
    if (path === undefined) writeAttributes(resource, op, value);
    else write(resource, op, path, value);
  }
  settlePrimary(resource, before);
}

function remove(resource: Json, path: string): void {
  const schema = userSchemaUrn(path.trim());
  if (schema === ENTERPRISE_USER_SCHEMA) {
    delete resource[ENTERPRISE_USER_SCHEMA];
    return;
  }
  if (schema === CORE_USER_SCHEMA) throw badRequest('invalidPath', 'the core User schema cannot be removed');
  const target = patchTarget(path);
  checkMutable(target, true);
  removeTarget(resource, target);
}

function write(resource: Json, op: WriteOp, path: string, value: unknown): void {
  const schema = userSchemaUrn(path.trim());
  if (schema !== undefined) return writeAttributes(resource, op, { [schema]: value });
  const target = patchTarget(path);
  // Writing null unassigns, so it meets the rules of a removal.
  checkMutable(target, value === null);
  writeTarget(resource, target, op, value);
}

/**
 * The keys of a path-less value naming one attribute twice, once short and once qualified
 * (`active` and `urn:…:core:2.0:User:active`), once as an object and once dotted (`name` and
 * `name.givenName`), or under the extension's URN both ways: applied in turn, the last would win
 * while a reader of the first sees another value (scim-member-names.ts refuses the spellings
 * that differ by case). Keys with a value filter name values, not the attribute: left alone.
 */
function refuseTwoSpellings(value: Json): void {
  const seen = new Map<string, string>();
  const note = (spelling: string) => {
    let target: PatchTarget;
    try {
      target = patchTarget(spelling);
    } catch {
      return; // the write names what is wrong with it
    }
    if (target.filter !== undefined) return;
    const attribute = `${target.schema}:${target.attribute.name}`;
    const whole = seen.get(attribute);
    const part = target.sub === undefined ? undefined : `${attribute}.${target.sub.name}`;
    const clash = whole ?? (part === undefined ? [...seen].find(([name]) => name.startsWith(`${attribute}.`))?.[1] : seen.get(part));
    if (clash !== undefined) {
      throw badRequest('invalidSyntax', `The members ${JSON.stringify(clash)} and ${JSON.stringify(spelling)} of a value without a path name one attribute; send it once.`);
    }
    seen.set(part ?? attribute, spelling);
  };
  for (const [key, given] of Object.entries(value)) {
    const schema = userSchemaUrn(key);
    if (schema === undefined) note(key);
    else if (isPlainObject(given)) for (const name of Object.keys(given)) note(`${schema}:${name}`);
  }
}

/** A path-less add or replace: each key of `value` is a path, or a schema URN keying an object of that schema's attributes. */
function writeAttributes(resource: Json, op: WriteOp, value: unknown): void {
  if (!isPlainObject(value)) throw badRequest('invalidValue', `${op} without a path takes an object of attributes as its value`);
  refuseTwoSpellings(value);
  for (const [key, given] of Object.entries(value)) {
    const schema = userSchemaUrn(key);
    if (schema === undefined) {
      write(resource, op, key, given);
    } else if (given === null && schema === ENTERPRISE_USER_SCHEMA) {
      delete resource[ENTERPRISE_USER_SCHEMA];
    } else if (isPlainObject(given)) {
      for (const [name, member] of Object.entries(given)) write(resource, op, `${schema}:${name}`, member);
    } else {
      throw badRequest('invalidValue', 'a schema URN takes an object of attributes as its value');
    }
  }
}

/** The result's final shape: see the top comment. */
function tidy(resource: Json): Json {
  delete resource.password;
  dropEmpty(resource);
  const extension = resource[ENTERPRISE_USER_SCHEMA];
  if (isPlainObject(extension)) dropEmpty(extension);
  if (isPlainObject(extension) && Object.keys(extension).length === 0) delete resource[ENTERPRISE_USER_SCHEMA];
  if (Array.isArray(resource.schemas)) {
    const others = resource.schemas.filter((uri) => typeof uri !== 'string' || userSchemaUrn(uri) !== ENTERPRISE_USER_SCHEMA);
    resource.schemas = ENTERPRISE_USER_SCHEMA in resource ? [...others, ENTERPRISE_USER_SCHEMA] : others;
  }
  return resource;
}

const isEmpty = (value: unknown) =>
  value === null || (Array.isArray(value) && value.length === 0) || (isPlainObject(value) && Object.keys(value).length === 0);

/** Removes unassigned attributes and members: null, [], {} (members emptied by removing their last sub-attribute included). */
function dropEmpty(container: Json): void {
  for (const [name, value] of Object.entries(container)) {
    if (name === 'schemas' || name === ENTERPRISE_USER_SCHEMA) continue;
    const kept = Array.isArray(value) ? value.filter((member) => !isEmpty(member)) : value;
    if (isEmpty(kept)) delete container[name];
    else if (kept !== value) container[name] = kept;
  }
}
