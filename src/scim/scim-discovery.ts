/**
 * The discovery resources (RFC 7644 §4): what this service supports, truthfully.
 * PATCH, sort and ETags are supported; bulk, password change and filters past
 * SCAN_LIMIT users without a narrowing condition are not (docs/scim.md).
 */
import { SCAN_LIMIT } from './scim-query.js';
import { CORE_USER_SCHEMA, ENTERPRISE_USER_SCHEMA } from './scim-user-schema.js';

/** Largest page a list answers (`count` is capped to it, RFC 7644 §3.4.2.4). */
export const MAX_PAGE = 1000;

export function serviceProviderConfig(base: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri: `${base.replace(/\/scim\/v2$/, '')}/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_PAGE },
    changePassword: { supported: false },
    sort: { supported: true },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: `An API key or an OAuth 2.0 access token (JWT) with the scopes users:read and users:write, sent as Authorization: Bearer. Filters without a userName, externalId or id equality answer at most ${SCAN_LIMIT} users read.`,
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

export function userResourceType(base: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'A user of the directory',
    schema: CORE_USER_SCHEMA,
    schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` },
  };
}

export const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

export function listResponse(resources: unknown[], totalResults: number, startIndex: number) {
  return { schemas: [LIST_RESPONSE], totalResults, startIndex, itemsPerPage: resources.length, Resources: resources };
}
