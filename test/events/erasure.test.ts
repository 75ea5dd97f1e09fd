/**
 * Erasure on delete (CONTRACT §13; docs/security.md, "Erasure"), on both stores, with
 * the NATS relay on (a stream and subject prefix of this run on the machine's server,
 * removed at the end).
 *
 * Two users are written with values holding a random marker (username, email address,
 * display name, legacy ids, attributes, name parts, title, phone numbers; the SCIM one
 * also an externalId and a password): one through REST (a create and a patch with an
 * Idempotency-Key, another patch, the create replayed), one through SCIM (a create with
 * an Idempotency-Key, a patch); a third user, never deleted, keeps the mirror non-trivial.
 * Once the relay has published everything, both marked users are deleted (REST and
 * SCIM). Afterwards no byte of a marked value is returned by the JSON feed from 0, an SSE
 * replay from 0, the NATS stream (each user's earlier messages purged, its user.deleted
 * left), the Idempotency-Key replays (410 resource-erased, Idempotent-Replayed: true,
 * also with another body, and nothing created again), any lookup or search. The feed is
 * still gapless and a mirror built from it equals the CLI export.
 *
 * Nothing here waits for time: the store is settled, and the stream is polled until it
 * holds what the relay must have published.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, it } from 'node:test';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { runCli } from '../cli/run-cli.js';
import { REPO_ROOT } from '../helpers/child-server.js';
import { natsSkipReason, uniqueStream, NATS_URL } from '../helpers/nats.js';
import { assertProblem } from '../helpers/problem-assertions.js';
import { scimRequest, type ScimResponse } from '../helpers/scim-client.js';
import { openEventStream } from '../helpers/sse-client.js';
import { describeEachStore } from '../helpers/stores.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

type Replica = Map<string, Record<string, unknown> & { version: number }>;
const mirrorExample = (await import(pathToFileURL(join(REPO_ROOT, 'examples', 'mirror-consumer.mjs')).href)) as {
  applyEvent(replica: Replica, event: Record<string, any>): boolean;
};

const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

/**
 * A marker no service-made text can hold by chance: `z`, `q` and `w` are not hex digits,
 * so no uid, ETag or position contains it. Lower case, so a canonical (case-folded) copy
 * of a value holds it too.
 */
const marker = (label: string) => `zq${label}${randomBytes(5).toString('hex')}w`;

interface RawMessage {
  seq: number;
  subject: string;
  /** Every header, its name in lower case. */
  headers: Record<string, string>;
  /** The body as stored, unparsed. */
  data: string;
  event: Record<string, any>;
}

/** Every message the stream holds, as stored (subject, every header, the body's text), in stream order. */
async function rawStreamMessages(stream: string): Promise<{ messages: RawMessage[]; count: number }> {
  const nc = await connect({ servers: NATS_URL });
  try {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(stream).catch(() => undefined);
    if (info === undefined) return { messages: [], count: 0 };
    const messages: RawMessage[] = [];
    for (let seq = info.state.first_seq; info.state.messages > 0 && seq <= info.state.last_seq; seq++) {
      const message = await jsm.streams.getMessage(stream, { seq });
      if (message === null) continue;
      const headers: Record<string, string> = {};
      for (const [name, values] of message.header) headers[name.toLowerCase()] = values.join(', ');
      const data = message.string();
      messages.push({ seq, subject: message.subject, headers, data, event: JSON.parse(data) });
    }
    return { messages, count: info.state.messages };
  } finally {
    await nc.close();
  }
}

const noNats = await natsSkipReason();

