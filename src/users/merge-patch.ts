/**
 * JSON Merge Patch, RFC 7396 §2, exactly: a patch that is not an object replaces
 * the target; an object patch merges member by member, `null` removing a member
 * and objects merging recursively; arrays are replaced whole. Neither argument is
 * modified. Iterative in depth only as far as the patch nests (bodies are limited
 * to 32 levels before they get here).
 */
export type Json = null | boolean | number | string | Json[] | { [member: string]: Json };

const isObject = (value: unknown): value is Record<string, Json> => value !== null && typeof value === 'object' && !Array.isArray(value);

export function applyMergePatch(target: Json | undefined, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const result: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    // Own members only, defined rather than assigned: a member named `__proto__` is data like any other.
    else Object.defineProperty(result, name, { value: applyMergePatch(Object.hasOwn(result, name) ? result[name] : undefined, value), enumerable: true, writable: true, configurable: true });
  }
  return result;
}
