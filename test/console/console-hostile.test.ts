/**
 * The console against what a careless network or a hostile record does, in
 * Chromium: a slow answer for a user the operator has already left never shows
 * that user (nor its buttons) under another address; a pause pressed before the
 * live tail has started never starts a second stream; an edit sends only what
 * the operator changed, merged with "More changes" member by member; a user is
 * opened by its external id; names are isolated from the sentences around them
 * (a right-to-left override cannot reorder the delete dialog); the skip link
 * used before signing in does not keep the sign-in form on screen. The screens
 * do not depend on the store: this runs on SQLite.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiKeysFixture, type ApiKeysFixture } from '../helpers/auth-fixtures.js';
import { chromiumSkip, launchChromium, signedInConsole } from '../helpers/chromium.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('the console against slow answers and hostile records', chromiumSkip ? { skip: chromiumSkip } : {}, () => {
  let keys: ApiKeysFixture;
  let server: TestServer;
  let browser: Browser;
  let admin: Record<string, string>;
  const uids: Record<string, string> = {};
  before(async () => {
    keys = apiKeysFixture();
    admin = { authorization: `Bearer ${keys.keys.admin}` };
    server = await startTestServer({ env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file } });
    const people = {
      first: { username: 'first', email_address: 'first@example.com', display_name: 'First Person' },
      second: { username: 'second', email_address: 'second@example.com', display_name: 'Second Person' },
      padded: { username: 'padded', email_address: 'padded@example.com', title: '  padded title  ', name: { given_name: 'Ann', family_name: 'Lee' }, external_id: 'ext/<b>7</b>?#%' },
      spoof: { username: 'spoof', email_address: 'spoof@example.com', display_name: 'Mallory \u202e RTL' },
    };
    for (const [name, body] of Object.entries(people)) uids[name] = (await server.post('/users', body, admin)).body.uid;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    keys?.cleanup();
  });

  const signedIn = () => signedInConsole(browser, server.baseUrl, keys.keys.admin);

  /** Holds the answers to requests matching `pattern` until release() is called. */
  async function hold(page: Page, pattern: RegExp): Promise<{ release(): void }> {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route(pattern, async (route) => {
      await gate;
      await route.continue();
    });
    return { release };
  }

  it("a user's answer that arrives after the operator moved on is never shown", async () => {
    const page = await signedIn();
    const slow = await hold(page, new RegExp(`/users/${uids.first}$`));
    await page.evaluate(`location.hash = '#/users/${uids.first}'`);
    await page.evaluate(`location.hash = '#/users/${uids.second}'`);
    await page.getByRole('heading', { level: 1, name: /Second Person/ }).waitFor();
    slow.release();
    // The first user's answer comes now; give it the time to be drawn, then check it was not.
    await page.waitForResponse(new RegExp(`/users/${uids.first}$`));
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)))');
    assert.equal(await page.getByRole('heading', { level: 1, name: /First Person/ }).count(), 0);
    assert.equal(await page.getByRole('heading', { level: 1 }).count(), 1);
    await page.close();
  });

  it('a pause pressed before the tail started holds: one stream after resuming, each event once', async () => {
    const page = await signedIn();
    const slow = await hold(page, /\/users\?limit=1$/);
    await page.getByRole('link', { name: 'Live changes' }).click();
    await page.getByRole('button', { name: 'Pause' }).click();
    slow.release();
    await page.waitForResponse(/\/users\?limit=1$/);
    await server.post('/users', { username: 'during', email_address: 'during@example.com', display_name: 'During Pause' }, admin);
    const tail = page.getByRole('log');
    assert.equal(await tail.getByText(/During Pause/).count(), 0, 'nothing is shown while paused');
    const streams: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/events?')) streams.push(request.url());
    });
    await page.getByRole('button', { name: 'Resume' }).click();
    await tail.getByText(/During Pause created/).waitFor();
    await server.post('/users', { username: 'later', email_address: 'later@example.com', display_name: 'Later One' }, admin);
    await tail.getByText(/Later One created/).waitFor();
    assert.equal(await tail.getByText(/During Pause created/).count(), 1);
    assert.equal(await tail.getByText(/Later One created/).count(), 1);
    assert.equal(streams.length, 1, 'one stream');
    await page.close();
  });

  it('an edit sends only the fields changed, merged member by member with "More changes"', async () => {
    const page = await signedIn();
    await page.getByLabel('Open by uid or key').fill('external_id:ext/<b>7</b>?#%');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: /Ann Lee/ }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Given name').fill('Annabel');
    await page.getByLabel('More changes (JSON merge patch, optional)').fill('{"name": {"formatted": "Dr Ann Lee"}}');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('main').getByText(/^Saved: version 2\.$/).waitFor();
    const saved = (await server.get(`/users/${uids.padded}`, admin)).body;
    assert.deepEqual(saved.name, { given_name: 'Annabel', family_name: 'Lee', formatted: 'Dr Ann Lee' });
    assert.equal(saved.title, '  padded title  ', 'a field the operator did not touch is not rewritten');
    await page.close();
  });

  it("names are isolated from the sentence around them, and the skip link keeps the views working", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.baseUrl}/console`);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByLabel('Key or token').fill(keys.keys.admin);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.evaluate(`location.hash = '#/users/${uids.spoof}'`);
    await page.getByRole('button', { name: 'Delete…' }).click();
    const sentence = page.locator('#delete-what');
    await sentence.waitFor();
    // Each value from the record sits in its own <bdi>, and the words between them are the service's own, in order.
    assert.deepEqual(await sentence.locator('bdi').allInnerTexts(), ['Mallory \u202e RTL', 'spoof', 'spoof@example.com', 'spoof']);
    const own = await page.evaluate<string>("[...document.getElementById('delete-what').childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('|')");
    assert.match(own, /^This deletes \| \(username \|, \|\) for good/);
    await page.close();
  });
});
