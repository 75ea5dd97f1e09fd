/**
 * Provisioning sessions of Okta and Microsoft Entra ID, replayed request by
 * request against /scim/v2 as the providers' documentation shows them
 * (test/scim/fixtures/), on every store. Each session runs on a server of its
 * own. Besides each step's status, the effects are checked through the REST door
 * and the change feed: a deactivation makes the REST user `active: false` with a
 * `user.updated` event saying so, a reactivation makes it `active: true`, Entra's
 * filtered `Add` of the work email reaches the REST `emails`, and Entra's delete
 * makes the REST read a 404.
 *
 * Every step of a session runs even when an earlier one answered unexpectedly
 * (except after a failed create, which leaves nothing to act on); the test then
 * fails listing every step that did not answer as documented.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { it } from 'node:test';
import { describeEachStore, type StoreKind } from '../helpers/stores.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { entraFlaggedSession, entraFlaggedWorkEmail, entraSession, entraWorkEmail } from './fixtures/entra-fixtures.js';
import { OKTA_USER_AGENT, oktaAiwSession, oktaConflictStep, oktaSession, oktaUnknownUserStep, oktaUpperCaseFilterPath } from './fixtures/okta-fixtures.js';
import { ID_PLACEHOLDER, resolveStep, type ScimFixtureStep } from './fixtures/scim-fixture-step.js';
import { scimRequest, type ScimResponse } from '../helpers/scim-client.js';

const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
/** How long a change event may take to become readable (PostgreSQL numbers events right after commit). */
const FEED_BOUND_MS = 10_000;



type Client = 'okta' | 'entra';

/** The headers each provider sends (okta-fixtures.ts, entra-fixtures.ts: "Headers"). */
function headersOf(client: Client, step: ScimFixtureStep): Record<string, string> {
  if (client === 'entra') return step.body === undefined ? {} : { 'content-type': 'application/scim+json' };
  const headers: Record<string, string> = { 'user-agent': OKTA_USER_AGENT };
  // Okta's spec test sends its create as application/json and everything else as application/scim+json.
  if (step.body !== undefined) headers['content-type'] = step.method === 'POST' ? 'application/json' : 'application/scim+json; charset=utf-8';
  return headers;
}

/**
 * The status the step must get. Every fixture status agrees with RFC 7644 and the
 * providers' documents as this server implements them (PATCH answers 200 with the
 * resource, which both providers accept; the fixtures already expect 200), so none
 * is adjusted.
 */
const expectedStatus = (step: ScimFixtureStep) => step.expectStatus;

/** The `active` a write sets: PUT's `active`, or the last PATCH operation on `active` (Entra's "True"/"False" included). */
function activeSetBy(step: ScimFixtureStep): boolean | undefined {
  const body = step.body as Record<string, any> | undefined;
  if (body === undefined) return undefined;
  const asBoolean = (value: unknown) => (typeof value === 'boolean' ? value : typeof value === 'string' && /^(true|false)$/i.test(value) ? value.toLowerCase() === 'true' : undefined);
  if (step.method === 'PUT') return asBoolean(body.active);
  if (step.method !== 'PATCH') return undefined;
  let active: boolean | undefined;
  for (const operation of (body.Operations ?? []) as Record<string, any>[]) {
    if (typeof operation.path === 'string' && operation.path.toLowerCase() === 'active') active = asBoolean(operation.value) ?? active;
    else if (operation.path === undefined && operation.value !== null && typeof operation.value === 'object' && 'active' in operation.value) active = asBoolean(operation.value.active) ?? active;
  }
  return active;
}

/** Whether the step adds or replaces the work email through a filtered path. */
function writesWorkEmail(step: ScimFixtureStep): string | undefined {
  if (step.method !== 'PATCH') return undefined;
  const operations = ((step.body as Record<string, any>).Operations ?? []) as Record<string, any>[];
  const found = operations.filter((op) => /^(add|replace)$/i.test(op.op) && typeof op.path === 'string' && /^emails\[type eq "work"\]\.value$/i.test(op.path));
  return found.length === 0 ? undefined : String(found[found.length - 1]!.value);
}

