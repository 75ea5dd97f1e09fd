/**
 * Default deny under attack (CONTRACT §8): every route of Fastify's own route
 * table that needs a credential, under every spelling of its path an attacker
 * would try, in both authentication modes, with no credential and with a
 * credential lacking the scope. Never a 2xx, never a handler run, never a write
 * (the store and the audit trail are unchanged). Built from the route table, so
 * a route added later is attacked without anyone listing it here.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { RouteOptions } from 'fastify';
import fc from 'fast-check';
import { isPublic, scopeOfMethod } from '../../src/http/route-access.js';
import type { RouteEntry } from '../../src/http/route-table.js';
import type { User } from '../../src/users/user.js';
import { AUDIENCE, ISSUER, apiKeysFixture, jwtFixture, type ApiKeysFixture, type JwtFixture } from '../helpers/auth-fixtures.js';
import type { TestResponse } from '../helpers/http-client.js';
import { captureLogs, type LogCapture } from '../helpers/log-capture.js';
import { describeEachStore, type StoreKind } from '../helpers/stores.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { concretePaths, methodsOf, percent, spellingsOf, type Samples } from './spellings.js';

type Mode = 'api-key' | 'jwt';

/** The credentials of one mode: an admin, and one holding only the given scope. */
interface Credentials {
  admin: Record<string, string>;
  only(scope: 'users:read' | 'users:write'): Record<string, string>;
}

interface Target {
  server: TestServer;
  logs: LogCapture;
  handlerRuns: string[];
  credentials: Credentials;
  samples: Samples;
  cleanup(): Promise<void>;
}

async function startTarget(kind: StoreKind, mode: Mode): Promise<Target> {
  const logs = captureLogs();
  const handlerRuns: string[] = [];
  // Every handler is wrapped: a run is recorded before it does anything.
  const onRoute = (route: RouteOptions) => {
    const handler = route.handler;
    route.handler = function (this: unknown, request, reply) {
      handlerRuns.push(`${request.method} ${route.url}`);
      return handler.call(this as never, request, reply);
    };
  };
  let keys: ApiKeysFixture | undefined;
  let jwt: JwtFixture | undefined;
  let env: Record<string, string>;
  let credentials: Credentials;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  if (mode === 'api-key') {
    keys = apiKeysFixture();
    env = { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file };
    const k = keys.keys;
    credentials = { admin: bearer(k.admin), only: (scope) => bearer(scope === 'users:read' ? k.reader : k.writer) };
  } else {
    jwt = await jwtFixture();
    env = { AUTH_MODE: 'jwt', JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, JWT_JWKS_FILE: jwt.jwksFile };
    const [admin, reader, writer] = await Promise.all([jwt.token(), jwt.token({ scope: 'users:read' }), jwt.token({ scope: 'users:write' })]);
    credentials = { admin: bearer(admin), only: (scope) => bearer(scope === 'users:read' ? reader : writer) };
  }
  const server = await startTestServer({ store: kind, env: { ...env, LOG_LEVEL: 'info' }, app: { logStream: logs.stream, onRoute } });
  const created = await server.post('/users', { username: 'target', email_address: 'target@example.com', legacy_ids: ['crm:77'] }, credentials.admin);
  assert.equal(created.status, 201, created.text);
  const user = created.body as User;
  return {
    server,
    logs,
    handlerRuns,
    credentials,
    samples: { uid: user.uid, username: user.username, legacyId: 'crm:77' },
    async cleanup() {
      await server.close();
      keys?.cleanup();
      jwt?.cleanup();
    },
  };
}

/** Every user with its version, page by page, as the store holds them. */
async function snapshot(target: Target): Promise<User[]> {
  const users: User[] = [];
  let after: string | undefined;
  for (;;) {
    const { value: page } = await target.server.store.search({ filter: {}, ...(after ? { after } : {}), limit: 500 });
    users.push(...page);
    if (page.length < 500) return users;
    after = page[page.length - 1]!.uid;
  }
}

/** A JSON body for methods that carry one, so a refusal cannot be blamed on its absence. */
function optionsFor(method: string, headers: Record<string, string>) {
  return ['POST', 'PUT', 'PATCH'].includes(method) ? { headers, json: { username: 'mallory', email_address: 'mallory@example.com' } } : { headers };
}

/**
 * A spelling that misses its route is refused by whatever it reaches instead: nothing, a
 * malformed target, a route of another scope, or a path where its method is not defined
 * (405: `/scim/v2/Users/.search;x` is `/scim/v2/Users/{id}`, which takes no POST). Never a 2xx.
 */
const REFUSED_ELSEWHERE = [400, 401, 403, 404, 405, 414];

function describeRequest(method: string, target: string, who: string, res: TestResponse): string {
  return `${who}: ${method} ${target.length > 120 ? `${target.slice(0, 120)}…` : target} → ${res.status} ${res.text.slice(0, 200)}`;
}

