/**
 * `npm run bench:console`: the operator console in Chromium against a directory of
 * BENCH_USERS (default 1,000,000) seeded people, one store after the other
 * (BENCH_STORES), the service started as `npm start` runs it. It measures what an
 * operator waits for:
 *
 * 1. first page interactive: from navigating to /console (a new browser context,
 *    nothing cached) to the sign-in field having focus, and from pressing Enter on
 *    the key to the first page of users shown (the search screen, interactive);
 * 2. a search result after the last keystroke: BENCH_CONSOLE_QUERIES (default 40)
 *    searches typed as a person types them (a given name and the start of a family
 *    name, 60 ms between keys); the time from the `input` event of the last key to
 *    the results summary saying what was found, measured in the page
 *    (performance.now()), so it includes the console's typing pause, the request,
 *    the search and the rendering.
 *
 * Targets (issue: console): the first page interactive < 1 s, a result < 200 ms after
 * the last keystroke. Prints the figures and writes bench/.out/<run>/console-results.json.
 * BENCH_CONSOLE_SQLITE=FILE or BENCH_CONSOLE_POSTGRES=URL reuse a database seeded
 * before (the search bench's BENCH_SEARCH_KEEP=1 prints where it kept one).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { loadBenchOptions, type StoreKind } from './bench-options.js';
import { describeMachine, loadAverage } from './machine.js';
import { killAll } from './processes.js';
import { mix, personOf } from './seed-names.js';
import { seededDatabase } from './seeded-database.js';
import { makeCredentials, startService, type Database } from './servers.js';

const options = loadBenchOptions(process.cwd());
const queries = Number(process.env.BENCH_CONSOLE_QUERIES ?? 40);
const reuse: Partial<Record<StoreKind, string>> = { sqlite: process.env.BENCH_CONSOLE_SQLITE || undefined, postgres: process.env.BENCH_CONSOLE_POSTGRES || undefined };
const TARGETS = { interactiveMs: 1000, searchMs: 200 };
const KEY_DELAY_MS = 60;
const LOADS = 5;

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
}

const runDir = join(options.outDir, `console-${new Date().toISOString().replace(/[:.]/g, '-')}`);
mkdirSync(runDir, { recursive: true });
const credentials = makeCredentials(runDir);
const key = (credentials.headers.authorization as string).replace(/^Bearer /, '');

/** What a person types to find seeded person `i`: the given name and the start of the family name. */
function typed(i: number): string {
  const person = personOf(i);
  return `${person.given.text} ${person.family.text.slice(0, 4)}`.toLowerCase();
}

async function seeded(store: StoreKind, cleanups: (() => Promise<void>)[]): Promise<Database> {
  const kept = reuse[store];
  if (kept !== undefined) return { store, location: kept };
  const db = await seededDatabase(options, store, runDir, 'console');
  cleanups.push(() => db.drop());
  return db;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
};

/** Contexts bypass the page's CSP only so that the measuring scripts (strings evaluated in the page) may run; the console runs as served. */
async function measure(browser: Browser, baseUrl: string) {
  const signInMs: number[] = [];
  const firstPageMs: number[] = [];
  for (let load = 0; load < LOADS; load++) {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/console`);
    await page.waitForFunction("document.activeElement && document.activeElement.id === 'credential'");
    signInMs.push(await page.evaluate<number>('performance.now()'));
    await page.fill('#credential', key);
    const started = await page.evaluate<number>("new Promise((resolve) => { document.querySelector('#credential').form.addEventListener('submit', () => resolve(performance.now()), { once: true }); document.querySelector('#credential').form.requestSubmit(); })");
    await page.waitForSelector('#results table, #results-summary:has-text("No user")');
    firstPageMs.push((await page.evaluate<number>('performance.now()')) - started);
    await context.close();
  }

  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/console`);
  await page.fill('#credential', key);
  await page.press('#credential', 'Enter');
  await page.waitForSelector('#results table');
  // In the page: the time of each `input` event, and of each change of the results summary.
  await page.evaluate("window.__inputs = []; window.__shown = []; document.querySelector('#q').addEventListener('input', () => window.__inputs.push(performance.now())); new MutationObserver(() => window.__shown.push([performance.now(), document.querySelector('#results-summary').textContent])).observe(document.querySelector('#results-summary'), { childList: true, characterData: true, subtree: true });");
  const searchMs: number[] = [];
  for (let n = 0; n < queries; n++) {
    const text = typed(mix(n, 0x77) % options.users);
    await page.fill('#q', '');
    await page.evaluate('window.__inputs = []; window.__shown = [];');
    await page.type('#q', text, { delay: KEY_DELAY_MS });
    const last = await page.evaluate<number>('window.__inputs[window.__inputs.length - 1]');
    await page.waitForFunction(`window.__shown.some(([t]) => t > ${last})`);
    const [shownAt] = await page.evaluate<[number, string]>(`window.__shown.find(([t]) => t > ${last})`);
    searchMs.push(shownAt - last);
  }
  await context.close();
  return { signInMs, firstPageMs, searchMs };
}

const results: Record<string, unknown>[] = [];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
try {
  for (const store of options.stores) {
    const cleanups: (() => Promise<void>)[] = [];
    const db = await seeded(store, cleanups);
    const service = await startService(options, runDir, db, credentials, { name: `${store}-console-service` });
    try {
      const { signInMs, firstPageMs, searchMs } = await measure(browser, service.baseUrl);
      const worstInteractive = Math.max(...signInMs) + Math.max(...firstPageMs);
      const p50 = percentile(searchMs, 50);
      const p95 = percentile(searchMs, 95);
      console.log(`[${store}] sign-in page interactive: ${signInMs.map((ms) => ms.toFixed(0)).join(', ')} ms; first page of users after the key: ${firstPageMs.map((ms) => ms.toFixed(0)).join(', ')} ms`);
      console.log(`[${store}] search result after the last keystroke (${searchMs.length} searches): p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${Math.max(...searchMs).toFixed(0)} ms`);
      console.log(`[${store}] targets: interactive < ${TARGETS.interactiveMs} ms ${worstInteractive < TARGETS.interactiveMs ? 'met' : 'NOT met'} (worst ${worstInteractive.toFixed(0)} ms); search < ${TARGETS.searchMs} ms at p95 ${p95 < TARGETS.searchMs ? 'met' : 'NOT met'}`);
      results.push({ store, users: options.users, signInMs, firstPageMs, searchMs, p50, p95 });
    } finally {
      await service.stop();
      for (const cleanup of cleanups) await cleanup();
    }
  }
} finally {
  await browser.close();
}
writeFileSync(join(runDir, 'console-results.json'), `${JSON.stringify({ machine: describeMachine(options.root, runDir), load: loadAverage(), typingPauseIncluded: true, results }, null, 2)}\n`);
console.log(`results: ${join(runDir, 'console-results.json')}`);
