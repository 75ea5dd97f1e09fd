/**
 * The typed client's types, generated from the service's own OpenAPI document
 * with openapi-typescript, so the client cannot drift from the server:
 * `npm run generate:client-types` rewrites packages/client/src/openapi-types.ts
 * (the client package, packages/client, has no dependency on the service: the
 * generator lives here, beside what it reads), and
 * test/client/client-types.test.ts fails when the committed file differs from
 * what the current document generates.
 */
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openSqliteUserStore } from '../src/store/sqlite/sqlite-user-store.js';

/** Where the generated types live, from the repository root. */
export const CLIENT_TYPES_PATH = join('packages', 'client', 'src', 'openapi-types.ts');

const HEADER = `/**
 * Types of the service's HTTP API, generated from its OpenAPI document by
 * openapi-typescript. Do not edit: run \`npm run generate:client-types\`.
 */
/* eslint-disable */
`;

/** The document the service serves with its default settings (authentication off changes only \`security\`). */
export async function defaultDocument(): Promise<Record<string, unknown>> {
  const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), store: openSqliteUserStore({ path: ':memory:' }) });
  try {
    await app.ready();
    return app.swagger() as Record<string, unknown>;
  } finally {
    await app.close();
  }
}

/** The source of packages/client/src/openapi-types.ts for `document`. */
export async function clientTypesSource(document: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(structuredClone(document) as never, { alphabetize: false });
  return HEADER + astToString(ast);
}

async function main(): Promise<void> {
  const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
  const target = join(root, CLIENT_TYPES_PATH);
  writeFileSync(target, await clientTypesSource(await defaultDocument()));
  process.stdout.write(`wrote ${CLIENT_TYPES_PATH}\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) await main();
