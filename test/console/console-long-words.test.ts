/**
 * Long unbroken words in a user (a 240-character display name, a 200-character
 * title and department, a 64-character username, a long email address) wrap: at a
 * 1280 px viewport neither the search results nor the user's page scrolls
 * sideways, in Chromium, and the results' other columns stay on screen.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiKeysFixture, type ApiKeysFixture } from '../helpers/auth-fixtures.js';
import { chromiumSkip, launchChromium, signedInConsole } from '../helpers/chromium.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const WIDTH = 1280;

describe('the console with long unbroken words', chromiumSkip ? { skip: chromiumSkip } : {}, () => {
  let keys: ApiKeysFixture;
  let server: TestServer;
  let browser: Browser;
  let uid: string;
  before(async () => {
    keys = apiKeysFixture();
    server = await startTestServer({ env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file } });
    const admin = { authorization: `Bearer ${keys.keys.admin}` };
    const long = {
      username: `longword${'x'.repeat(56)}`,
      email_address: `${'m'.repeat(64)}@${'d'.repeat(60)}.example.com`,
      display_name: `Wolfeschlegelsteinhausen${'bergerdorff'.repeat(20)}`.slice(0, 240),
      title: 'Chief'.repeat(40),
      department: 'Donaudampfschifffahrtsgesellschaft'.repeat(6).slice(0, 200),
      name: { given_name: 'G'.repeat(200), family_name: 'Family' },
    };
    assert.equal(long.display_name.length, 240);
    const created = await server.post('/users', long, admin);
    assert.equal(created.status, 201, created.text);
    uid = created.body.uid;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    keys?.cleanup();
  });

  const signedIn = () => signedInConsole(browser, server.baseUrl, keys.keys.admin, { viewport: { width: WIDTH, height: 900 } });

  /** The page's width beyond the window's: 0 when nothing scrolls sideways. */
  const overflow = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');

  it('the search results: no horizontal scroll, and Username, Email and Status stay within the window', async () => {
    const page = await signedIn();
    // The first page of every user, which the view shows on opening: the one user of this directory.
    await page.locator('#results-summary').filter({ hasText: 'Users 1–1.' }).waitFor();
    await page.getByRole('link', { name: /^Wolfeschlegelsteinhausen/ }).waitFor();
    assert.ok((await overflow(page)) <= 0, `the page is ${await overflow(page)} px wider than the window`);
    for (const column of ['Username', 'Email', 'Status']) {
      const box = await page.locator('table.results thead th').filter({ hasText: new RegExp(`^${column}$`) }).boundingBox();
      assert.ok(box !== null && box.x + box.width <= WIDTH, `${column} is off screen: ${JSON.stringify(box)}`);
    }
    await page.close();
  });

  it("the user's page: the heading and the fields wrap; no horizontal scroll", async () => {
    const page = await signedIn();
    await page.getByRole('link', { name: /^Wolfeschlegelsteinhausen/ }).click();
    await page.getByRole('heading', { level: 1, name: /^Wolfeschlegelsteinhausen/ }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Fields' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'History' }).waitFor();
    await page.locator('.history table').waitFor();
    assert.equal(new URL(page.url()).hash, `#/users/${uid}`);
    assert.ok((await overflow(page)) <= 0, `the page is ${await overflow(page)} px wider than the window`);
    const heading = await page.getByRole('heading', { level: 1 }).boundingBox();
    assert.ok(heading !== null && heading.x + heading.width <= WIDTH && heading.height > 60, `the heading does not wrap: ${JSON.stringify(heading)}`);
    await page.close();
  });
});
