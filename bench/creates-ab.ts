/**
 * What a change costs creates: POST /users (the `create` scenario of scenarios.ts, and
 * a create of a person with a name, title and department like the seeded ones) against
 * two builds, the one before (BENCH_BEFORE_ROOT, before-build.ts) and this one, each
 * service on a database of BENCH_USERS users seeded by its own build's seeder, in
 * alternating rounds (alternate.ts: after, before, after, before, after a warm-up of each).
 *
 *   npm run build && BENCH_USERS=100000 node dist/bench/creates-ab.js
 *   (BENCH_STORES, BENCH_DURATION_S, BENCH_ROUNDS, BENCH_CONNECTIONS as for npm run bench)
 *
 * Prints a Markdown table and writes it to the section "Creates before and after search"
 * of docs/performance.md (BENCH_DOCS=0: not).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { alternate } from './alternate.js';
import { beforeAndAfter, type Build } from './before-build.js';
import { loadBenchOptions, type StoreKind } from './bench-options.js';
import { writeBeforeAfterDocs } from './docs-writer.js';
import { describeMachine, loadAverage } from './machine.js';
import { forEachStore } from './paired-services.js';
import { createScratchDatabase, type ScratchDatabase } from './postgres-database.js';
import type { RunningServer } from './processes.js';
import { runHeader } from './report.js';
import type { Comparison } from './results.js';
import { SCENARIOS } from './scenarios.js';
import { seededFields } from './seed-data.js';
import { makeCredentials, startService, type Database } from './servers.js';

const options = loadBenchOptions(process.cwd());
const { before, after } = beforeAndAfter(options.root);
const startedAt = new Date();
const loadBefore = loadAverage();

type Seeder = { seedSqlite(path: string, count: number): unknown; seedPostgres(url: string, count: number): Promise<unknown> };

/** A database of BENCH_USERS users seeded by `build`'s own seeder (so with its own schema). */
async function seededBy(build: Build, store: StoreKind, dir: string, label: string, drops: ScratchDatabase[]): Promise<Database> {
  if (store === 'sqlite') {
    const { seedSqlite } = (await import(join(build.root, 'dist/bench/seed-sqlite.js'))) as Seeder;
    const location = join(dir, `${label}.db`);
    seedSqlite(location, options.users);
    return { store, location };
  }
  const { seedPostgres } = (await import(join(build.root, 'dist/bench/seed-postgres.js'))) as Seeder;
  const scratch = await createScratchDatabase(options.postgresUrl, `creates_${label}`);
  drops.push(scratch);
  await seedPostgres(scratch.url, options.users);
  return { store, location: scratch.url };
}

/** A create of a person like the seeded ones, unique per run and request. */
function personCreates(tag: string): autocannon.Request[] {
  let n = 0;
  return [{
    setupRequest: (request) => {
      const fields = seededFields(options.users + n);
      const name = `${fields.username}.${tag}`;
      const body = { ...fields, username: name, email_address: `${name}@bench.example`, legacy_ids: [`bench:${tag}:${n}`], employee_number: `${tag}-${n++}` };
      return { ...request, method: 'POST', path: '/users', headers: { ...request.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
    },
  }];
}

const KINDS = [
  { name: 'create', title: 'create (the `create` scenario: username, email, legacy id, display name "Bench User")', requests: (tag: string) => (SCENARIOS.find((s) => s.name === 'create') as (typeof SCENARIOS)[number]).requests({ users: options.users, tag }) },
  { name: 'create-person', title: 'create of a seeded-like person (name, title, department, employee number, user type)', requests: personCreates },
] as const;

const rows: { store: StoreKind; title: string; result: Comparison }[] = [];

await forEachStore(options, async (store) => {
  const dir = mkdtempSync(join(tmpdir(), `bench-creates-ab-${store}-`));
  const drops: ScratchDatabase[] = [];
  const servers: RunningServer[] = [];
  try {
    const credentials = makeCredentials(dir);
    console.log(`[${store}] seeding ${options.users.toLocaleString('en')} users for each build`);
    const dbBefore = await seededBy(before, store, dir, 'before', drops);
    const dbAfter = await seededBy(after, store, dir, 'after', drops);
    const serviceAfter = await startService(options, dir, dbAfter, credentials, { name: `after-${store}` });
    servers.push(serviceAfter);
    const serviceBefore = await startService({ ...options, root: before.root }, dir, dbBefore, credentials, { name: `before-${store}` });
    servers.push(serviceBefore);
    for (const kind of KINDS) {
      const result = await alternate(serviceAfter, serviceBefore, (tag) => kind.requests(tag), { options, headers: credentials.headers, label: `[${store}] ${kind.name}` });
      console.log(`[${store}] ${kind.name}: after ${result.service.rps.toFixed(0)}/s, before ${result.baseline.rps.toFixed(0)}/s: ${result.ratio.toFixed(2)}x (target >= 0.85)`);
      rows.push({ store, title: kind.title, result });
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await Promise.all(drops.map((scratch) => scratch.drop()));
    rmSync(dir, { recursive: true, force: true });
  }
});

const int = (n: number) => Math.round(n).toLocaleString('en');
const settings = Object.entries(process.env).filter(([name]) => name.startsWith('BENCH_')).sort(([a], [b]) => a.localeCompare(b)).map(([name, value]) => `${name}=${value}`);
const markdown = [
  ...runHeader({ startedAt: startedAt.toISOString(), command: [...settings, 'node dist/bench/creates-ab.js'].join(' '), machine: describeMachine(options.root, tmpdir()), loadBefore, loadAfter: loadAverage(), seconds: (Date.now() - startedAt.getTime()) / 1000 }),
  `Before: ${before.commit} (${before.root}); after: ${after.commit}. Each build's service on a database of ${int(options.users)} users seeded by its own build's seeder; ` +
    `autocannon, ${options.connections} connections, ${options.rounds} rounds of ${options.durationS} s per side alternating after a ${options.warmupS} s warm-up of each; full durability (the defaults).`,
  '',
  '| store | request | after req/s | p50 ms | p99 ms | CPU µs/req | before req/s | p50 ms | p99 ms | CPU µs/req | after ÷ before | ≥ 0.85 |',
  '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|',
  ...rows.map(({ store, title, result: r }) =>
    `| ${store === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${title} | ${int(r.service.rps)} | ${r.service.p50.toFixed(1)} | ${r.service.p99.toFixed(1)} | ${int(r.service.cpuUsPerRequest)} | ` +
      `${int(r.baseline.rps)} | ${r.baseline.p50.toFixed(1)} | ${r.baseline.p99.toFixed(1)} | ${int(r.baseline.cpuUsPerRequest)} | **${r.ratio.toFixed(2)}** | ${r.ratio >= 0.85 ? '**met**' : '**not met**'} |`),
].join('\n');
if (options.writeDocs) writeBeforeAfterDocs(options.root, 'creates-before-after', '### Creates before and after search', markdown);
console.log(`\n${markdown}`);
