/**
 * The API reference page at /docs in a real browser (Debian's Chromium driven by
 * playwright-core): it loads with no failed request (every asset is served by the
 * service itself), lists the user routes, and a lookup tried from the page
 * returns a user. SAVE_SCREENSHOT=1 writes docs/docs-page.png (shown in the README).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { apiKeysFixture, type ApiKeysFixture } from './helpers/auth-fixtures.js';
import { chromiumSkip as skip, launchChromium } from './helpers/chromium.js';
import { REPO_ROOT } from './helpers/child-server.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

describe('the /docs page in Chromium', skip ? { skip } : {}, () => {
  let server: TestServer;
  let browser: Browser;
  let profile: string;
  before(async () => {
    server = await startTestServer();
    const created = await server.post('/users', { username: 'alice', email_address: 'Alice.Liddell@example.com', legacy_ids: ['crm:77'], display_name: 'Alice Liddell' });
    assert.equal(created.status, 201);
    profile = mkdtempSync(join(tmpdir(), 'user-service-chromium-'));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  it('loads with no failed request, lists the user routes, and tries a lookup that returns the user', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const failures: string[] = [];
    page.on('requestfailed', (request) => failures.push(`${request.url()} ${request.failure()?.errorText}`));
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.url()} ${response.status()}`);
    });
    await page.goto(`${server.baseUrl}/docs/`, { waitUntil: 'networkidle' });
    await page.waitForSelector('.opblock');
    const paths = await page.locator('.opblock-summary-path').allInnerTexts();
    for (const path of ['/users', '/users/{ref}']) assert.ok(paths.some((p) => p.replace(/\u200b/g, '') === path), `${path} in ${paths.join(', ')}`);

    const lookup = page.locator('.opblock-get').filter({ has: page.locator('.opblock-summary-path', { hasText: /^\/users\/\{ref\}$/ }) }).first();
    await lookup.locator('.opblock-summary').click();
    // "Try it out" is on by default (tryItOutEnabled), so the parameter can be filled at once.
    await lookup.locator('input[placeholder="ref"]').fill('username:ALICE');
    await lookup.locator('button.execute').click();
    const body = lookup.locator('.live-responses-table .response-col_description .highlight-code', { hasText: '"uid"' }).first();
    await body.waitFor();
    const text = await body.innerText();
    assert.match(text, /"username": "alice"/);
    assert.match(text, /"uid": "[0-9a-f-]{36}"/);
    assert.deepEqual(failures, []);

    const path = process.env.SAVE_SCREENSHOT === '1' ? join(REPO_ROOT, 'docs', 'docs-page.png') : join(profile, 'docs-page.png');
    await page.screenshot({ path, fullPage: false });
    assert.ok(existsSync(path));
  });
});

describe('the /docs page with authentication on', skip ? { skip } : {}, () => {
  let keys: ApiKeysFixture;
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    keys = apiKeysFixture();
    server = await startTestServer({ env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file } });
    const created = await server.post('/users', { username: 'bob', email_address: 'bob@example.com' }, { authorization: `Bearer ${keys.keys.admin}` });
    assert.equal(created.status, 201);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    keys.cleanup();
  });

  it('authorizes with a bearer token and sends it: a lookup tried from the page returns the user', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const sent: (string | undefined)[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/users/username')) sent.push(request.headers().authorization);
    });
    await page.goto(`${server.baseUrl}/docs/`, { waitUntil: 'networkidle' });
    await page.locator('button.authorize').first().click();
    await page.locator('.modal-ux input').first().fill(keys.keys.reader);
    await page.locator('.modal-ux button.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();

    const lookup = page.locator('.opblock-get').filter({ has: page.locator('.opblock-summary-path', { hasText: /^\/users\/\{ref\}$/ }) }).first();
    await lookup.locator('.opblock-summary').click();
    await lookup.locator('input[placeholder="ref"]').fill('username:bob');
    await lookup.locator('button.execute').click();
    const body = lookup.locator('.live-responses-table .response-col_description .highlight-code', { hasText: '"uid"' }).first();
    await body.waitFor();
    assert.match(await body.innerText(), /"username": "bob"/);
    assert.deepEqual(sent, [`Bearer ${keys.keys.reader}`]);
  });
});
