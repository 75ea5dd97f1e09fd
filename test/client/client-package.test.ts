/**
 * The client package as a team gets it: `npm pack` of packages/client, the
 * tarball installed into an empty project that has nothing else of ours (offline:
 * the package has no dependency to fetch), a TypeScript file importing it
 * type-checked strictly (moduleResolution nodenext; once with the DOM library and
 * no Node.js types, once with @types/node alone), compiled, and run against a
 * real service.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT, startChildServer, type StartedChildServer } from '../helpers/child-server.js';
import { runProcess } from '../helpers/run-process.js';

const PACKAGE_DIR = join(REPO_ROOT, 'packages', 'client');
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** `command` in `cwd`, with npm's update notice off. */
const run = (command: string, args: string[], cwd: string) => runProcess(command, args, { cwd, env: { ...process.env, npm_config_update_notifier: 'false' } });

/** A consumer's program: it calls the service through the package and prints what it got. */
const CONSUMER = (baseUrl: string) => `
import { createUserClient, UserServiceError, type User, type UserPatch } from '@user-service/client';

const users = createUserClient({ baseUrl: ${JSON.stringify(baseUrl)} });
const { user, etag } = await users.create({ username: 'packed', email_address: 'packed@example.com' });
const patched = await users.patch(user.uid, { display_name: 'Packed' }, { ifMatch: etag });
const found: User = (await users.lookup('username', 'PACKED')).user;
// @ts-expect-error the service refuses a null username, and the type says so
const refused: UserPatch = { username: null };
const problem = await users.patch(user.uid, refused).then(
  () => undefined,
  (error: unknown) => (error instanceof UserServiceError ? { status: error.status, type: error.type } : { error: String(error) }),
);
console.log(JSON.stringify({ same: found.uid === user.uid, display_name: patched.user.display_name, version: patched.user.version, problem }));
`;

describe('the client package, packed and installed into an empty project', () => {
  const dir = mkdtempSync(join(tmpdir(), 'user-client-pack-'));
  const project = join(dir, 'project');
  let server: StartedChildServer;
  let tarball: string;
  let packed: string[];

  before(async () => {
    // --ignore-scripts: the suite's build made dist/ moments ago, and a prepack rebuild would
    // rewrite modules that other test files are loading. A team runs the plain `npm pack`.
    const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], PACKAGE_DIR);
    assert.equal(pack.code, 0, pack.stderr);
    const [report] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = join(dir, report!.filename);
    packed = report!.files.map((file) => file.path).sort();
    server = await startChildServer({ cwd: dir, env: { DATABASE_URL: 'sqlite::memory:' } });
  });
  after(async () => {
    await server?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('packs the built modules, their declarations, the README and package.json, nothing else', () => {
    for (const file of ['README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/user-client.js', 'dist/openapi-types.d.ts']) assert.ok(packed.includes(file), `${file} in ${packed}`);
    assert.deepEqual(packed.filter((file) => !/^dist\/[\w-]+\.(js|d\.ts)$/.test(file) && file !== 'README.md' && file !== 'package.json'), []);
  });

  it('installs offline with no dependency and no warning', async () => {
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const install = await run('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], project);
    assert.equal(install.code, 0, install.stderr);
    // npm's own notice that it is newer than this Node.js supports (npm 11 run by Node.js 20.12 in
    // scripts/test-on-node.sh) is about npm, not the package; any other warning fails.
    const warnings = install.stderr.split('\n').filter((line) => /^npm warn /i.test(line) && !/^npm warn cli npm v/i.test(line));
    assert.deepEqual(warnings, []);
    assert.deepEqual(readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.')), ['@user-service']);
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', '@user-service', 'client', 'package.json'), 'utf8'));
    assert.equal(manifest.dependencies, undefined, 'no runtime dependency');
    assert.equal(manifest.engines.node, JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).engines.node, "the service's Node.js range");
  });

  it('type-checks strictly under nodenext, with the DOM library or with @types/node, and calls the service', async () => {
    writeFileSync(join(project, 'main.mts'), CONSUMER(server.baseUrl));
    const compilerOptions = { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', outDir: 'out', skipLibCheck: false };
    // With the DOM library and no Node.js types (fetch, streams and AbortSignal from the DOM): compile.
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, lib: ['es2022', 'dom'], types: [] }, files: ['main.mts'] }));
    const dom = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], project);
    assert.equal(dom.code, 0, `tsc (DOM): ${dom.stdout}${dom.stderr}`);
    // With @types/node alone, as a Node.js service has it (the repository's copy: the project has no network).
    const typeRoots = [join(REPO_ROOT, 'node_modules', '@types')];
    writeFileSync(join(project, 'tsconfig.node.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, lib: ['es2022'], types: ['node'], typeRoots, noEmit: true }, files: ['main.mts'] }));
    const node = await run(process.execPath, [TSC, '-p', 'tsconfig.node.json'], project);
    assert.equal(node.code, 0, `tsc (@types/node): ${node.stdout}${node.stderr}`);

    const result = await run(process.execPath, [join('out', 'main.mjs')], project);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { same: true, display_name: 'Packed', version: 2, problem: { status: 400, type: '/problems/validation-failed' } });
  });
});