/** The protected entries of the route table. */
function protectedRoutes(server: TestServer): RouteEntry[] {
  return server.app.routeTable.filter((entry) => !isPublic(entry.access));
}

for (const mode of ['api-key', 'jwt'] as const) {
  describeEachStore(`attack spellings, AUTH_MODE=${mode}`, (kind) => {
    let target: Target;
    let before_: User[];
    before(async () => {
      target = await startTarget(kind, mode);
      before_ = await snapshot(target);
      target.logs.clear();
      target.handlerRuns.length = 0;
    });
    after(() => target.cleanup());

    /** Sends every spelling of every protected route's paths with `who`'s headers, checking each answer. */
    async function attack(who: 'no credential' | 'wrong scope', depth: 'all' | 'some', spellingsFor: (path: string, fixed: number) => { reaching: string[]; other: string[] }) {
      const routes = protectedRoutes(target.server);
      assert.ok(routes.length >= 8, `the route table lists the protected routes: ${routes.map((r) => `${r.methods.join('|')} ${r.url}`).join(', ')}`);
      let sent = 0;
      for (const entry of routes) {
        // A route open to any valid credential (GET /credential) has no wrong scope: only the missing credential applies.
        if (who === 'wrong scope' && entry.access === 'credential') continue;
        for (const method of methodsOf(entry, depth)) {
          const scope = entry.access === 'users:read' || entry.access === 'users:write' ? entry.access : scopeOfMethod(method);
          // With the wrong scope: a credential holding only the other one.
          const headers = who === 'no credential' ? {} : target.credentials.only(scope === 'users:read' ? 'users:write' : 'users:read');
          const expected = who === 'no credential' ? 401 : 403;
          for (const { path, fixedLength } of concretePaths(entry.url, target.samples)) {
            const { reaching, other } = spellingsFor(path, fixedLength);
            for (const spelling of reaching) {
              const res = await target.server.request(method, spelling, optionsFor(method, headers));
              sent++;
              assert.equal(res.status, expected, describeRequest(method, spelling, who, res));
              assert.match(String(res.headers['www-authenticate']), /^Bearer realm="user-service"/, describeRequest(method, spelling, who, res));
            }
            for (const spelling of other) {
              const res = await target.server.request(method, spelling, optionsFor(method, headers));
              sent++;
              assert.ok(REFUSED_ELSEWHERE.includes(res.status), describeRequest(method, spelling, who, res));
            }
          }
        }
      }
      return sent;
    }

    /** Nothing ran, nothing changed, nothing was audited as done. */
    async function assertUntouched() {
      assert.deepEqual(target.handlerRuns, [], 'no handler ran');
      assert.deepEqual(await snapshot(target), before_, 'the store is unchanged');
      const audits = target.logs.records().filter((r) => r.msg === 'audit');
      // Refusals only: 401, 403, or a 405 from a path where the method is not defined (REFUSED_ELSEWHERE).
      for (const { audit } of audits) assert.ok([401, 403, 405].includes(audit.status), `an audited write succeeded: ${JSON.stringify(audit)}`);
    }

    it('with no credential: every spelling of every protected route is a 401 or misses every route', async () => {
      const sent = await attack('no credential', 'some', spellingsOf);
      assert.ok(sent > 500, `sent ${sent}`);
      await assertUntouched();
    });

    it('with a credential lacking the scope: every spelling is a 403 or misses every route', async () => {
      await attack('wrong scope', 'some', spellingsOf);
      await assertUntouched();
    });

    it('every method of every protected route, in its plain and encoded spellings, is refused before any handler', async () => {
      const few = (path: string, fixed: number) => {
        const all = spellingsOf(path, fixed);
        return { reaching: all.reaching.filter((s, i) => i === 0 || s.startsWith('http://anything/') || s === all.reaching[1]), other: [] };
      };
      await attack('no credential', 'all', few);
      await attack('wrong scope', 'all', few);
      await assertUntouched();
    });

    it('property: any percent-encoding of any character of a protected path is refused without a credential', async () => {
      const routes = protectedRoutes(target.server);
      const paths = routes.flatMap((entry) => concretePaths(entry.url, target.samples).map(({ path }) => ({ entry, path })));
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...paths),
          fc.array(fc.constantFrom('keep', 'upper', 'lower'), { minLength: 64, maxLength: 64 }),
          fc.constantFrom('', 'http://anything', 'https://x:8443'),
          async ({ entry, path }, choices, origin) => {
            const spelled = [...path].map((ch, i) => (ch === '/' || choices[i % choices.length] === 'keep' ? ch : percent(ch, choices[i % choices.length] === 'upper'))).join('');
            const method = entry.methods[0] as string;
            const res = await target.server.request(method, origin + spelled, optionsFor(method, {}));
            return res.status === 401;
          },
        ),
        { numRuns: 150, seed: 20261122 },
      );
      await assertUntouched();
    });
  });
}
