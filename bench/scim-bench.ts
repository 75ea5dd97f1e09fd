/**
 * What the SCIM door costs against the REST door of the same instance, on a
 * directory of BENCH_USERS seeded users (issue 23's goals):
 *
 * - an IdP's existence check, `GET /scim/v2/Users?filter=userName eq "x"`, against
 *   `GET /users/username:x` (goal: at least 0.8x its throughput);
 * - a SCIM create against a REST create (goal: at least 0.8x);
 * - a walk of the whole directory in count=100 pages as an IdP does (startIndex 1,
 *   101, 201, …): the median time of the page at startIndex BENCH_SCIM_DEEP_PAGE
 *   (default: 90 % of the way in, 900,001 of 1,000,000) against the first page's,
 *   each asked BENCH_SCIM_PAGE_SAMPLES times after the walk reached it (goal: at most 2x).
 *
 *   npm run bench:scim      (BENCH_STORES, BENCH_USERS, BENCH_DURATION_S, BENCH_ROUNDS as for npm run bench;
 *                            BENCH_SCIM_PARTS=lookups,creates,paging selects the comparisons, all by default)
 *
 * The two sides of a ratio are the same instance under alternating rounds (alternate.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { alternate } from './alternate.js';
import { loadBenchOptions, type StoreKind } from './bench-options.js';
import { forEachStore } from './paired-services.js';
import type { RunningServer } from './processes.js';
import { seededFields } from './seed-data.js';
import { seededDatabase } from './seeded-database.js';
import { makeCredentials, startService } from './servers.js';

const options = loadBenchOptions(process.cwd());
const PAGE = 100;
const deepStart = Number(process.env.BENCH_SCIM_DEEP_PAGE ?? Math.floor((options.users * 0.9) / PAGE) * PAGE + 1);
const samples = Number(process.env.BENCH_SCIM_PAGE_SAMPLES ?? 50);
const parts = new Set((process.env.BENCH_SCIM_PARTS ?? 'lookups,creates,paging').split(','));

const pick = () => Math.floor(Math.random() * options.users);
const JSON_TYPE = { 'content-type': 'application/json' };

function dynamic(build: () => autocannon.Request): autocannon.Request[] {
  return [
    {
      setupRequest: (request) => {
        const built = build();
        return { ...request, ...built, headers: { ...request.headers, ...built.headers } };
      },
    },
  ];
}

const lookups = (scim: boolean): autocannon.Request[] =>
  dynamic(() => {
    const name = seededFields(pick()).username;
    return { method: 'GET', path: scim ? `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${name}"`)}` : `/users/username:${encodeURIComponent(name)}` };
  });

function creates(tag: string, scim: boolean): autocannon.Request[] {
  let n = 0;
  return dynamic(() => {
    const name = `scim.${tag}.${n++}`;
    const body = scim
      ? { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: name, emails: [{ value: `${name}@bench.example`, type: 'work', primary: true }], displayName: 'Bench User', active: true }
      : { username: name, email_address: `${name}@bench.example`, display_name: 'Bench User' };
    return { method: 'POST', path: scim ? '/scim/v2/Users' : '/users', headers: JSON_TYPE, body: JSON.stringify(body) };
  });
}

/** The same instance under two names: the two sides of a comparison. */
const side = (server: RunningServer, name: string): RunningServer => ({ ...server, name });

async function timedPage(server: RunningServer, headers: Record<string, string>, startIndex: number): Promise<{ ms: number; total: number; got: number }> {
  const started = process.hrtime.bigint();
  const response = await fetch(`${server.baseUrl}/scim/v2/Users?startIndex=${startIndex}&count=${PAGE}`, { headers });
  const body = (await response.json()) as { totalResults: number; Resources: unknown[] };
  if (response.status !== 200) throw new Error(`page ${startIndex}: ${response.status} ${JSON.stringify(body)}`);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, total: body.totalResults, got: body.Resources.length };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function pagingRatio(server: RunningServer, headers: Record<string, string>, store: StoreKind): Promise<void> {
  const walkStarted = Date.now();
  let visited = 0;
  for (let start = 1; start <= deepStart; start += PAGE) visited += (await timedPage(server, headers, start)).got;
  const walkS = (Date.now() - walkStarted) / 1000;
  const first: number[] = [];
  const deep: number[] = [];
  for (let i = 0; i < samples; i++) {
    first.push((await timedPage(server, headers, 1)).ms);
    deep.push((await timedPage(server, headers, deepStart)).ms);
  }
  const ratio = median(deep) / median(first);
  console.log(
    `${store}: walk to startIndex ${deepStart} (${visited} users in ${walkS.toFixed(1)} s); page at 1: median ${median(first).toFixed(2)} ms, at ${deepStart}: ${median(deep).toFixed(2)} ms: ${ratio.toFixed(2)}x (target <= 2.00)`,
  );
}

await forEachStore(options, async (store) => {
  const runDir = mkdtempSync(join(tmpdir(), `bench-scim-${store}-`));
  const db = await seededDatabase(options, store, runDir, 'scim');
  try {
    const { location } = db;
    const credentials = makeCredentials(runDir);
    const server = await startService(options, runDir, { store, location }, credentials, { name: `scim-${store}` });
    try {
      const [scim, rest] = [side(server, 'scim'), side(server, 'rest')];
      if (parts.has('lookups')) {
        const read = await alternate(scim, rest, (_tag, s) => lookups(s === scim), { options, headers: credentials.headers, label: `${store} userName lookups` });
        console.log(`${store}: SCIM filter userName eq ${read.service.rps.toFixed(0)}/s, REST /users/username: ${read.baseline.rps.toFixed(0)}/s: ${read.ratio.toFixed(2)}x (target >= 0.80)`);
      }
      if (parts.has('creates')) {
        const write = await alternate(scim, rest, (tag, s) => creates(tag, s === scim), { options, headers: credentials.headers, label: `${store} creates` });
        console.log(`${store}: SCIM creates ${write.service.rps.toFixed(0)}/s, REST creates ${write.baseline.rps.toFixed(0)}/s: ${write.ratio.toFixed(2)}x (target >= 0.80)`);
      }
      if (parts.has('paging')) await pagingRatio(server, credentials.headers, store);
    } finally {
      await server.stop();
    }
  } finally {
    await db.drop();
    rmSync(runDir, { recursive: true, force: true });
  }
});
