/**
 * A fresh load of the console, in Chromium, logs no error in the browser's console
 * and makes no request that fails: the page names the service's AUTH_MODE, so with
 * authentication on the console shows the sign-in screen without first asking
 * GET /credential (whose 401 every browser logs as an error), and with it off it
 * asks and is answered. A tab that kept its credential still signs in by itself.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiKeysFixture, type ApiKeysFixture } from '../helpers/auth-fixtures.js';
import { chromiumSkip, launchChromium } from '../helpers/chromium.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** Every console error, failed request and answer of 400 or more the page met. */
function recordFailures(page: Page): string[] {
  const failures: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') failures.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => failures.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => failures.push(`failed request: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
  });
  return failures;
}

const requestsTo = (page: Page, path: string) => {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) seen.push(request.method());
  });
  return seen;
};

describe('the console on a fresh load', chromiumSkip ? { skip: chromiumSkip } : {}, () => {
  let keys: ApiKeysFixture;
  let withKeys: TestServer;
  let open: TestServer;
  let browser: Browser;
  before(async () => {
    keys = apiKeysFixture();
    withKeys = await startTestServer({ env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file } });
    open = await startTestServer({ env: { AUTH_MODE: 'none' } });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await withKeys?.close();
    await open?.close();
    keys?.cleanup();
  });

  it('with AUTH_MODE=api-key: the sign-in screen, no console error, no failed request, no request for /credential', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const failures = recordFailures(page);
    const credential = requestsTo(page, '/credential');
    await page.goto(`${withKeys.baseUrl}/console`, { waitUntil: 'networkidle' });
    await page.getByLabel('Key or token').waitFor();
    assert.deepEqual(failures, []);
    assert.deepEqual(credential, [], 'the mode comes from the page, not from a refused request');
    // Signing in still asks who the key is, and a kept key signs the reloaded tab in by itself, without an error.
    await page.getByLabel('Key or token').fill(keys.keys.admin);
    await page.getByLabel(/Keep me signed in/).check();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    // The first search answered: a reload now aborts no request of the page's own.
    await page.locator('#results-summary').filter({ hasText: 'No user matches.' }).waitFor();
    await page.reload({ waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    assert.deepEqual(failures, []);
    assert.deepEqual(credential, ['GET', 'GET']);
    await page.close();
  });

  it('with AUTH_MODE=none: the console opens at once, no console error, no failed request', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const failures = recordFailures(page);
    await page.goto(`${open.baseUrl}/console`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.locator('#account').getByText('No authentication (AUTH_MODE=none)').waitFor();
    assert.deepEqual(failures, []);
    await page.close();
  });

  it('the page names the mode and nothing else of the configuration', async () => {
    const page = await (await fetch(`${withKeys.baseUrl}/console`)).text();
    assert.match(page, /<meta name="auth-mode" content="api-key">/);
    assert.doesNotMatch(page, new RegExp(keys.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.match(await (await fetch(`${open.baseUrl}/console`)).text(), /<meta name="auth-mode" content="none">/);
  });
});