describeEachStore('erasure on delete', (kind) => {
  if (noNats) {
    it('needs NATS', { skip: noNats }, () => {});
    return;
  }
  const nats = uniqueStream();
  let server: TestServer;

  // The marked values: every one holds `rest` (the REST user's) or `scim` (the SCIM user's) marker.
  const rest = marker('r');
  const scimMark = marker('s');
  /** A phone number's digits: a value without the marker, looked for on its own. */
  const restPhone = `+1555${randomInt(100_000_000, 999_999_999)}`;
  const scimPhone = `+4420${randomInt(100_000_000, 999_999_999)}`;
  const password = `pw-${marker('p')}`;
  /** What must appear nowhere once both users are deleted. */
  const secrets = [rest, scimMark, restPhone, scimPhone, password];

  const restBody = {
    username: `${rest}.alice`,
    email_address: `alice.${rest}@example.com`,
    display_name: `Alice ${rest}`,
    legacy_ids: [`crm:${rest}`, `hr/${rest}`],
    attributes: { cost_code: `cc-${rest}`, nested: { note: `n-${rest}` } },
    name: { given_name: `Given${rest}`, family_name: `Family${rest}` },
    title: `Chief ${rest}`,
    phone_numbers: [{ value: restPhone, type: 'work' }],
    emails: [{ value: `alice.${rest}@example.com` }, { value: `private.${rest}@example.net`, type: 'home' }],
  };
  const scimBody = {
    schemas: [CORE, ENTERPRISE],
    userName: `${scimMark}.bob`,
    externalId: `ext-${scimMark}`,
    displayName: `Bob ${scimMark}`,
    name: { givenName: `Given${scimMark}`, familyName: `Family${scimMark}` },
    title: `Head ${scimMark}`,
    emails: [{ value: `bob.${scimMark}@example.org`, type: 'work', primary: true }],
    phoneNumbers: [{ value: scimPhone, type: 'mobile' }],
    password,
    [ENTERPRISE]: { employeeNumber: `E-${scimMark}`, department: `Dept ${scimMark}` },
  };
  const restCreateKey = `"create-${randomBytes(8).toString('hex')}"`;
  const restPatchKey = `"patch-${randomBytes(8).toString('hex')}"`;
  const scimCreateKey = `"scim-${randomBytes(8).toString('hex')}"`;
  const restPatch = { display_name: `Renamed ${rest}`, attributes: { nested: { later: `l-${rest}` } } };

  let restUser: Record<string, any>;
  let scimUser: Record<string, any>;
  let kept: Record<string, any>;
  /** The latest position once both deletes are in the feed. */
  let latest: number;
  let usersBeforeReplays: number;

  const scim = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => scimRequest(server.baseUrl, method, `/scim/v2${path}`, { body, headers });

  /** Whether `text` holds any marked value (case-insensitively, as canonical forms are lower case). */
  const leaks = (text: string) => secrets.filter((secret) => text.toLowerCase().includes(secret.toLowerCase()));
  const assertNoLeak = (text: string, where: string) => assert.deepEqual(leaks(text), [], `${where} returns erased data: ${text.slice(0, 500)}`);

  /** Every user, walking the listing's pages. */
  async function listAll(): Promise<Record<string, any>[]> {
    const users: Record<string, any>[] = [];
    let next: string | undefined = '/users?limit=2';
    while (next !== undefined) {
      const page = await server.get(next);
      assert.equal(page.status, 200, page.text);
      users.push(...page.body);
      next = /<([^>]+)>;\s*rel="next"/.exec(String(page.headers.link ?? ''))?.[1];
    }
    return users;
  }

  /** Every page of the JSON feed from 0 (limit 3, following Link): the raw texts and the events. */
  async function feedFromZero(): Promise<{ texts: string[]; events: Record<string, any>[] }> {
    const texts: string[] = [];
    const events: Record<string, any>[] = [];
    let next = '/events?after=0&limit=3';
    for (;;) {
      const page = await server.get(next);
      assert.equal(page.status, 200, page.text);
      texts.push(page.text);
      events.push(...page.body);
      next = /^<([^>]+)>; rel="next"$/.exec(String(page.headers.link))![1]!;
      if (page.body.length === 0) return { texts, events };
    }
  }

  // Bounded, so that a relay that never publishes fails the suite instead of hanging the run.
  before(async ({ signal }: { signal: AbortSignal }) => {
    server = await startTestServer({ store: kind, env: nats.env });

    // A user that stays: the mirror must hold it.
    const keptCreate = await server.post('/users', newUser({ display_name: 'Kept', attributes: { team: 'ops' } }));
    assert.equal(keptCreate.status, 201, keptCreate.text);

    // The SCIM user: a create with an Idempotency-Key, then a patch.
    const scimCreated = await scim('POST', '/Users', scimBody, { 'idempotency-key': scimCreateKey });
    assert.equal(scimCreated.status, 201, scimCreated.text);
    const scimPatched = await scim('PATCH', `/Users/${scimCreated.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'nickName', value: `Nick${scimMark}` }] });
    assert.equal(scimPatched.status, 200, scimPatched.text);
    scimUser = (await server.get(`/users/${scimCreated.body.id}`)).body;
    assert.equal(scimUser.nick_name, `Nick${scimMark}`);

    const keptPatch = await server.request('PATCH', `/users/${keptCreate.body.uid}`, { body: JSON.stringify({ title: 'Operator' }), headers: MERGE_PATCH });
    assert.equal(keptPatch.status, 200, keptPatch.text);
    kept = keptPatch.body;

    // The REST user, written last: its messages are the stream's last ones when it is deleted, so its purge takes
    // the stream's last message (the SCIM user's purge takes messages from the middle).
    // A create and a patch with Idempotency-Keys, another patch, the create replayed.
    const created = await server.post('/users', restBody, { 'idempotency-key': restCreateKey });
    assert.equal(created.status, 201, created.text);
    const patched = await server.request('PATCH', `/users/${created.body.uid}`, { body: JSON.stringify(restPatch), headers: { ...MERGE_PATCH, 'idempotency-key': restPatchKey } });
    assert.equal(patched.status, 200, patched.text);
    const patchedAgain = await server.request('PATCH', `/users/${created.body.uid}`, { body: JSON.stringify({ title: `Deputy ${rest}`, legacy_ids: [`crm:${rest}`, `erp:${rest}`] }), headers: MERGE_PATCH });
    assert.equal(patchedAgain.status, 200, patchedAgain.text);
    restUser = patchedAgain.body;
    const replayed = await server.post('/users', restBody, { 'idempotency-key': restCreateKey });
    assert.equal(replayed.status, 201, replayed.text);
    assert.equal(replayed.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replayed.body, created.body, 'the replay is the full user the create answered');

    // Before the deletes: the marked values are in the feed and the stream (so finding none later means something).
    const written = await server.store.events.settle();
    assert.equal(written, 7);
    const { messages } = await until(() => rawStreamMessages(nats.stream), (s) => s.messages.length === written, signal);
    assert.ok(messages.some((m) => m.data.includes(rest)) && messages.some((m) => m.data.includes(scimMark)), 'the stream held the marked values');
    assert.ok(messages.some((m) => m.data.includes(restPhone)) && messages.some((m) => m.data.includes(scimPhone)), 'and the phone numbers');
    assert.ok(!messages.some((m) => m.data.includes(password)), 'a SCIM password is never in an event');
    assert.ok((await feedFromZero()).texts.join('').includes(rest));
    assert.equal((await server.get(`/users/username:${restBody.username}`)).status, 200);
    assert.equal((await server.get(`/users?q=${rest}`)).body.length, 1);
    assert.equal((await server.get(`/users/legacy_id:${encodeURIComponent(`erp:${rest}`)}`)).status, 200);

    // The deletes, one through each door.
    assert.equal((await server.delete(`/users/${restUser.uid}`)).status, 204);
    const scimDeleted = await scim('DELETE', `/Users/${scimUser.uid}`);
    assert.equal(scimDeleted.status, 204, scimDeleted.text);
    latest = await server.store.events.settle();
    assert.equal(latest, 9);
    usersBeforeReplays = (await listAll()).length;
  }, { timeout: 120_000 });

  after(async () => {
    await server?.close();
    await nats.cleanup();
  });

  it('the JSON feed from 0 holds no erased value: each earlier event of a deleted user is {uid, version, erased}, its origin and time kept', async () => {
    const { texts, events } = await feedFromZero();
    assertNoLeak(texts.join('\n'), 'GET /events');
    const ofRest = events.filter((e) => e.subject === restUser.uid);
    assert.deepEqual(ofRest.map((e) => e.type), ['user.created', 'user.updated', 'user.updated', 'user.deleted']);
    assert.deepEqual(ofRest.map((e) => e.data), [
      { uid: restUser.uid, version: 1, erased: true },
      { uid: restUser.uid, version: 2, erased: true },
      { uid: restUser.uid, version: 3, erased: true },
      { uid: restUser.uid, version: 3 },
    ]);
    assert.ok(ofRest.every((e) => e.origininterface === 'rest'));
    assert.equal(ofRest[2]!.time, restUser.updated_at, 'the time is kept');
    const ofScim = events.filter((e) => e.subject === scimUser.uid);
    assert.deepEqual(ofScim.map((e) => [e.type, e.data]), [
      ['user.created', { uid: scimUser.uid, version: 1, erased: true }],
      ['user.updated', { uid: scimUser.uid, version: 2, erased: true }],
      ['user.deleted', { uid: scimUser.uid, version: 2 }],
    ]);
    assert.ok(ofScim.every((e) => e.origininterface === 'scim'));
    // The kept user's events are whole.
    assert.deepEqual(events.filter((e) => e.subject === kept.uid).map((e) => e.data.version), [1, 2]);
    assert.deepEqual(events.filter((e) => e.subject === kept.uid).at(-1)!.data, kept);
  });

  it('an SSE replay from 0, read to the latest position, holds no erased value', async () => {
    const stream = await openEventStream(server.baseUrl, '/events?after=0');
    try {
      assert.equal(stream.status, 200);
      const events = await stream.waitForEvents(latest);
      assert.deepEqual(events.map((e) => e.id), Array.from({ length: latest }, (_, i) => i + 1));
      assertNoLeak(JSON.stringify(events), 'the SSE replay');
      const page = (await server.get(`/events?after=0&limit=1000`)).body;
      assert.deepEqual(events.map((e) => e.event), page, 'the same events as the JSON feed');
    } finally {
      stream.close();
    }
  });

  it("the NATS stream holds no erased value: each deleted user's earlier messages are purged, its user.deleted stays; subjects are <prefix>.<type>.<uid>", { timeout: 60_000 }, async (t) => {
    // The relay purges a user's messages just before it publishes the user's deletion: once the last deletion is there, both purges are done.
    const { messages, count } = await until(() => rawStreamMessages(nats.stream), (s) => s.messages.some((m) => m.headers['nats-msg-id'] === String(latest)), t.signal);
    assert.equal(messages.length, count, 'every message the stream counts was read');
    assertNoLeak(messages.map((m) => `${m.subject}\n${JSON.stringify(m.headers)}\n${m.data}`).join('\n'), 'the NATS stream');
    for (const m of messages) {
      assert.equal(m.subject, `${nats.subjectPrefix}.${m.event.type}.${m.event.subject}`, 'subject: <prefix>.<type>.<uid>');
      assert.match(m.subject, new RegExp(`^${nats.subjectPrefix.replace(/\./g, '\\.')}\\.user\\.(created|updated|deleted)\\.[0-9a-f-]{36}$`));
      assert.equal(m.headers['nats-msg-id'], m.event.id, 'the message id is the position');
      assert.equal(m.headers['content-type'], 'application/cloudevents+json');
      assert.equal(m.headers['origin-interface'], m.event.origininterface);
    }
    // What stays: every event of the kept user, and the deleted users' user.deleted alone.
    const feed = (await server.get('/events?after=0&limit=1000')).body as Record<string, any>[];
    const deleted = new Set([restUser.uid, scimUser.uid]);
    const expected = feed.filter((e) => !deleted.has(e.subject) || e.type === 'user.deleted');
    assert.deepEqual(messages.map((m) => m.event), expected, 'the stream holds the feed less the purged messages');
    assert.deepEqual(messages.map((m) => Number(m.event.id)), [1, 4, 8, 9], 'the kept user\'s two, then the two deletions');
    assert.deepEqual(
      messages.filter((m) => deleted.has(m.event.subject)).map((m) => m.subject),
      [`${nats.subjectPrefix}.user.deleted.${restUser.uid}`, `${nats.subjectPrefix}.user.deleted.${scimUser.uid}`],
    );
    assert.deepEqual(messages.filter((m) => m.event.subject === kept.uid).map((m) => m.subject), [`${nats.subjectPrefix}.user.created.${kept.uid}`, `${nats.subjectPrefix}.user.updated.${kept.uid}`]);
  });

  it('a REST Idempotency-Key replay answers 410 resource-erased with Idempotent-Replayed: true, also with another body, and creates nothing', async () => {
    const same = await server.post('/users', restBody, { 'idempotency-key': restCreateKey });
    assertProblem(same, 410, 'resource-erased');
    assert.equal(same.headers['idempotent-replayed'], 'true');
    assertNoLeak(same.text, 'the create replay');
    const other = await server.post('/users', { ...restBody, username: `${rest}.other`, display_name: 'Someone else' }, { 'idempotency-key': restCreateKey });
    assertProblem(other, 410, 'resource-erased');
    assert.equal(other.headers['idempotent-replayed'], 'true');
    assertNoLeak(other.text, 'the create replay with another body');
    const patch = await server.request('PATCH', `/users/${restUser.uid}`, { body: JSON.stringify(restPatch), headers: { ...MERGE_PATCH, 'idempotency-key': restPatchKey } });
    assertProblem(patch, 410, 'resource-erased');
    assert.equal(patch.headers['idempotent-replayed'], 'true');
    assertNoLeak(patch.text, 'the patch replay');
    assert.equal((await listAll()).length, usersBeforeReplays, 'nothing was created again');
    assert.equal((await server.get(`/users/username:${restBody.username}`)).status, 404);
    assert.equal((await server.get(`/users/username:${rest}.other`)).status, 404);
  });

  it("a SCIM Idempotency-Key replay answers 410 in SCIM's error format with Idempotent-Replayed: true, also with another body, and creates nothing", async () => {
    const assertErased = (res: ScimResponse, what: string) => {
      assert.equal(res.status, 410, `${what}: ${res.text}`);
      assert.match(String(res.headers['content-type']), /^application\/scim\+json/, what);
      assert.deepEqual(res.body?.schemas, [SCIM_ERROR], `${what}: ${res.text}`);
      assert.equal(res.body.status, '410', `${what}: ${res.text}`);
      assert.equal(res.headers['idempotent-replayed'], 'true', what);
      assertNoLeak(res.text, what);
    };
    assertErased(await scim('POST', '/Users', scimBody, { 'idempotency-key': scimCreateKey }), 'the SCIM create replay');
    assertErased(await scim('POST', '/Users', { ...scimBody, userName: `${scimMark}.other` }, { 'idempotency-key': scimCreateKey }), 'the SCIM create replay with another body');
    assert.equal((await listAll()).length, usersBeforeReplays, 'nothing was created again');
    const found = await scim('GET', `/Users?filter=${encodeURIComponent(`userName sw "${scimMark}"`)}`);
    assert.equal(found.status, 200, found.text);
    assert.equal(found.body.totalResults, 0);
  });

  it('every lookup of a deleted user is a 404 and every search is empty', async () => {
    const lookups = [
      `/users/${restUser.uid}`,
      `/users/uid:${restUser.uid}`,
      `/users/username:${encodeURIComponent(restBody.username)}`,
      `/users/username:${encodeURIComponent(restBody.username.toUpperCase())}`,
      `/users/email_address:${encodeURIComponent(restBody.email_address)}`,
      ...restUser.legacy_ids.map((id: string) => `/users/legacy_id:${encodeURIComponent(id)}`),
      `/users/legacy_id:${encodeURIComponent(`hr/${rest}`)}`,
      `/users/${scimUser.uid}`,
      `/users/username:${encodeURIComponent(scimUser.username)}`,
      `/users/email_address:${encodeURIComponent(scimUser.email_address)}`,
    ];
    for (const path of lookups) {
      const res = await server.get(path);
      assertProblem(res, 404, 'not-found');
      // `instance` is the request's own path (what the client sent): everything else says nothing of the user.
      assertNoLeak(JSON.stringify({ ...res.body, instance: undefined }), path);
    }
    const searches = [
      `/users?q=${rest}`,
      `/users?q=${encodeURIComponent(`Alice ${rest}`)}`,
      `/users?q=${scimMark}`,
      `/users?email_address=${encodeURIComponent(restBody.email_address)}`,
      `/users?email_address=${encodeURIComponent(scimUser.email_address)}`,
      `/users?username=${encodeURIComponent(restBody.username)}`,
      `/users?legacy_id=${encodeURIComponent(`crm:${rest}`)}`,
    ];
    for (const path of searches) {
      const res = await server.get(path);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, [], path);
    }
    assertNoLeak(JSON.stringify(await listAll()), 'the listing');
    const scimRead = await scim('GET', `/Users/${scimUser.uid}`);
    assert.equal(scimRead.status, 404, scimRead.text);
    for (const filter of [`userName eq "${scimUser.username}"`, `externalId eq "ext-${scimMark}"`, `emails.value eq "${scimUser.email_address}"`]) {
      const res = await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`);
      assert.equal(res.status, 200, `${filter}: ${res.text}`);
      assert.equal(res.body.totalResults, 0, filter);
    }
    // The keys are free again (CONTRACT §2): a new user may take them.
    const again = await server.post('/users', newUser({ username: restBody.username, legacy_ids: [`crm:${rest}`] }));
    assert.equal(again.status, 201, again.text);
    assert.equal((await server.delete(`/users/${again.body.uid}`)).status, 204);
  });

  it('the feed is still gapless, and a mirror built from it equals the export', async () => {
    const end = await server.store.events.settle();
    const { events } = await feedFromZero();
    assert.deepEqual(events.map((e) => Number(e.id)), Array.from({ length: end }, (_, i) => i + 1), 'positions 1…latest, each once, in order');
    const replica: Replica = new Map();
    for (const event of events) mirrorExample.applyEvent(replica, event);
    const exported = await runCli(['export'], { DATABASE_URL: server.databaseUrl });
    assert.equal(exported.code, 0, exported.stderr);
    assertNoLeak(exported.stdout, 'the export');
    const truth = new Map(exported.stdout.trim().split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, any> & { uid: string }).map((user) => [user.uid, user]));
    const sorted = (map: Map<string, unknown>) => new Map([...map].sort(([a], [b]) => a.localeCompare(b)));
    assert.deepEqual(sorted(replica), sorted(truth), 'the mirror equals the export');
    assert.ok(replica.has(kept.uid) && !replica.has(restUser.uid) && !replica.has(scimUser.uid));
    assert.deepEqual(replica.get(kept.uid), kept);
  });
});
