/**
 * The console for people who use a keyboard or a screen reader, in Chromium:
 * axe-core finds no serious or critical violation (WCAG 2.1 A and AA, and its
 * best practices) on any main screen; the whole path from signing in to
 * editing a user works from the keyboard alone, with focus moved to each new
 * view's heading. The page is served with its content security policy, and
 * its assets stay under 150 KB compressed. SAVE_SCREENSHOT=1 writes each
 * screen to docs/console-*.png (shown in docs/console.md).
 *
 * The screens do not depend on the store: this runs on SQLite; the flows on
 * both stores are in console-browser.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiKeysFixture, type ApiKeysFixture } from '../helpers/auth-fixtures.js';
import { chromiumSkip, launchChromium } from '../helpers/chromium.js';
import { REPO_ROOT } from '../helpers/child-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SAVE = process.env.SAVE_SCREENSHOT === '1';

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical findings on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the browser's debugging protocol, which the page's CSP does not govern.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate<Violation[]>(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } }).then((r) => r.violations)",
  );
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`);
}

async function screen(page: Page, name: string, fullPage = false): Promise<void> {
  assert.deepEqual(await seriousViolations(page), [], `${name}: no serious accessibility violation`);
  if (SAVE) await page.screenshot({ path: join(REPO_ROOT, 'docs', `console-${name}.png`), fullPage });
}

/** A request whose body is counted as sent (fetch would decompress it), with the headers as sent. */
function rawRequest(method: string, url: string, headers: Record<string, string>): Promise<{ status: number; encoding: string | undefined; contentLength: string | undefined; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, encoding: res.headers['content-encoding'], contentLength: res.headers['content-length'], bytes }));
      })
      .on('error', reject)
      .end();
  });
}

/** The element that has focus, as `tag#id` or `tag "text"`. */
const focused = (page: Page) => page.evaluate<string>("(() => { const e = document.activeElement; return e ? `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} ${(e.textContent || '').trim().slice(0, 40)}` : '' })()");

describe('the console for keyboard and screen-reader users', chromiumSkip ? { skip: chromiumSkip } : {}, () => {
  let keys: ApiKeysFixture;
  let server: TestServer;
  let browser: Browser;
  let admin: Record<string, string>;
  let alice: { uid: string };
  before(async () => {
    keys = apiKeysFixture();
    admin = { authorization: `Bearer ${keys.keys.admin}` };
    server = await startTestServer({ env: { AUTH_MODE: 'api-key', API_KEYS_FILE: keys.file } });
    alice = (await server.post('/users', { username: 'alice', email_address: 'Alice.Liddell@example.com', display_name: 'Alice Liddell', name: { given_name: 'Alice', family_name: 'Liddell' }, department: 'R&D', title: 'Engineer', legacy_ids: ['crm:77'] }, admin)).body;
    for (const [username, display_name, department] of [['jgarcia', 'José García', 'Sales'], ['bobrien', "Bob O'Brien", 'Support'], ['zoe', 'Zoë Ünal', 'R&D']] as const) {
      await server.post('/users', { username, email_address: `${username}@example.com`, display_name, department }, admin);
    }
    await server.request('PATCH', `/users/${alice.uid}`, { headers: { ...admin, 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ title: 'Senior Engineer' }) });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    keys?.cleanup();
  });

  it('serves the page with a policy that allows only this origin, and assets under 150 KB compressed', async () => {
    // fetch, not the test client: the page and its assets are not API operations, so the OpenAPI document leaves them out.
    const page = await fetch(`${server.baseUrl}/console`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(String(page.headers.get('content-security-policy')), /^default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self';/);
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    const again = await fetch(`${server.baseUrl}/console`, { headers: { 'if-none-match': String(page.headers.get('etag')) } });
    assert.equal(again.status, 304);
    for (const asset of ['/console', '/console/console.js']) {
      const etag = String((await fetch(`${server.baseUrl}${asset}`, { method: 'HEAD' })).headers.get('etag'));
      assert.match(etag, /^W\/"/, 'a weak tag: the asset may go out compressed');
      const head = await rawRequest('HEAD', `${server.baseUrl}${asset}`, { 'if-none-match': etag });
      assert.equal(head.status, 304, asset);
      assert.equal(head.contentLength, undefined, `${asset}: a 304 carries no Content-Length (RFC 9110 §8.6)`);
    }
    // As a browser asks: the bytes sent, compressed by the service (http/compression.ts).
    let compressed = 0;
    for (const asset of ['/console', '/console/console.js', '/console/console.css']) {
      const sent = await rawRequest('GET', `${server.baseUrl}${asset}`, { 'accept-encoding': 'gzip, deflate, br' });
      assert.equal(sent.status, 200, asset);
      if (asset !== '/console') assert.equal(sent.encoding, 'gzip', `${asset} is sent compressed`);
      compressed += sent.bytes;
    }
    assert.ok(compressed <= 150 * 1024, `${compressed} bytes compressed`);
  });

  it('each main screen has no serious accessibility violation, and the path from sign-in to an edit works by keyboard alone', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.baseUrl}/console`);
    await page.getByLabel('Key or token').waitFor();
    assert.match(await focused(page), /^input#credential/, 'the key field has focus on arrival');
    await screen(page, 'sign-in');

    await page.keyboard.type(keys.keys.admin);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    assert.match(await focused(page), /^h1 Users/, 'focus moves to the new view');
    await page.keyboard.press('Tab');
    assert.match(await focused(page), /^input#q/, 'the search field comes first');
    await page.keyboard.type('ali');
    const result = page.getByRole('link', { name: 'Alice Liddell' });
    await result.waitFor();
    await screen(page, 'search');

    // Tab on to the result and open it with Enter.
    for (let i = 0; i < 12 && !(await focused(page)).startsWith('a Alice Liddell'); i++) await page.keyboard.press('Tab');
    assert.match(await focused(page), /^a Alice Liddell/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 2, name: 'History' }).waitFor();
    await page.locator('.history tbody tr').nth(1).waitFor();
    assert.match(await focused(page), /^h1 Alice Liddell/);
    await screen(page, 'user', true);

    for (let i = 0; i < 6 && !(await focused(page)).startsWith('button Edit'); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    assert.match(await focused(page), /^input#edit-username/, 'the form takes focus');
    await page.getByLabel('Title').fill('Staff Engineer');
    await server.request('PATCH', `/users/${alice.uid}`, { headers: { ...admin, 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ title: 'Principal Engineer' }) });
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Conflict' }).waitFor();
    assert.match(await focused(page), /^button Apply my changes/, 'the conflict takes focus');
    await screen(page, 'conflict');
    await page.keyboard.press('Enter');
    await page.locator('main').getByText(/^Saved: version \d+\.$/).waitFor();

    for (let i = 0; i < 8 && !(await focused(page)).startsWith('button Delete…'); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    assert.match(await focused(page), /^input#confirm-username/);
    await screen(page, 'delete');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    assert.match(await focused(page), /^button Delete…/, 'focus returns to the button that opened the dialog');
    assert.equal((await server.get(`/users/${alice.uid}`, admin)).status, 200, 'Escape deletes nothing');

    await page.getByRole('link', { name: 'Live changes' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#tail-state').getByText('Live', { exact: true }).waitFor();
    await server.post('/users', { username: 'carol', email_address: 'carol@example.com', display_name: 'Carol Tail' }, admin);
    await server.request('PATCH', `/users/${alice.uid}`, { headers: { ...admin, 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ department: 'Research' }) });
    await page.getByRole('log').getByText(/Alice Liddell changed/).waitFor();
    await screen(page, 'live');
    await page.close();
  });
});
