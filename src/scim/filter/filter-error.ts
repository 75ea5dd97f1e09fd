/**
 * The one error the SCIM filter and PATCH path parsers throw (RFC 7644 §3.4.2.2,
 * §3.5.2). `scimType` is the value the SCIM error response carries (RFC 7644
 * §3.12, Table 9): `invalidFilter` for a `filter` parameter, `invalidPath` for a
 * PATCH `path`. The message says what is wrong and at which character offset
 * (counted in UTF-16 code units from 0); it never quotes the input, so echoing it
 * to a client cannot reflect attacker-chosen text.
 */
export type ScimFilterErrorType = 'invalidFilter' | 'invalidPath';

export class ScimFilterError extends Error {
  override readonly name = 'ScimFilterError';

  constructor(
    readonly scimType: ScimFilterErrorType,
    message: string,
    /** Where in the text the problem was found. */
    readonly offset: number,
  ) {
    super(message);
  }
}
