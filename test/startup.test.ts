/**
 * CONTRACT §7 and §8 at process level: bad configuration stops the process with
 * one line naming the setting and a non-zero exit, and so does a store that fails
 * as it opens (never an uncaught error with a stack); the defaults give a working
 * service with its SQLite file at ./data/users.db; the schema is created on start;
 * the operator routes of §2 answer. The service runs as a real child process.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from '../src/store/sqlite/sqlite-driver.js';
import { spawnChildServer, startChildServer, type ChildServer, type StartedChildServer } from './helpers/child-server.js';
import { newUser } from './helpers/test-server.js';
import { createTestDatabase, postgresSkipReason, type TestDatabase } from './helpers/postgres.js';

const postgresSkip = await postgresSkipReason();

const children: ChildServer[] = [];
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'user-service-startup-'));
  dirs.push(dir);
  return dir;
}

function track<T extends ChildServer>(child: T): T {
  children.push(child);
  return child;
}

after(async () => {
  await Promise.all(children.map((child) => child.dispose()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('bad configuration stops the process', () => {
  /** The setting that is wrong, and the environment that gets it wrong (given the test's own empty folder). */
  const cases: Array<[string, Record<string, string> | ((dir: string) => Record<string, string>)]> = [
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['DATABASE_URL', (dir) => ({ DATABASE_URL: `sqlite:${dir}` })],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://%zz@127.0.0.1/x' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['HOST', { HOST: '0.0.0.0' }],
    ['BODY_LIMIT', { BODY_LIMIT: '-1' }],
    // Checked as read, before any connection: no PostgreSQL is needed to refuse it.
    ['PG_STATEMENT_TIMEOUT_MS', { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', PG_STATEMENT_TIMEOUT_MS: '1' }],
  ];
  for (const [setting, envOf] of cases) {
    const envIn = (dir: string) => (typeof envOf === 'function' ? envOf(dir) : envOf);
    const shown = Object.entries(envIn('<an existing folder>')).map(([name, value]) => `${name}=${value}`).join(' ');
    it(`refuses ${shown} with a non-zero exit and one stderr line naming ${setting}`, async () => {
      const dir = tempDir();
      const env = envIn(dir);
      const child = track(spawnChildServer({ cwd: dir, env: { DATABASE_URL: `sqlite:${join(dir, 'users.db')}`, ...env } }));
      const exit = await child.waitForExit(10_000);
      assert.equal(exit.signal, null, child.describe());
      assert.notEqual(exit.code, 0, child.describe());
      assert.notEqual(exit.code, null, child.describe());
      const lines = child.stderr().split('\n').filter((line) => line.trim() !== '');
      assert.equal(lines.length, 1, `expected exactly one stderr line: ${child.describe()}`);
      assert.match(lines[0]!, new RegExp(`\\b${setting}\\b`), `the line must name ${setting}`);
      assert.equal(child.logs().some((record) => /listening/i.test(String(record.msg))), false, 'it must not have listened');
    });
  }
});

/** The stderr lines of a child, and whether any looks like a stack frame or Node's report of an uncaught error. */
function stderrLines(child: ChildServer): { lines: string[]; stack: boolean } {
  const lines = child.stderr().split('\n').filter((line) => line.trim() !== '');
  return { lines, stack: lines.some((line) => /^\s+at\s|triggerUncaughtException|^Node\.js v\d|^\s*\^\s*$/.test(line)) };
}

