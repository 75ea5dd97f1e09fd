/**
 * The syntax tree of a SCIM filter (RFC 7644 §3.4.2.2) and of a PATCH path
 * (RFC 7644 §3.5.2), shared by the parser, the printer, the evaluator and the
 * modules that translate filters into store queries.
 *
 * Attribute names and URIs are kept exactly as written; SCIM resolves them
 * case-insensitively (RFC 7643 §2.1), which is the job of an `AttributeLookup`.
 * Optional members are absent, never `undefined`, so trees compare with
 * `assert.deepStrictEqual`.
 */

/** An attribute path as written, e.g. `userName`, `name.givenName`, `urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department`, `meta.lastModified`. */
export interface AttrPath {
  uri?: string;
  attr: string;
  sub?: string;
}

export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';

export type FilterValue = string | number | boolean | null;

export type Filter =
  | { kind: 'and' | 'or'; left: Filter; right: Filter }
  | { kind: 'not'; filter: Filter }
  | { kind: 'present'; path: AttrPath }
  | { kind: 'compare'; op: CompareOp; path: AttrPath; value: FilterValue }
  /** A value path: `emails[type eq "work"]`; members of the multi-valued `path` of which one satisfies `filter` (whose paths are relative to the member). */
  | { kind: 'has'; path: AttrPath; filter: Filter };

/** A PATCH path (RFC 7644 §3.5.2): attrPath, or valuePath with an optional sub-attribute: `emails[type eq "work"].value`. */
export interface PatchPath {
  path: AttrPath;
  filter?: Filter;
  sub?: string;
}

/** What the evaluator needs to know about an attribute (RFC 7643 §2.2, §7). */
export interface AttributeDefinition {
  name: string;
  subName?: string;
  type: 'string' | 'boolean' | 'decimal' | 'integer' | 'dateTime' | 'reference' | 'complex';
  caseExact: boolean;
  multiValued: boolean;
}

export interface AttributeLookup {
  /**
   * The attribute definition for a path, resolved case-insensitively (undefined = unknown attribute).
   *
   * Without `parent`, `path` is absolute: `name.givenName` yields the
   * definition of the sub-attribute `givenName` (`type`, `caseExact` describe
   * the sub-attribute). With `parent` (the canonical `name` this lookup returned
   * for a multi-valued complex attribute, e.g. `emails`), `path` is relative to
   * one member of that attribute, as inside `emails[type eq "work"]`: `type`
   * names the sub-attribute `emails.type`.
   */
  resolve(path: AttrPath, parent?: string): AttributeDefinition | undefined;
}
