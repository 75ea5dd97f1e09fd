/**
 * Debian's Chromium, driven by playwright-core, for the tests that run the
 * service's pages in a real browser. Missing Chromium skips those tests with
 * the reason, except in CI, where it is an error (.ci/run installs it).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

export const chromiumSkip = existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is not installed (apt-get install chromium)`;
if (chromiumSkip && process.env.CI === 'true') throw new Error(`CI requires Chromium: ${chromiumSkip}`);

/** Headless, with nothing that would reach out to the network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** A new page of the console at `baseUrl`, signed in with `key`, once its user search is shown. */
export async function signedInConsole(browser: Browser, baseUrl: string, key: string, options: BrowserContextOptions = {}): Promise<Page> {
  const page = await browser.newPage(options);
  await page.goto(`${baseUrl}/console`);
  await page.getByLabel('Key or token').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
  return page;
}
