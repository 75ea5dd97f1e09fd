/**
 * The operator console at /console in a real browser (Debian's Chromium), on
 * both stores, signed in with API keys: a read-only key sees no edit control;
 * an administrator searches as they type, pages, opens a user by key, edits
 * into a conflict (nothing is overwritten), deactivates, deletes after naming
 * the user, and watches the live tail receive another client's writes, paused
 * and resumed. Throughout, the page asks nothing of another origin, the key is
 * in no URL and in no storage, and the content security policy refuses nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiKeysFixture, AUDIENCE, ISSUER, jwtFixture, type ApiKeysFixture, type JwtFixture } from '../helpers/auth-fixtures.js';
import { chromiumSkip, launchChromium } from '../helpers/chromium.js';
import { describeEachStore } from '../helpers/stores.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { watchPage, type PageWatch } from './page-watch.js';

describeEachStore('the console in Chromium', (kind) => {
  let keys: ApiKeysFixture;
  let server: TestServer;
  let browser: Browser;
  let admin: Record<string, string>;
  before(async () => {
    if (chromiumSkip) return;
    keys = apiKeysFixture();
    admin = { authorization: `Bearer ${keys.keys.admin}` };
    server = await startTestServer({ store: kind, env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file } });
    const people = [
      { username: 'alice', email_address: 'Alice.Liddell@example.com', display_name: 'Alice Liddell', department: 'R&D', title: 'Engineer' },
      { username: 'jgarcia', email_address: 'jose.garcia@example.com', display_name: 'José García', name: { given_name: 'José', family_name: 'García' }, department: 'Sales' },
      ...Array.from({ length: 24 }, (_, i) => ({ username: `garcia${i}`, email_address: `garcia${i}@example.com`, name: { given_name: `Ana${i}`, family_name: 'Garcia' }, department: 'Support' })),
    ];
    for (const person of people) assert.equal((await server.post('/users', person, admin)).status, 201);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    keys?.cleanup();
  });

  async function open(): Promise<{ page: Page; watch: PageWatch }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const watch = watchPage(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/console`);
    return { page, watch };
  }

  async function signIn(page: Page, key: string): Promise<void> {
    await page.getByLabel('Key or token').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
  }

  /** The results summary (also announced in the status region, which says the same). */
  const summary = (page: Page, text: string) => page.locator('#results-summary').filter({ hasText: text }).waitFor();

  const skip = chromiumSkip ? { skip: chromiumSkip } : {};

  it('refuses a wrong key, and a read-only key sees users but no edit, deactivate or delete control', skip, async () => {
    const { page, watch } = await open();
    await page.getByLabel('Key or token').waitFor();
    assert.equal(await page.locator('#nav').isVisible(), false, 'no navigation before signing in');
    await page.getByLabel('Key or token').fill(keys.keys.unknown);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'bearer token' }).waitFor();
    await signIn(page, keys.keys.reader);
    await page.locator('#account').getByText(`Signed in as ${keys.ids.reader}`).waitFor();
    assert.equal(await page.locator('#nav').isVisible(), true);
    await page.getByLabel('Open by uid or key').fill('username:alice');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('heading', { level: 2, name: 'Fields' }).waitFor();
    assert.equal(await page.getByRole('button', { name: /^(Edit|Deactivate|Delete…)$/ }).count(), 0);
    await watch.assertClean([keys.keys.unknown, keys.keys.reader]);
    await page.close();
  });

  it('searches as the operator types, pages through Link, and opens a user by key', skip, async () => {
    const { page, watch } = await open();
    await signIn(page, keys.keys.admin);
    const search = page.getByLabel('Search people');
    await search.pressSequentially('jose gar');
    await page.getByRole('link', { name: 'José García' }).waitFor();
    await summary(page, 'Users 1–1.');

    await search.fill('');
    // Every prefix of GARC has a full first page: wait for GARC's own answer before paging, so
    // that Next is pressed on its results and not on a shorter prefix's still on screen.
    const garc = page.waitForResponse((response) => new URL(response.url()).searchParams.get('q') === 'GARC');
    await search.pressSequentially('GARC');
    await garc;
    await summary(page, 'Users 1–20, more follow.');
    await page.getByRole('button', { name: 'Next page' }).click();
    await summary(page, 'Users 21–25.');
    assert.equal(await page.getByRole('button', { name: 'Next page' }).isDisabled(), true);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await summary(page, 'Users 1–20, more follow.');

    await page.getByLabel('Department').fill('sales');
    await summary(page, 'Users 1–1.');

    await page.getByLabel('Open by uid or key').fill('email_address:ALICE.LIDDELL@example.com');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: /Alice Liddell/ }).waitFor();
    assert.match(page.url(), /#\/users\/[0-9a-f-]{36}$/);
    await watch.assertClean([keys.keys.admin]);
    await page.close();
  });

  it('an edit made stale by another client shows the conflict and writes nothing until the operator applies it again', skip, async () => {
    const alice = (await server.get('/users/username:alice', admin)).body;
    const { page, watch } = await open();
    await signIn(page, keys.keys.admin);
    await page.goto(`${server.baseUrl}/console#/users/${alice.uid}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Title').fill('Chief Engineer');

    const other = await server.request('PATCH', `/users/${alice.uid}`, { headers: { ...admin, 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ title: 'Principal Engineer' }) });
    assert.equal(other.status, 200);
    await page.getByRole('button', { name: 'Save' }).click();
    const conflict = page.getByRole('alert').filter({ hasText: 'Conflict' });
    await conflict.waitFor();
    assert.match(await conflict.innerText(), /title\s+Chief Engineer\s+Principal Engineer/);
    assert.equal((await server.get(`/users/${alice.uid}`, admin)).body.title, 'Principal Engineer');

    await page.getByRole('button', { name: 'Apply my changes to the current version' }).click();
    await page.locator('main').getByText(/^Saved: version \d+\.$/).waitFor();
    const saved = (await server.get(`/users/${alice.uid}`, admin)).body;
    assert.equal(saved.title, 'Chief Engineer');
    assert.equal(saved.version, other.body.version + 1);
    // The history names the fields each change made and who made it.
    await page.locator('.history tbody tr').first().filter({ hasText: 'Changed: title' }).filter({ hasText: `${keys.ids.admin} via the API` }).waitFor();
    await watch.assertClean([keys.keys.admin]);
    await page.close();
  });

  it('deactivates and reactivates a user, and deletes it only once its username is typed', skip, async () => {
    const target = (await server.post('/users', { username: 'leaver', email_address: 'leaver@example.com', display_name: 'Lee Ver' }, admin)).body;
    const { page, watch } = await open();
    await signIn(page, keys.keys.admin);
    await page.goto(`${server.baseUrl}/console#/users/${target.uid}`);
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('heading', { level: 1, name: /Lee Ver\s+Deactivated/ }).waitFor();
    assert.equal((await server.get(`/users/${target.uid}`, admin)).body.active, false);
    await page.getByRole('button', { name: 'Reactivate' }).click();
    await page.getByRole('heading', { level: 1, name: /Lee Ver\s+Active/ }).waitFor();
    assert.equal((await server.get(`/users/${target.uid}`, admin)).body.active, true);

    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Lee Ver?' });
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /username leaver, leaver@example\.com/);
    const confirm = dialog.getByRole('button', { name: 'Delete leaver' });
    assert.equal(await confirm.isDisabled(), true);
    await dialog.getByLabel('Username').fill('leave');
    assert.equal(await confirm.isDisabled(), true);
    await dialog.getByLabel('Username').fill('leaver');
    await confirm.click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    assert.equal((await server.get(`/users/${target.uid}`, admin)).status, 404);
    await watch.assertClean([keys.keys.admin]);
    await page.close();
  });

  it("the live tail shows another client's writes as they commit, and after a pause shows what happened meanwhile", skip, async () => {
    const { page, watch } = await open();
    await signIn(page, keys.keys.admin);
    await page.getByRole('link', { name: 'Live changes' }).click();
    await page.locator('#tail-state').getByText('Live', { exact: true }).waitFor();
    const tail = page.getByRole('log', { name: 'Changes, newest first' });

    await server.post('/users', { username: 'carol', email_address: 'carol@example.com', display_name: 'Carol Tail' }, admin);
    await tail.getByText(/Carol Tail created by /).waitFor();

    await page.getByRole('button', { name: 'Pause' }).click();
    await page.locator('main').getByText(/^Paused at #\d+/).waitFor();
    await server.post('/users', { username: 'dave', email_address: 'dave@example.com', display_name: 'Dave Paused' }, admin);
    assert.equal(await tail.getByText(/Dave Paused/).count(), 0);
    await page.getByRole('button', { name: 'Resume' }).click();
    await tail.getByText(/Dave Paused created by /).waitFor();
    assert.equal(await tail.getByText(/Carol Tail created/).count(), 1, 'each event once');
    await watch.assertClean([keys.keys.admin]);
    await page.close();
  });
});

describe('the console signed in with an OIDC access token', chromiumSkip ? { skip: chromiumSkip } : {}, () => {
  let jwt: JwtFixture;
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    jwt = await jwtFixture();
    server = await startTestServer({ env: { AUTH_MODE: 'jwt', JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, JWT_JWKS_FILE: jwt.jwksFile } });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    jwt?.cleanup();
  });

  it("names the token's subject, offers what its scopes allow, and an expired token is refused", async () => {
    const page = await browser.newPage();
    const watch = watchPage(page, server.baseUrl);
    const reader = await jwt.token({ sub: 'support-7', scope: 'users:read' });
    const expired = await jwt.token({ sub: 'support-7', exp: Math.floor(Date.now() / 1000) - 3600 });
    await page.goto(`${server.baseUrl}/console`);
    await page.getByLabel('Key or token').fill(expired);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'bearer token' }).waitFor();
    await page.getByLabel('Key or token').fill(reader);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#account').getByText('Signed in as support-7').waitFor();
    assert.match(await page.locator('#account').innerText(), /\(users:read\)/);
    await watch.assertClean([reader, expired]);
    await page.close();
  });
});
