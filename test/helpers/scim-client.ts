/**
 * The client of the SCIM tests: SCIM answers are described by /scim/v2/Schemas, not by the
 * OpenAPI document the checked test client validates against, so these requests go out
 * and come back unchecked. A body is JSON, as `contentType` (default application/scim+json)
 * unless the headers name a type; `defaultType: false` sends none (to see what the server does then).
 */
import { send, type TestResponse } from './http-client.js';

export type ScimResponse = TestResponse;

export interface ScimRequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  contentType?: string;
  defaultType?: boolean;
}

export function scimRequest(baseUrl: string, method: string, path: string, options: ScimRequestOptions = {}): Promise<ScimResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body === undefined) return send(baseUrl, method, path, { headers });
  if (options.defaultType !== false) headers['content-type'] ??= options.contentType ?? 'application/scim+json';
  // Sent as a string, so no content type is added when `defaultType` is false.
  return send(baseUrl, method, path, { headers, body: JSON.stringify(options.body) });
}
