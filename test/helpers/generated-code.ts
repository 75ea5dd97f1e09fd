/** What the generated-client tests do with a generated client's folder: type-check it strictly, bundle it, import it. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { REPO_ROOT } from './child-server.js';
import { runProcess } from './run-process.js';

const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** Runs tsc with `strict` over `include` (paths in `folder`), as a project using the client would; fails with tsc's output. */
export async function assertTypeChecksStrictly(folder: string, include: string[]): Promise<void> {
  writeFileSync(
    join(folder, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler', lib: ['es2022', 'dom', 'dom.iterable'], skipLibCheck: true }, include }),
  );
  const { code, stdout, stderr } = await runProcess(process.execPath, [TSC, '-p', folder], { cwd: folder, env: process.env });
  assert.equal(code, 0, `${stdout}\n${stderr}`);
}

/** Bundles `entry` (in `folder`) with esbuild for Node.js and imports the bundle. */
export async function importBundled<T>(folder: string, entry: string): Promise<T> {
  const outfile = join(folder, `${entry.replace(/\.ts$/, '')}.bundle.mjs`);
  await build({ entryPoints: [join(folder, entry)], bundle: true, format: 'esm', platform: 'node', target: 'node20', outfile, logLevel: 'silent' });
  return (await import(pathToFileURL(outfile).href)) as T;
}
