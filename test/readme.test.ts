/**
 * The README's examples run as written, top to bottom, on a fresh store: its
 * shell blocks (the curl examples, then the command line) with bash against a
 * freshly started service, and its typed-client example with node, importing
 * the client package by its name. The blocks are the ones marked with an HTML
 * comment `<!-- readme-test: shell -->` or `<!-- readme-test: client -->` before
 * the fence. They run as a reader pastes them into a shell in a checkout after
 * `npm ci`: in a folder inside this checkout, with the PATH the tests have less
 * any folder holding a `user-service` command (a global `npm link`), so a
 * command the checkout does not provide fails here too.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT, startChildServer, type StartedChildServer } from './helpers/child-server.js';
import { runProcess } from './helpers/run-process.js';

/** The code of every fenced block that follows the marker `<!-- readme-test: KIND -->`, in order. */
function markedBlocks(readme: string, kind: 'shell' | 'client'): string[] {
  const marker = new RegExp(`<!-- readme-test: ${kind} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\`\\n`, 'g');
  return [...readme.matchAll(marker)].map((match) => match[1]!);
}

const run = runProcess;

describe('README examples', () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  // Inside the checkout (dist/ is ignored by git), where `npx user-service` finds the checkout's own command.
  const work = mkdtempSync(join(REPO_ROOT, 'dist', 'readme-'));
  let server: StartedChildServer;
  let env: Record<string, string>;

  before(async () => {
    // A fresh store: the default ./data/users.db of the service's working directory, which the shell blocks share.
    server = await startChildServer({ cwd: work, env: { DATABASE_URL: undefined } });
    const path = (process.env.PATH ?? '/usr/bin:/bin').split(delimiter).filter((dir) => !existsSync(join(dir, 'user-service')));
    env = {
      PATH: path.join(delimiter),
      HOME: process.env.HOME ?? work,
      B: `http://127.0.0.1:${server.port}`,
      // npx must find the command in the checkout: offline, it fails rather than fetch a package of that name from a registry.
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
    };
  });
  after(async () => {
    await server?.dispose();
    rmSync(work, { recursive: true, force: true });
  });

  it('leads with what the service is, its two commands and where the console, SCIM and the docs are; the Node.js and driver detail has its own heading', () => {
    const firstScreen = readme.slice(0, readme.indexOf('\n## '));
    assert.match(firstScreen, /^# user-service\n\nThe user directory: /);
    assert.match(firstScreen, /^npm install && npm start\b/m);
    assert.match(firstScreen, /^npm test\b/m);
    for (const place of ['/console', '/scim/v2', 'docs/scim.md', 'docs/api.md', 'docs/security.md', 'docs/console.md', 'docs/import.md']) assert.ok(firstScreen.includes(place), place);
    assert.ok(firstScreen.split('\n').length <= 40, 'it fits on a screen');
    assert.doesNotMatch(firstScreen, /better-sqlite3|Node-API|overrides/, 'the version matrix is further down');
    const requirements = readme.indexOf('\n## Requirements and Node.js versions\n');
    assert.ok(requirements > 0 && readme.indexOf('better-sqlite3 13 (built on') > requirements);
    // The console's API-key setup is in one place, step by step.
    const setup = readme.slice(readme.indexOf('### Signing in to the console with an API key'));
    assert.match(setup, /openssl rand -hex 32[\s\S]*sha256sum[\s\S]*AUTH_MODE=api-key API_KEYS_FILE=[\s\S]*\/console/);
  });

  it('marks three shell blocks and one client block', () => {
    assert.equal(markedBlocks(readme, 'shell').length, 3);
    assert.equal(markedBlocks(readme, 'client').length, 1);
  });

  it('the curl examples succeed top to bottom against a fresh service', async () => {
    const [curls] = markedBlocks(readme, 'shell');
    const result = await run('bash', ['-e', '-u', '-o', 'pipefail'], { cwd: work, env, input: curls });
    assert.equal(result.code, 0, `stderr: ${result.stderr}\nstdout: ${result.stdout}`);
    const statuses = [...result.stdout.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
    assert.ok(statuses.filter((status) => status === 200).length >= 12, `statuses: ${statuses}`);
    assert.ok(statuses.includes(304), 'the conditional read answers 304');
    assert.ok(statuses.includes(204), 'the delete answers 204');
    assert.match(result.stdout, /(^|[^0-9])404\n/, 'the user is gone after the delete');
    assert.match(result.stdout, /"legacy_ids":\["A-1001","crm:77","dept\/42"\]/, 'the searches find the user before it is deleted');
    assert.match(result.stdout, /"legacy_ids":\["A-1001"\],"external_id":null,"active":true,"display_name":null/, 'the PUT replaced the user, legacy_id as shorthand');
    assert.match(readFileSync(join(work, 'openapi.json'), 'utf8'), /"openapi":\s*"3\.1\.0"/);
    assert.match(result.stdout, /^id: 1\ndata: \{"specversion":"1\.0","source":"\/users","id":"1","type":"user\.created"/m, 'the stream sends the first create as an SSE event');
  });

  it('the SCIM sessions succeed on the same store, one directory behind both doors', async () => {
    const [, scim] = markedBlocks(readme, 'shell');
    const result = await run('bash', ['-e', '-u', '-o', 'pipefail'], { cwd: work, env, input: scim });
    assert.equal(result.code, 0, `stderr: ${result.stderr}\nstdout: ${result.stdout}`);
    assert.match(result.stdout, /"totalResults":0,"startIndex":1,"itemsPerPage":0,"Resources":\[\]/, 'the existence checks find no one');
    assert.match(result.stdout, /"username":"dana@example\.com","email_address":"dana@example\.com"/, 'the SCIM user is read through the REST door');
    assert.match(result.stdout, /\[\{"uid":"[0-9a-f-]{36}","username":"dana@example\.com","email_address":"dana@example\.com","legacy_ids":\[\],"external_id":"00u1dana","active":false,/, 'the deactivated user is listed by active=false');
    assert.match(result.stdout, /"familyName":"Scully-Mulder"/, "Okta's PUT updated the user");
    assert.match(result.stdout, /"title":"Special Agent","active":true/, "Entra's reactivation answers the active user");
    assert.match(
      result.stdout,
      /\{"uid":"[0-9a-f-]{36}","username":"fox@example\.com","email_address":"fox@example\.com","legacy_ids":\[\],"external_id":"fox","active":false,"display_name":"Fox Mulder","name":\{"family_name":"Mulder","given_name":"Fox"\},"nick_name":null,"title":"Special Agent",.*"phone_numbers":\[\{"value":"\+1 202 555 0143","type":"mobile","primary":false\}\],"addresses":\[\],"employee_number":"1013",.*"department":"X-Files"/,
      "Entra's patch shows through the REST door",
    );
    assert.doesNotMatch(result.stdout, /t1meMa\$heen/, 'the password is never returned');
  });

  it('the command-line examples succeed on the same store', async () => {
    const [, , commands] = markedBlocks(readme, 'shell');
    const result = await run('bash', ['-e', '-u', '-o', 'pipefail'], { cwd: work, env, input: commands });
    assert.equal(result.code, 0, `stderr: ${result.stderr}\nstdout: ${result.stdout}`);
    assert.match(result.stdout, /^created 0, updated 0, unchanged \d+, skipped 0, rejected 0 /m);
    assert.match(result.stdout, /^Usage: user-service import FILE/m);
  });

  it('the typed-client example runs, importing the package by its name, and type-checks as TypeScript', async () => {
    const [client] = markedBlocks(readme, 'client');
    // Inside the checkout, so `import … from '@user-service/client'` resolves to the workspace package, as in a project that installed it.
    const examples = join(REPO_ROOT, 'dist', 'readme-examples');
    mkdirSync(examples, { recursive: true });
    writeFileSync(join(examples, 'client.mjs'), client!);
    writeFileSync(join(examples, 'client.mts'), client!);
    const result = await run(process.execPath, [join(examples, 'client.mjs')], { cwd: work, env: { ...env, USERS_URL: env.B! } });
    assert.equal(result.code, 0, `stderr: ${result.stderr}\nstdout: ${result.stdout}`);
    assert.match(result.stdout, /^[0-9a-f-]{36} Carol C\.$/m, 'the search found the renamed user');
    assert.match(result.stdout, /^404 \/problems\/not-found$/m);
    assert.match(result.stdout, /^3 user\.\w+ [0-9a-f-]{36}$/m, 'the feed followed after the first page');
    const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const flags = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node', '--skipLibCheck'];
    const check = await run(process.execPath, [tsc, ...flags, join(examples, 'client.mts')], { cwd: REPO_ROOT, env });
    assert.equal(check.code, 0, `tsc: ${check.stdout}${check.stderr}`);
  });
});
