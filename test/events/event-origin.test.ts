/**
 * The origin of every event (CONTRACT §11; docs/events.md, "Origin"), on both stores:
 * with AUTH_MODE=api-key and two keys (`hr-sync` and `console`, both users:read and
 * users:write), writes by both through REST (create, PUT, PATCH, DELETE), by `hr-sync`
 * through SCIM (create, PATCH, PUT, DELETE), and an import by the command line against
 * the same database. Each event's `origininterface` and `origincredential` name who
 * wrote it (an import: `import`, no credential); `exclude_origin` leaves out exactly one
 * origin's events from JSON pages (whose Link keeps the parameter and advances past the
 * events left out) and from streams; a bad value is a 400. The NATS relay's messages
 * carry the origin as headers. An event stored without an origin (as one written before
 * origins were kept) is never left out. With AUTH_MODE=jwt, a token's `sub` is the
 * credential and its `azp` the client.
 *
 * Nothing here waits for time: the store is settled, a stream is read until it holds the
 * expected count, and the NATS stream is polled until it holds the latest position.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { v7 as uuidv7 } from 'uuid';
import { withDefaults } from '../../src/users/user.js';
import { runCli } from '../cli/run-cli.js';
import { AUDIENCE, ISSUER, jwtFixture, type JwtFixture } from '../helpers/auth-fixtures.js';
import { NATS_URL, natsSkipReason, uniqueStream, type TestStream } from '../helpers/nats.js';
import { assertProblem } from '../helpers/problem-assertions.js';
import { scimRequest } from '../helpers/scim-client.js';
import { openEventStream } from '../helpers/sse-client.js';
import { describeEachStore } from '../helpers/stores.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

type Event = Record<string, any>;
/** What an event must say of its origin: [type, subject, interface, credential (null: none)]. */
type Expected = [type: string, subject: string, origininterface: string | null, origincredential: string | null];

/** Every message of a NATS stream: its headers (names in lower case) and its event. */
async function natsMessages(stream: string): Promise<{ headers: Record<string, string>; event: Event }[]> {
  const nc = await connect({ servers: NATS_URL });
  try {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(stream).catch(() => undefined);
    if (info === undefined) return [];
    const messages: { headers: Record<string, string>; event: Event }[] = [];
    for (let seq = info.state.first_seq; info.state.messages > 0 && seq <= info.state.last_seq; seq++) {
      const message = await jsm.streams.getMessage(stream, { seq });
      if (message === null) continue;
      const headers: Record<string, string> = {};
      for (const [name, values] of message.header) headers[name.toLowerCase()] = values.join(', ');
      messages.push({ headers, event: message.json() });
    }
    return messages;
  } finally {
    await nc.close();
  }
}

/** Each NATS message's Origin-* headers say what its event's origin attributes say (percent-encoded). */
async function assertNatsOrigins(server: TestServer, nats: TestStream, signal: AbortSignal, token: string): Promise<void> {
  const latest = await server.store.events.settle();
  const messages = await until(() => natsMessages(nats.stream), (m) => m.some((x) => x.headers['nats-msg-id'] === String(latest)), signal);
  assert.ok(messages.length > 0);
  const feed = (await server.get('/events?after=0&limit=1000', { authorization: `Bearer ${token}` })).body as Event[];
  const byId = new Map(feed.map((e) => [e.id, e]));
  for (const { headers, event } of messages) {
    assert.deepEqual(event, byId.get(event.id), 'the message is the feed event');
    assert.equal(headers['origin-interface'], event.origininterface, `event ${event.id}`);
    assert.equal(headers['origin-credential'], event.origincredential === undefined ? undefined : encodeURIComponent(event.origincredential), `event ${event.id}`);
    assert.equal(headers['origin-client'], event.originclient === undefined ? undefined : encodeURIComponent(event.originclient), `event ${event.id}`);
  }
}