/** Every event of the feed, all pages. */
async function allEvents(server: TestServer): Promise<any[]> {
  const events: any[] = [];
  for (let position = 0; ; ) {
    const page = await server.get(`/events?after=${position}&limit=1000`);
    assert.equal(page.status, 200, page.text);
    if (page.body.length === 0) return events;
    events.push(...page.body);
    position = Number(page.body[page.body.length - 1].id);
  }
}

/** Waits (bounded) until the feed holds the `user.updated` event of this uid and version, and checks its `active`. */
async function assertUpdateEvent(server: TestServer, uid: string, version: number, active: boolean): Promise<void> {
  const deadline = Date.now() + FEED_BOUND_MS;
  for (;;) {
    const event = (await allEvents(server)).find((e) => e.subject === uid && e.type === 'user.updated' && e.data?.version === version);
    if (event !== undefined) {
      assert.equal(event.data.active, active, `the user.updated event of version ${version}: ${JSON.stringify(event)}`);
      return;
    }
    assert.ok(Date.now() < deadline, `no user.updated event of ${uid} version ${version} within ${FEED_BOUND_MS} ms`);
    await delay(20);
  }
}

/** The checks of one step's answer; throws AssertionError. */
async function checkStep(server: TestServer, step: ScimFixtureStep, res: ScimResponse, id: string | undefined): Promise<void> {
  const where = `${step.method} ${step.path} → ${res.status} ${res.text.slice(0, 600)}\n(source: ${step.source})`;
  assert.equal(res.status, expectedStatus(step), where);
  if (res.status === 204) {
    assert.equal(res.text, '', where);
  } else {
    assert.match(String(res.headers['content-type']), /^application\/scim\+json(?:;|$)/, where);
  }
  if (res.status >= 400) {
    assert.deepEqual(res.body?.schemas, [ERROR], where);
    assert.equal(res.body.status, String(res.status), where);
    assert.equal(typeof res.body.detail, 'string', where);
    if (res.status === 409) assert.equal(res.body.scimType, 'uniqueness', where);
    return;
  }
  if (step.method === 'GET' && step.path.startsWith('/Users?')) {
    const list = res.body;
    assert.deepEqual(list.schemas, [LIST_RESPONSE], where);
    for (const member of ['totalResults', 'startIndex', 'itemsPerPage']) assert.equal(Number.isInteger(list[member]), true, `${member} must be an integer: ${where}`);
    assert.equal(list.itemsPerPage, list.Resources.length, where);
    if (step.path.includes('filter=')) {
      // Before the create nothing matches; after it, exactly the session's user.
      if (id === undefined) assert.deepEqual([list.totalResults, list.Resources], [0, []], where);
      else assert.deepEqual([list.totalResults, list.Resources.map((r: any) => r.id)], [1, [id]], where);
    } else if (id !== undefined) {
      assert.ok(list.Resources.some((r: any) => r.id === id), `the listing lacks the session's user: ${where}`);
    }
  }
  if (step.method === 'GET' && step.path.startsWith('/Users/') && id !== undefined) assert.equal(res.body.id, id, where);
  if ((step.method === 'PUT' || step.method === 'PATCH') && res.status === 200) assert.equal(res.body.id, id, where);
}

/** The REST and change-feed effects of a step that succeeded. */
async function checkEffects(server: TestServer, step: ScimFixtureStep, res: ScimResponse, uid: string): Promise<void> {
  const active = activeSetBy(step);
  if (active !== undefined) {
    const rest = await server.get(`/users/${uid}`);
    assert.equal(rest.status, 200, rest.text);
    assert.equal(rest.body.active, active, `REST active after "${step.name}": ${rest.text}`);
    if (res.status === 200) assert.equal(res.body.active, active, `SCIM active after "${step.name}"`);
    if (!active) await assertUpdateEvent(server, uid, rest.body.version, false);
  }
  const workEmail = writesWorkEmail(step);
  if (workEmail !== undefined) {
    const rest = await server.get(`/users/${uid}`);
    assert.ok(
      rest.body.emails.some((e: { value: string; type?: string }) => e.value === workEmail && e.type === 'work'),
      `REST emails after "${step.name}" lack ${workEmail} (work): ${JSON.stringify(rest.body.emails)}`,
    );
  }
  if (step.method === 'DELETE') {
    const rest = await server.get(`/users/${uid}`);
    assert.equal(rest.status, 404, `REST read after "${step.name}": ${rest.text}`);
  }
}