describe('a bad store setting is one line, never an uncaught error', () => {
  it('PG_STATEMENT_TIMEOUT_MS=1 exits 2 with the configuration error naming it and why', async () => {
    const dir = tempDir();
    const child = track(spawnChildServer({ cwd: dir, env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', PG_STATEMENT_TIMEOUT_MS: '1' } }));
    assert.deepEqual(await child.waitForExit(10_000), { code: 2, signal: null }, child.describe());
    const { lines, stack } = stderrLines(child);
    assert.equal(lines.length, 1, child.describe());
    assert.match(lines[0]!, /^user-service: configuration error: PG_STATEMENT_TIMEOUT_MS: must be an integer from 100 to 3600000, got "1" \(.+\)$/);
    assert.equal(stack, false, child.describe());
  });

  describe('a store that fails as it opens (PostgreSQL)', { skip: postgresSkip }, () => {
    let db: TestDatabase;
    before(async () => {
      db = await createTestDatabase();
    });
    after(async () => {
      await db?.drop();
    });

    /** The URL of the test database with connection parameters of its own, which PG_* settings cannot check. */
    const urlWith = (parameters: Record<string, string>) => {
      const url = new URL(db.url);
      for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
      return url.toString();
    };

    // statement_timeout=1 in the URL reaches the server as PG_STATEMENT_TIMEOUT_MS=1 did: the driver's own first
    // query on a connection is cancelled, and its error reached no caller (an uncaught error with a stack).
    const cases: Array<[string, Record<string, string>, RegExp]> = [
      ['a statement timeout of 1 ms set in DATABASE_URL (the driver\'s first query and the migration are cancelled)', { statement_timeout: '1' }, /statement timeout/],
      ['a read-only session set in DATABASE_URL (the migration is refused)', { default_transaction_read_only: 'on' }, /read-only transaction/],
    ];
    for (const [what, parameters, cause] of cases) {
      it(`${what}: exit 1, one stderr line naming DATABASE_URL and the cause, no stack`, async () => {
        const dir = tempDir();
        const child = track(spawnChildServer({ cwd: dir, env: { DATABASE_URL: urlWith(parameters) } }));
        const exit = await child.waitForExit(15_000);
        assert.deepEqual(exit, { code: 1, signal: null }, child.describe());
        const { lines, stack } = stderrLines(child);
        assert.equal(lines.length, 1, `expected exactly one stderr line: ${child.describe()}`);
        assert.match(lines[0]!, /^user-service: cannot start: DATABASE_URL: PostgreSQL at [^:]+:\d+\/\w+: /);
        assert.match(lines[0]!, cause);
        assert.equal(stack, false, child.describe());
        assert.equal(child.logs().some((record) => /listening/i.test(String(record.msg))), false, 'it must not have listened');
      });
    }
  });
});

describe('start-up', () => {
  it('serves on HOST=0.0.0.0 when ALLOW_UNAUTHENTICATED=true', async () => {
    const dir = tempDir();
    const server = track(
      await startChildServer({ cwd: dir, env: { HOST: '0.0.0.0', ALLOW_UNAUTHENTICATED: 'true', DATABASE_URL: `sqlite:${join(dir, 'users.db')}` } }),
    );
    const health = await server.get('/healthz');
    assert.equal(health.status, 200);
    assert.equal((await server.post('/users', newUser())).status, 201);
  });

  it('stores users in ./data/users.db relative to its working directory when DATABASE_URL is unset, and keeps them over a restart', async () => {
    const dir = tempDir();
    const env = { DATABASE_URL: undefined };
    const first = track(await startChildServer({ cwd: dir, env }));
    assert.ok(existsSync(join(dir, 'data', 'users.db')), `expected ${join(dir, 'data', 'users.db')}: ${first.describe()}`);
    const created = await first.post('/users', newUser());
    assert.equal(created.status, 201, created.text);
    first.kill('SIGTERM');
    assert.deepEqual(await first.waitForExit(), { code: 0, signal: null }, first.describe());

    const second = track(await startChildServer({ cwd: dir, env }));
    const read = await second.get(`/users/${created.body.uid}`);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body, created.body);
  });

  it('creates the schema on start, before any request', async () => {
    const dir = tempDir();
    const path = join(dir, 'fresh.db');
    const server = track(await startChildServer({ cwd: dir, env: { DATABASE_URL: `sqlite:${path}` } }));
    // /healthz never touches the store. It also lets the signal handlers get installed: the service
    // logs its listening line before it handles SIGTERM, so a SIGTERM sent at once may kill it outright.
    assert.equal((await server.get('/healthz')).status, 200);
    server.kill('SIGTERM');
    assert.deepEqual(await server.waitForExit(), { code: 0, signal: null }, server.describe());
    const db = new Database(path, { readonly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
      assert.ok(tables.length > 0, 'the database file has no tables after start');
    } finally {
      db.close();
    }
  });
});

describe('operator routes', () => {
  let server: StartedChildServer;
  before(async () => {
    const dir = tempDir();
    server = track(await startChildServer({ cwd: dir, env: { DATABASE_URL: `sqlite:${join(dir, 'users.db')}` } }));
  });

  it('answers GET /healthz with 200', async () => {
    assert.equal((await server.get('/healthz')).status, 200);
  });

  it('answers GET /readyz with 200 on a working store', async () => {
    assert.equal((await server.get('/readyz')).status, 200);
  });

  it('serves an OpenAPI 3.1 document listing the user routes and the User schema', async () => {
    const response = await server.get('/openapi.json');
    assert.equal(response.status, 200);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    const doc = response.body;
    assert.match(String(doc.openapi), /^3\.1\.\d+$/);
    for (const [path, methods] of [['/users', ['get', 'post']], ['/users/{ref}', ['get', 'put', 'delete']]] as const) {
      for (const method of methods) assert.ok(doc.paths?.[path]?.[method], `the document lacks ${method.toUpperCase()} ${path}`);
    }
    const user = doc.components?.schemas?.User;
    assert.ok(user, 'components.schemas.User is missing');
    for (const field of ['uid', 'username', 'email_address', 'legacy_ids', 'display_name', 'attributes', 'created_at', 'updated_at', 'version']) {
      assert.ok(user.properties?.[field], `User schema lacks ${field}`);
    }
    const read = JSON.stringify(doc.paths['/users/{ref}'].get.responses['200']);
    assert.match(read, /#\/components\/schemas\/User/, 'GET /users/{ref} must answer with the User schema');
    const created = JSON.stringify(doc.paths['/users'].post.responses['201']);
    assert.match(created, /#\/components\/schemas\/User/, 'POST /users must answer with the User schema');
  });

  it('documents DELETE /users/{ref} with a 204 and problem responses, and lists /healthz and /readyz', async () => {
    const doc = (await server.get('/openapi.json')).body;
    const problem = doc.components?.schemas?.Problem;
    assert.ok(problem, 'components.schemas.Problem is missing');
    for (const member of ['type', 'title', 'status', 'detail', 'instance']) {
      assert.ok(problem.properties?.[member], `Problem lacks ${member}`);
      assert.ok(problem.required?.includes(member), `Problem must require ${member}`);
    }
    const responses = doc.paths?.['/users/{ref}']?.delete?.responses;
    assert.ok(responses, 'the document lacks DELETE /users/{ref}');
    assert.ok(responses['204'], 'DELETE /users/{ref} must document its 204');
    assert.equal(responses['204'].content, undefined, 'a 204 has no content');
    for (const status of ['404', '405', '412']) {
      assert.deepEqual(
        responses[status]?.content,
        { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        `DELETE /users/{ref} ${status} must be an application/problem+json Problem`,
      );
    }
    for (const path of ['/healthz', '/readyz']) {
      assert.ok(doc.paths?.[path]?.get?.responses?.['200'], `the document lacks GET ${path} and its 200`);
    }
    assert.deepEqual(
      doc.paths['/readyz'].get.responses['503']?.content,
      { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      '/readyz documents its 503 as a Problem',
    );
  });
});
