/**
 * What a console page did, checked after each browser test: every request went
 * to the service's own origin, no secret appeared in any URL or in the page's
 * storage, and the content security policy refused nothing (Chromium reports a
 * refusal as a console error).
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

export interface PageWatch {
  /** Asserts the page stayed clean, with `secrets` (keys, tokens) in none of its URLs or storage. */
  assertClean(secrets: readonly string[]): Promise<void>;
}

export function watchPage(page: Page, baseUrl: string): PageWatch {
  const origin = new URL(baseUrl).origin;
  const urls: string[] = [];
  const refusals: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  page.on('framenavigated', (frame) => urls.push(frame.url()));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) refusals.push(message.text());
  });
  return {
    async assertClean(secrets) {
      const foreign = urls.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin);
      assert.deepEqual(foreign, [], 'every request goes to the service itself');
      for (const secret of secrets) {
        assert.deepEqual(urls.filter((url) => url.includes(secret) || decodeURIComponent(url).includes(secret)), [], 'no credential in a URL');
      }
      // A string, evaluated in the page: this file is compiled without the DOM's types.
      const stored = await page.evaluate<string>('JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie })');
      for (const secret of secrets) assert.ok(!stored.includes(secret), 'no credential kept in storage unless asked');
      assert.deepEqual(refusals, [], 'the content security policy refused nothing');
    },
  };
}