/** Replays `steps` in order; returns the failures (empty when every step answered as documented). */
async function replay(server: TestServer, client: Client, steps: readonly ScimFixtureStep[]): Promise<{ failures: string[]; id: string | undefined }> {
  const failures: string[] = [];
  let id: string | undefined;
  for (const [index, raw] of steps.entries()) {
    const step = resolveStep(raw, id ?? ID_PLACEHOLDER);
    const res = await scimRequest(server.baseUrl, step.method, `/scim/v2${step.path}`, { headers: headersOf(client, step), ...(step.body === undefined ? {} : { body: step.body }) });
    if (step.method === 'POST' && step.path === '/Users' && res.status === 201) id = res.body.id;
    try {
      await checkStep(server, step, res, id);
      if (id !== undefined && res.status < 300) await checkEffects(server, step, res, id);
    } catch (error) {
      if (!(error instanceof assert.AssertionError)) throw error;
      failures.push(`step ${index + 1} "${step.name}": ${error.message}`);
      if (step.method === 'POST' && id === undefined) {
        failures.push(`the create failed: the ${steps.length - index - 1} later steps were not sent`);
        break;
      }
    }
  }
  return { failures, id };
}

const assertNoFailures = (failures: string[]) => assert.equal(failures.length, 0, `\n${failures.join('\n\n')}`);

describeEachStore('identity-provider sessions against /scim/v2', (kind: StoreKind) => {
  async function withServer(run: (server: TestServer) => Promise<void>): Promise<void> {
    const server = await startTestServer({ store: kind });
    try {
      await run(server);
    } finally {
      await server.close();
    }
  }

  it('Okta OIN-template session: every step answers as documented; (de)activation reaches REST and the feed; a repeat create is 409', async () => {
    await withServer(async (server) => {
      const { failures, id } = await replay(server, 'okta', [...oktaSession, oktaConflictStep, oktaUnknownUserStep]);
      assertNoFailures(failures);
      const upper = await scimRequest(server.baseUrl, 'GET', `/scim/v2${oktaUpperCaseFilterPath}`);
      assert.equal(upper.status, 200, upper.text);
      assert.deepEqual(upper.body.Resources.map((r: any) => r.id), [id], 'the upper-cased userName filter finds the user');
    });
  });

  it('Okta App Integration Wizard session: every update is a PUT; active false and true by PUT reach REST and the feed', async () => {
    await withServer(async (server) => {
      const { failures } = await replay(server, 'okta', oktaAiwSession);
      assertNoFailures(failures);
    });
  });

  it('Microsoft Entra session (default dialect): a user without mail (and a userName that is no email address) is refused with 400 invalidValue naming emails', async () => {
    // Entra skips a null `mail`; this directory needs an address for email_address (docs/scim.md, "Decisions").
    const create = entraSession.find((step) => step.method === 'POST');
    assert.ok(create !== undefined);
    await withServer(async (server) => {
      const res = await scimRequest(server.baseUrl, 'POST', `/scim/v2${create.path}`, { body: create.body, headers: headersOf('entra', create) });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.scimType, 'invalidValue');
      assert.match(res.body.detail, /emails/);
    });
  });

  it('Microsoft Entra session (default dialect) for a user created with an email address: every later step answers as documented', async () => {
    // The same session, but the create carries an `other` email, so the steps after it run even
    // where a create without emails is refused. The work email is still added by the filtered Add.
    const steps = entraSession.map((step) =>
      step.method === 'POST' ? { ...step, body: { ...(step.body as object), emails: [{ primary: true, type: 'other', value: `other.${entraWorkEmail}` }] } } : step,
    );
    await withServer(async (server) => {
      const { failures } = await replay(server, 'entra', steps);
      assertNoFailures(failures);
    });
  });

  it('Microsoft Entra session with aadOptscim062020: every step answers as documented, through the delete', async () => {
    await withServer(async (server) => {
      const { failures, id } = await replay(server, 'entra', entraFlaggedSession);
      assertNoFailures(failures);
      assert.ok(id !== undefined);
      // The work email of the create was replaced by the flagged multi-attribute replace, and the user is gone.
      assert.equal((await server.get(`/users/email_address:${encodeURIComponent(entraFlaggedWorkEmail)}`)).status, 404);
    });
  });
});
