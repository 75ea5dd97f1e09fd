/**
 * SCIM's error response (RFC 7644 §3.12): `schemas` of the Error message, `status`
 * as a string, a `scimType` for the 400s and 409s the RFC names, and `detail`.
 * Everything under src/scim/ throws ScimError for what the client got wrong; the
 * SCIM error handler also turns the service's problems into this shape.
 */
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 Table 9, and `uniqueness` (409). */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

export class ScimError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly scimType?: ScimType,
  ) {
    super(message);
    this.name = 'ScimError';
  }
}

/** A 400 with a scimType: the request is wrong in the way `scimType` names. */
export const badRequest = (scimType: ScimType, message: string) => new ScimError(400, message, scimType);
