/**
 * A bare HTTP client for the SCIM tests: SCIM answers are described by /scim/v2/Schemas,
 * not by the OpenAPI document the checked test client validates against, so these
 * requests go out as sent. A body is JSON, as `contentType` (default application/scim+json)
 * unless the headers name a type; `defaultType: false` sends none (to see what the server does then).
 */
import http from 'node:http';

export interface ScimResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

export interface ScimRequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  contentType?: string;
  defaultType?: boolean;
}

export function scimRequest(baseUrl: string, method: string, path: string, options: ScimRequestOptions = {}): Promise<ScimResponse> {
  const url = new URL(baseUrl);
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | undefined;
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    if (options.defaultType !== false) headers['content-type'] ??= options.contentType ?? 'application/scim+json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text === '' ? undefined : JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}
