/**
 * A raw HTTP client for tests: sends the path exactly as written (no URL
 * normalisation, so broken percent-encodings and odd segments reach the server)
 * and returns status, headers and body. Every response is checked against the
 * OpenAPI document the same server serves (openapi-validator.ts); a response the
 * document does not declare fails the test that received it.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { documentFor, responseProblems } from './openapi-validator.js';

export interface TestResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The parsed body, or undefined when it is empty or not JSON. */
  body: any;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** A value is sent as JSON with content-type application/json; a string is sent as is. */
  json?: unknown;
  body?: string | Buffer;
}

/** Sends the request and checks the response against the server's OpenAPI document. */
export async function request(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
  const checks = await documentFor(baseUrl, () => fetchDocument(baseUrl));
  const response = await send(baseUrl, method, path, options);
  const problems = responseProblems(checks, method, path, response);
  if (problems.length > 0) {
    assert.fail(`the response breaks the OpenAPI document: ${method} ${path.slice(0, 200)} → ${response.status} ${response.text.slice(0, 300)}\n${problems.join('\n')}`);
  }
  return response;
}

/** GET /openapi.json of a server, unchecked. */
export async function fetchDocument(baseUrl: string): Promise<Record<string, any>> {
  const response = await send(baseUrl, 'GET', '/openapi.json');
  if (response.status !== 200) throw new Error(`cannot fetch ${baseUrl}/openapi.json: ${response.status} ${response.text.slice(0, 200)}`);
  return response.body;
}

/** Sends the request as written and returns the response, unchecked (SCIM answers: helpers/scim-client.ts). */
export function send(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
  const url = new URL(baseUrl);
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | Buffer | undefined = options.body;
  if (options.json !== undefined) {
    payload = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
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

/** A client bound to one server. */
export function clientFor(baseUrl: string) {
  return {
    baseUrl,
    request: (method: string, path: string, options?: RequestOptions) => request(baseUrl, method, path, options),
    get: (path: string, headers?: Record<string, string>) => request(baseUrl, 'GET', path, { headers }),
    post: (path: string, json: unknown, headers?: Record<string, string>) => request(baseUrl, 'POST', path, { json, headers }),
    put: (path: string, json: unknown, headers?: Record<string, string>) => request(baseUrl, 'PUT', path, { json, headers }),
    delete: (path: string, headers?: Record<string, string>) => request(baseUrl, 'DELETE', path, { headers }),
  };
}

export type TestClient = ReturnType<typeof clientFor>;
