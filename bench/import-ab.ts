/**
 * What a change costs the import into an empty database: the `import-empty` scenario
 * (import-run.ts: the real CLI, `node dist/src/cli/main.js import FILE --database-url …`,
 * timed from spawn to exit) run by two builds, the one before (BENCH_BEFORE_ROOT,
 * before-build.ts) and this one, on the same file of BENCH_IMPORT_USERS seeded users
 * (import-data.ts), each into a fresh database, alternating (before, after) for
 * BENCH_ROUNDS rounds (default here: 1).
 *
 *   npm run build && BENCH_IMPORT_USERS=1000000 node dist/bench/import-ab.js
 *
 * (Each build's own `BENCH_SCENARIOS=import-empty npm run bench` would import its own
 * seed data: the file would differ.) Prints a Markdown table and writes it to the section
 * "Import before and after search" of docs/performance.md (BENCH_DOCS=0: not).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAndAfter, type Build } from './before-build.js';
import { loadBenchOptions, type StoreKind } from './bench-options.js';
import { writeBeforeAfterDocs } from './docs-writer.js';
import { writeImportFile } from './import-data.js';
import { describeMachine, loadAverage } from './machine.js';
import { forEachStore } from './paired-services.js';
import { createScratchDatabase } from './postgres-database.js';
import { runNode } from './processes.js';
import { runHeader } from './report.js';

const options = loadBenchOptions(process.cwd());
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const { before, after } = beforeAndAfter(options.root);
const startedAt = new Date();
const loadBefore = loadAverage();
const dir = mkdtempSync(join(tmpdir(), 'bench-import-ab-'));
const file = join(dir, `import-${options.importUsers}-new.jsonl`);

interface Run {
  store: StoreKind;
  side: 'before' | 'after';
  seconds: number;
  peakRssMB: number;
  summary: string;
}
const runs: Run[] = [];

async function importWith(build: Build, side: Run['side'], store: StoreKind, round: number): Promise<void> {
  const scratch = store === 'postgres' ? await createScratchDatabase(options.postgresUrl, `import_ab_${side}`) : undefined;
  const sqlitePath = join(dir, `${store}-${side}-${round}.db`);
  const url = scratch?.url ?? `sqlite:${sqlitePath}`;
  try {
    const label = `${store}-${side}-${round}`;
    console.log(`[${store}] import-empty with the ${side} build (${build.commit}), round ${round + 1}`);
    const run = await runNode([join(build.root, 'dist/src/cli/main.js'), 'import', file, '--database-url', url], {}, dir, join(dir, `${label}.log`));
    const summary = run.stdout.trim().split('\n').at(-1) ?? '';
    if (run.code !== 0) throw new Error(`${label}: the import exited with ${run.code}: ${summary}`);
    console.log(`[${store}] ${side}: ${run.seconds.toFixed(1)} s, ${Math.round(options.importUsers / run.seconds)} users/s, peak RSS ${(run.peakRssBytes / 2 ** 20).toFixed(0)} MB: ${summary}`);
    runs.push({ store, side, seconds: run.seconds, peakRssMB: run.peakRssBytes / 2 ** 20, summary });
  } finally {
    await scratch?.drop();
    for (const end of ['', '-wal', '-shm']) rmSync(`${sqlitePath}${end}`, { force: true });
  }
}

try {
  console.log(`[import] writing ${options.importUsers.toLocaleString('en')} users to ${file}`);
  await writeImportFile(file, options.importUsers, 'new');
  await forEachStore(options, async (store) => {
    for (let round = 0; round < rounds; round++) {
      await importWith(before, 'before', store, round);
      await importWith(after, 'after', store, round);
    }
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const int = (n: number) => Math.round(n).toLocaleString('en');
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const settings = Object.entries(process.env).filter(([name]) => name.startsWith('BENCH_')).sort(([a], [b]) => a.localeCompare(b)).map(([name, value]) => `${name}=${value}`);
const lines = [
  ...runHeader({ startedAt: startedAt.toISOString(), command: [...settings, 'node dist/bench/import-ab.js'].join(' '), machine: describeMachine(options.root, tmpdir()), loadBefore, loadAfter: loadAverage(), seconds: (Date.now() - startedAt.getTime()) / 1000 }),
  `Before: ${before.commit} (${before.root}); after: ${after.commit}. The same JSON Lines file of ${int(options.importUsers)} seeded people (bench/seed-data.ts) imported by each build's CLI into a fresh, empty database ` +
    `(default batch size and durability), ${rounds} round(s) alternating before, after; time from spawn to exit.`,
  '',
  '| store | before s | after s | after ÷ before (time) | ≤ 1.20 | before users/s | after users/s | peak RSS before / after |',
  '|---|--:|--:|--:|---|--:|--:|--:|',
];
for (const store of options.stores) {
  const side = (name: Run['side']) => runs.filter((r) => r.store === store && r.side === name);
  const [b, a] = [side('before'), side('after')];
  if (b.length === 0 || a.length === 0) continue;
  const [bs, as] = [mean(b.map((r) => r.seconds)), mean(a.map((r) => r.seconds))];
  lines.push(`| ${store === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${bs.toFixed(1)} | ${as.toFixed(1)} | **${(as / bs).toFixed(2)}** | ${as / bs <= 1.2 ? '**met**' : '**not met**'} | ` +
    `${int(options.importUsers / bs)} | ${int(options.importUsers / as)} | ${int(Math.max(...b.map((r) => r.peakRssMB)))} / ${int(Math.max(...a.map((r) => r.peakRssMB)))} MB |`);
}
const markdown = lines.join('\n');
if (options.writeDocs) writeBeforeAfterDocs(options.root, 'import-before-after', '### Import before and after search', markdown);
console.log(`\n${markdown}`);