/** The next-page URL of a Link header, parsed. */
function nextOf(link: unknown): URL {
  const match = /^<([^>]+)>; rel="next"$/.exec(String(link));
  assert.ok(match, `a Link rel="next": ${String(link)}`);
  return new URL(match[1]!, 'http://service.invalid');
}

const noNats = await natsSkipReason();

describeEachStore('event origins with AUTH_MODE=api-key', (kind) => {
  const dir = mkdtempSync(join(tmpdir(), 'origin-keys-'));
  const keys = { hr: `hk-${randomBytes(16).toString('hex')}`, console: `ck-${randomBytes(16).toString('hex')}` };
  const HR = 'hr-sync';
  const CONSOLE = 'console';
  const sha = (key: string) => createHash('sha256').update(key).digest('hex');
  const keysFile = join(dir, 'api-keys.json');
  writeFileSync(
    keysFile,
    JSON.stringify([
      { id: HR, sha256: sha(keys.hr), scopes: ['users:read', 'users:write'] },
      { id: CONSOLE, sha256: sha(keys.console), scopes: ['users:read', 'users:write'] },
    ]),
  );
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const nats = noNats ? undefined : uniqueStream();

  let server: TestServer;
  /** Every event's expected origin, in position order. */
  const expected: Expected[] = [];
  /** The subjects of the import's events (their order within the import is the import's). */
  let importEvents: Expected[] = [];
  let latest: number;
  let feed: Event[];

  const get = (path: string) => server.get(path, as(keys.console));
  const scim = (method: string, path: string, body?: unknown) => scimRequest(server.baseUrl, method, `/scim/v2${path}`, { body, headers: as(keys.hr) });

  async function createAs(key: string): Promise<Record<string, any>> {
    const res = await server.post('/users', newUser(), as(key));
    assert.equal(res.status, 201, res.text);
    return res.body;
  }
  async function put(key: string, user: Record<string, any>, displayName: string): Promise<void> {
    const res = await server.put(`/users/${user.uid}`, { username: user.username, email_address: user.email_address, display_name: displayName }, as(key));
    assert.equal(res.status, 200, res.text);
  }
  async function patch(key: string, uid: string, body: unknown, headers: Record<string, string> = {}): Promise<void> {
    const res = await server.request('PATCH', `/users/${uid}`, { body: JSON.stringify(body), headers: { ...MERGE_PATCH, ...as(key), ...headers } });
    assert.equal(res.status, 200, res.text);
  }
  async function remove(key: string, uid: string): Promise<void> {
    const res = await server.delete(`/users/${uid}`, as(key));
    assert.equal(res.status, 204, res.text);
  }

  /** Walks the JSON pages from 0 with `exclude_origin` (sent as written), checking each Link; returns the events shown and the number of empty pages before the end. */
  async function walk(exclusion: string, limit: number): Promise<{ shown: Event[]; emptyPages: number }> {
    const shown: Event[] = [];
    let emptyPages = 0;
    let after = 0;
    let path = `/events?after=0&limit=${limit}&exclude_origin=${exclusion}`;
    for (;;) {
      const page = await get(path);
      assert.equal(page.status, 200, page.text);
      const next = nextOf(page.headers.link);
      // The next page starts after the last event read, shown or left out: positions are gapless, so after + limit.
      const expectedAfter = Math.min(after + limit, latest);
      assert.equal(next.pathname, '/events');
      assert.deepEqual([...next.searchParams.keys()].sort(), ['after', 'exclude_origin', 'limit'], page.headers.link as string);
      assert.equal(next.searchParams.get('after'), String(expectedAfter), `${path} → ${page.headers.link}`);
      assert.equal(next.searchParams.get('limit'), String(limit));
      assert.equal(next.searchParams.get('exclude_origin'), decodeURIComponent(exclusion), 'the Link keeps exclude_origin');
      for (const event of page.body as Event[]) assert.ok(Number(event.id) > after && Number(event.id) <= expectedAfter, `event ${event.id} on the page after ${after}`);
      shown.push(...page.body);
      if (after === latest) {
        assert.deepEqual(page.body, [], 'nothing after the latest position');
        return { shown, emptyPages };
      }
      if (page.body.length === 0) emptyPages++;
      after = expectedAfter;
      path = `${next.pathname}${next.search}`;
    }
  }

  before(async () => {
    server = await startTestServer({ store: kind, env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keysFile, ...(nats?.env ?? {}) } });

    // REST, by both keys, on each other's users too.
    const u1 = await createAs(keys.hr);
    expected.push(['user.created', u1.uid, 'rest', HR]);
    const u2 = await createAs(keys.console);
    expected.push(['user.created', u2.uid, 'rest', CONSOLE]);
    await put(keys.hr, u1, 'Put by hr-sync');
    expected.push(['user.updated', u1.uid, 'rest', HR]);
    await patch(keys.hr, u2.uid, { title: 'Patched by hr-sync' });
    expected.push(['user.updated', u2.uid, 'rest', HR]);
    await patch(keys.console, u1.uid, { title: 'Patched by console' }, { 'idempotency-key': `"${randomBytes(8).toString('hex')}"` });
    expected.push(['user.updated', u1.uid, 'rest', CONSOLE]);
    await put(keys.console, u2, 'Put by console');
    expected.push(['user.updated', u2.uid, 'rest', CONSOLE]);

    // SCIM, by hr-sync.
    const userName = `scim${randomBytes(4).toString('hex')}`;
    const scimCreated = await scim('POST', '/Users', { schemas: [CORE], userName, emails: [{ value: `${userName}@example.com`, primary: true }] });
    assert.equal(scimCreated.status, 201, scimCreated.text);
    const u3 = scimCreated.body.id as string;
    expected.push(['user.created', u3, 'scim', HR]);
    const scimPatched = await scim('PATCH', `/Users/${u3}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'title', value: 'Patched through SCIM' }] });
    assert.equal(scimPatched.status, 200, scimPatched.text);
    expected.push(['user.updated', u3, 'scim', HR]);
    const scimPut = await scim('PUT', `/Users/${u3}`, { schemas: [CORE], userName, displayName: 'Put through SCIM', emails: [{ value: `${userName}@example.com`, primary: true }] });
    assert.equal(scimPut.status, 200, scimPut.text);
    expected.push(['user.updated', u3, 'scim', HR]);

    // An import by the command line against the same database: three new users and one update of u2.
    const imported = [newUser({ display_name: 'Imported 1' }), newUser({ display_name: 'Imported 2' }), newUser({ display_name: 'Imported 3' })];
    const file = join(dir, 'import.jsonl');
    writeFileSync(file, [...imported, { username: u2.username, email_address: u2.email_address, display_name: 'Updated by an import' }].map((u) => JSON.stringify(u)).join('\n') + '\n');
    const result = await runCli(['import', file, '--on-conflict', 'update', '--report', join(dir, 'report.jsonl')], { DATABASE_URL: server.databaseUrl });
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    const afterImport = await server.store.events.settle();
    assert.equal(afterImport, expected.length + 4, 'the import appended four events');
    const importPage = (await get(`/events?after=${expected.length}&limit=4`)).body as Event[];
    const importedUids = new Map<string, string>();
    for (const user of imported) importedUids.set((await get(`/users/username:${user.username}`)).body.uid, 'user.created');
    importedUids.set(u2.uid, 'user.updated');
    assert.deepEqual(new Map(importPage.map((e) => [e.subject, e.type])), importedUids, 'one event per user the import wrote');
    importEvents = importPage.map((e) => [e.type, e.subject, 'import', null]);
    expected.push(...importEvents);
    const i1 = importPage.find((e) => e.type === 'user.created')!.subject as string;

    // Deletes through each door, then one more create.
    const scimDeleted = await scim('DELETE', `/Users/${u3}`);
    assert.equal(scimDeleted.status, 204, scimDeleted.text);
    expected.push(['user.deleted', u3, 'scim', HR]);
    await remove(keys.console, u1.uid);
    expected.push(['user.deleted', u1.uid, 'rest', CONSOLE]);
    await remove(keys.hr, i1);
    expected.push(['user.deleted', i1, 'rest', HR]);
    const u4 = await createAs(keys.console);
    expected.push(['user.created', u4.uid, 'rest', CONSOLE]);
    // A write stored without an origin, as an event written before origins were kept: never left out.
    const now = new Date().toISOString();
    const legacy = withDefaults({ uid: uuidv7(), ...(newUser() as { username: string; email_address: string }), legacy_ids: [], display_name: null, attributes: {}, created_at: now, updated_at: now, version: 1 });
    await server.store.create(legacy);
    expected.push(['user.created', legacy.uid, null, null]);

    latest = await server.store.events.settle();
    assert.equal(latest, expected.length);
    feed = (await get('/events?after=0&limit=1000')).body;
  });

  after(async () => {
    await server?.close();
    await nats?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every event names its interface and credential: REST and SCIM the key id, an import no credential; erasure keeps the origin', () => {
    assert.deepEqual(
      feed.map((e) => [e.type, e.subject, e.origininterface ?? null, e.origincredential ?? null]),
      expected,
    );
    assert.deepEqual(feed.map((e) => Number(e.id)), expected.map((_, i) => i + 1));
    assert.ok(feed.every((e) => !('originclient' in e)), 'an API key names no client');
    assert.ok(feed.filter((e) => e.origininterface === 'import').every((e) => !('origincredential' in e)), 'an import holds no credential');
    // The events of deleted users were erased, their origin kept.
    assert.ok(feed.some((e) => e.data.erased === true && e.origincredential === HR));
    assert.ok(feed.some((e) => e.data.erased === true && e.origininterface === 'scim'));
    assert.deepEqual(Object.keys(feed.at(-1)!).filter((name) => name.startsWith('origin')), [], 'an event stored without an origin has none');
  });

  it('exclude_origin=credential:hr-sync: pages leave out exactly hr-sync\'s events; Link keeps the parameter and advances past them', async () => {
    const others = feed.filter((e) => e.origincredential !== HR);
    const hrCount = feed.length - others.length;
    assert.ok(hrCount >= 5 && others.length >= 5, 'both sides are non-trivial');
    for (const exclusion of ['credential:hr-sync', 'credential%3Ahr-sync']) {
      const byTwo = await walk(exclusion, 2);
      assert.deepEqual(byTwo.shown, others, `${exclusion}, limit 2: every other event once, in order`);
    }
    // One event a page: each of hr-sync's is an empty page, and the walk still reaches the end.
    const byOne = await walk('credential:hr-sync', 1);
    assert.deepEqual(byOne.shown, others);
    assert.equal(byOne.emptyPages, hrCount, 'an empty page for each event left out');
    // Larger pages: fewer than `limit` shown on a page, the rest later.
    assert.deepEqual((await walk('credential:hr-sync', 5)).shown, others);
  });

  it('exclude_origin=credential:console, interface:import, interface:scim and interface:rest each leave out exactly theirs', async () => {
    const cases: [string, (e: Event) => boolean][] = [
      ['credential:console', (e) => e.origincredential === CONSOLE],
      ['interface:import', (e) => e.origininterface === 'import'],
      ['interface:scim', (e) => e.origininterface === 'scim'],
      ['interface:rest', (e) => e.origininterface === 'rest'],
      ['credential:nobody', () => false],
    ];
    for (const [exclusion, excluded] of cases) {
      const kept = feed.filter((e) => !excluded(e));
      assert.deepEqual((await walk(exclusion, 3)).shown, kept, exclusion);
      const whole = await get(`/events?after=0&limit=1000&exclude_origin=${exclusion}`);
      assert.deepEqual(whole.body, kept, exclusion);
      assert.equal(nextOf(whole.headers.link).searchParams.get('after'), String(latest), `${exclusion}: the Link goes past the events left out`);
    }
  });

  it('a stream with exclude_origin=credential:hr-sync sends exactly the others\' events, in order, live too; a resume keeps leaving them out', async () => {
    const others = feed.filter((e) => e.origincredential !== HR);
    const stream = await openEventStream(server.baseUrl, '/events?after=0&exclude_origin=credential:hr-sync', as(keys.console));
    try {
      assert.equal(stream.status, 200, stream.text);
      const got = await stream.waitForEvents(others.length);
      assert.deepEqual(got.map((e) => e.event), others);
      assert.deepEqual(got.map((e) => e.id), others.map((e) => Number(e.id)), 'the SSE ids skip the events left out');
      // Live: hr-sync writes, then console: the stream's next event is console's.
      const byHr = await createAs(keys.hr);
      const byConsole = await createAs(keys.console);
      const last = (await stream.waitForEvents(others.length + 1)).at(-1)!;
      assert.equal(last.event.subject, byConsole.uid);
      assert.equal(last.event.origincredential, CONSOLE);
      assert.equal(stream.events.length, others.length + 1, 'hr-sync\'s live event was left out');
      assert.ok(!stream.events.some((e) => e.event.subject === byHr.uid));
      // A reconnect with Last-Event-ID (an event in the middle) resumes after it, still leaving hr-sync's out.
      const middle = others[Math.floor(others.length / 2)]!;
      const resumed = await openEventStream(server.baseUrl, '/events?exclude_origin=credential%3Ahr-sync', { ...as(keys.console), 'last-event-id': middle.id });
      try {
        const rest = stream.events.filter((e) => e.id > Number(middle.id));
        assert.deepEqual((await resumed.waitForEvents(rest.length)).map((e) => e.event), rest.map((e) => e.event));
      } finally {
        resumed.close();
      }
    } finally {
      stream.close();
    }
    // Other exclusions on a stream.
    const end = await server.store.events.settle();
    const all = (await get(`/events?after=0&limit=1000`)).body as Event[];
    assert.equal(all.length, end);
    for (const [exclusion, excluded] of [
      ['interface:import', (e: Event) => e.origininterface === 'import'],
      ['interface:scim', (e: Event) => e.origininterface === 'scim'],
    ] as const) {
      const kept = all.filter((e) => !excluded(e));
      const s = await openEventStream(server.baseUrl, `/events?after=0&exclude_origin=${exclusion}`, as(keys.hr));
      try {
        assert.deepEqual((await s.waitForEvents(kept.length)).map((e) => e.event), kept, exclusion);
      } finally {
        s.close();
      }
    }
  });

  it('a bad exclude_origin is a 400 invalid-query, on pages and streams', async () => {
    const bad = [
      'exclude_origin=hr-sync',
      'exclude_origin=credential:',
      'exclude_origin=credential:hr-sync%00',
      'exclude_origin=credential:hr-sync%0A',
      'exclude_origin=credential',
      'exclude_origin=interface:ftp',
      'exclude_origin=interface:',
      'exclude_origin=origin:hr-sync',
      'exclude_origin=credential:hr-sync&exclude_origin=credential:console',
      'exclude_origin=interface:rest&exclude_origin=interface:rest',
      'exclude_origin=',
      'exclude_origin',
    ];
    for (const query of bad) {
      assertProblem(await get(`/events?${query}`), 400, 'invalid-query');
      const stream = await openEventStream(server.baseUrl, `/events?${query}`, as(keys.console));
      assert.equal(stream.status, 400, `${query} (stream): ${stream.text}`);
      assert.equal(JSON.parse(stream.text).type, '/problems/invalid-query', query);
    }
  });

  it('the NATS relay sends each event\'s origin as the headers Origin-Interface and Origin-Credential', { skip: noNats, timeout: 60_000 }, async (t) => {
    await assertNatsOrigins(server, nats!, t.signal, keys.console);
  });
});

describeEachStore('event origins with AUTH_MODE=jwt', (kind) => {
  let jwt: JwtFixture;
  let server: TestServer;
  const nats = noNats ? undefined : uniqueStream();
  before(async () => {
    jwt = await jwtFixture();
    server = await startTestServer({ store: kind, env: { AUTH_MODE: 'jwt', JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, JWT_JWKS_FILE: jwt.jwksFile, ...(nats?.env ?? {}) } });
  });
  after(async () => {
    await server?.close();
    await nats?.cleanup();
    jwt?.cleanup();
  });

  it('origincredential is the token\'s subject (an email-shaped one pseudonymised), originclient its azp when it differs', async () => {
    const tokens = {
      payroll: await jwt.token({ sub: 'svc-payroll', azp: 'payroll-portal' }),
      urlClient: await jwt.token({ sub: 'svc-payroll', azp: 'https://apps.example/payroll?x=1' }),
      email: await jwt.token({ sub: 'alice.admin@example.com', azp: 'admin-console' }),
      clientOnly: await jwt.token({ sub: undefined, client_id: 'batch-job' }),
      sameClient: await jwt.token({ sub: 'svc-ldap', azp: 'svc-ldap' }),
    };
    const start = await server.store.events.settle();
    const write = async (token: string) => {
      const res = await server.post('/users', newUser(), { authorization: `Bearer ${token}` });
      assert.equal(res.status, 201, res.text);
    };
    for (const token of Object.values(tokens)) await write(token);
    const scimCreated = await scimRequest(server.baseUrl, 'POST', '/scim/v2/Users', { body: { schemas: [CORE], userName: `jwt${randomBytes(4).toString('hex')}`, emails: [{ value: `jwt${randomBytes(4).toString('hex')}@example.com` }] }, headers: { authorization: `Bearer ${tokens.payroll}` } });
    assert.equal(scimCreated.status, 201, scimCreated.text);
    await server.store.events.settle();
    const res = await server.get(`/events?after=${start}`, { authorization: `Bearer ${tokens.payroll}` });
    assert.equal(res.status, 200, res.text);
    const events = res.body as Event[];
    const origins = events.map((e) => [e.origininterface, e.origincredential, e.originclient]);
    assert.deepEqual(origins[0], ['rest', 'svc-payroll', 'payroll-portal']);
    assert.deepEqual(origins[1], ['rest', 'svc-payroll', 'https://apps.example/payroll?x=1']);
    assert.match(String(origins[2]![1]), /^sha256:[0-9a-f]{16}$/, 'an email-shaped subject is a pseudonym');
    assert.equal(origins[2]![2], 'admin-console');
    assert.doesNotMatch(res.text, /alice\.admin/, 'the email-shaped subject appears nowhere');
    assert.deepEqual(origins[3], ['rest', 'batch-job', undefined], 'client_id without sub: the credential, no separate client');
    assert.deepEqual(origins[4], ['rest', 'svc-ldap', undefined], 'azp equal to sub: no separate client');
    assert.deepEqual(origins[5], ['scim', 'svc-payroll', 'payroll-portal']);
    assert.equal(events.length, 6);

    const excluded = await server.get(`/events?after=${start}&exclude_origin=credential:svc-payroll`, { authorization: `Bearer ${tokens.email}` });
    assert.deepEqual(excluded.body, events.filter((e) => e.origincredential !== 'svc-payroll'));
    const byHash = await server.get(`/events?after=${start}&exclude_origin=credential:${encodeURIComponent(String(origins[2]![1]))}`, { authorization: `Bearer ${tokens.email}` });
    assert.deepEqual(byHash.body, events.filter((_, i) => i !== 2), 'the pseudonym is the id to exclude');
  });

  it('the NATS relay sends Origin-Credential and Origin-Client, percent-encoded', { skip: noNats, timeout: 60_000 }, async (t) => {
    const token = await jwt.token({ sub: 'svc-payroll', azp: 'payroll-portal' });
    await assertNatsOrigins(server, nats!, t.signal, token);
    const messages = await natsMessages(nats!.stream);
    assert.ok(messages.some((m) => m.headers['origin-client'] === encodeURIComponent('https://apps.example/payroll?x=1')));
  });
});
