/**
 * `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5, §3.9): which members of
 * a SCIM User an answer carries. `id` and `schemas` are returned always. Names are
 * matched case-insensitively; an unknown name is a 400 `invalidValue` (a typo must not
 * silently change what comes back).
 */
import { badRequest } from './scim-error.js';
import { ENTERPRISE_USER_SCHEMA, resolveAttribute } from './scim-user-schema.js';

type Json = Record<string, unknown>;
const ALWAYS = new Set(['id', 'schemas']);

/** `[schema-member, attribute, sub?]` of each name in a comma-separated list. */
function parseList(text: string, parameter: string): { holder: string | undefined; name: string; sub?: string }[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const resolved = resolveAttribute(part);
      if (resolved === undefined) throw badRequest('invalidValue', `${parameter}: ${JSON.stringify(part)} is not an attribute of User.`);
      return {
        holder: resolved.schema === ENTERPRISE_USER_SCHEMA ? ENTERPRISE_USER_SCHEMA : undefined,
        name: resolved.name,
        ...(resolved.sub === undefined ? {} : { sub: resolved.sub }),
      };
    });
}

export interface Projection {
  attributes?: string;
  excludedAttributes?: string;
}

export function projector({ attributes, excludedAttributes }: Projection): (resource: Json) => Json {
  if (attributes !== undefined && excludedAttributes !== undefined) throw badRequest('invalidValue', 'Send attributes or excludedAttributes, not both.');
  if (attributes !== undefined) {
    const wanted = parseList(attributes, 'attributes');
    return (resource) => {
      const out: Json = {};
      for (const [key, value] of Object.entries(resource)) if (ALWAYS.has(key)) out[key] = value;
      for (const { holder, name, sub } of wanted) {
        const source = (holder === undefined ? resource : (resource[holder] as Json | undefined)) ?? {};
        if (source[name] === undefined) continue;
        const target = holder === undefined ? out : ((out[holder] as Json | undefined) ?? (out[holder] = {}));
        const value = source[name];
        if (sub === undefined) {
          // The whole attribute: copied, so a sub-attribute asked for too does not reach into the resource.
          target[name] = structuredClone(value);
          continue;
        }
        const pickSub = (v: Json) => (v[sub] === undefined ? {} : { [sub]: v[sub] });
        const already = target[name];
        // Member i of the answer holds the sub-attributes asked for of member i of the resource.
        target[name] = Array.isArray(value)
          ? value.map((member, i) => ({ ...((already as Json[] | undefined)?.[i] ?? {}), ...pickSub(member as Json) }))
          : { ...((already as Json | undefined) ?? {}), ...pickSub(value as Json) };
      }
      return out;
    };
  }
  if (excludedAttributes !== undefined) {
    const unwanted = parseList(excludedAttributes, 'excludedAttributes');
    return (resource) => {
      const out: Json = structuredClone(resource);
      for (const { holder, name, sub } of unwanted) {
        if (holder === undefined && ALWAYS.has(name)) continue;
        const target = holder === undefined ? out : (out[holder] as Json | undefined);
        if (target === undefined) continue;
        if (sub === undefined) delete target[name];
        else if (Array.isArray(target[name])) for (const entry of target[name] as Json[]) delete entry[sub];
        else if (target[name] !== undefined) delete (target[name] as Json)[sub];
      }
      return out;
    };
  }
  return (resource) => resource;
}
