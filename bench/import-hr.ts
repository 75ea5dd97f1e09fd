/**
 * The import of the HR-shaped file (import-data.ts writeHrImportFile: seven HR-named
 * columns, names in several scripts, `--map`, `--extra-columns attributes`) into an empty
 * database of each store, through the real CLI as an operator runs it, under
 * `/usr/bin/time -v`: time from spawn to exit, CPU seconds and peak RSS as it reports them.
 * With BENCH_BEFORE_ROOT (another built checkout, before-build.ts) each store's import runs
 * with that build first and this one second, on the same file, in the same run.
 *
 *   npm run build && BENCH_IMPORT_USERS=100000 BENCH_BEFORE_ROOT=/tmp/before node dist/bench/import-hr.js
 *
 * BENCH_PROFILE=1 runs this build's imports under `node --cpu-prof` and prints each profile's summary.
 * BENCH_HEAP_AB=1 runs each store's import with this build twice, first with V8's own heap
 * growth (`node --heap-growing-percent=0`, which the import leaves as given: cli/import-heap.ts),
 * then with the import's: what bounding the heap's growth costs and saves, in the same run.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBenchOptions, type StoreKind } from './bench-options.js';
import { HR_IMPORT_ARGS, writeHrImportFile } from './import-data.js';
import { loadAverage } from './machine.js';
import { forEachStore } from './paired-services.js';
import { createScratchDatabase } from './postgres-database.js';
import { runCommand } from './processes.js';
import { formatProfileSummary, summariseProfile } from './profile-summary.js';

const options = loadBenchOptions(process.cwd());
const users = options.importUsers;
const profile = process.env.BENCH_PROFILE === '1';
interface Build {
  side: string;
  root: string;
  /** Node's own options for the import's process. */
  nodeFlags?: string[];
}
const builds: Build[] = [
  ...(process.env.BENCH_BEFORE_ROOT ? [{ side: 'before', root: process.env.BENCH_BEFORE_ROOT }] : []),
  ...(process.env.BENCH_HEAP_AB === '1' ? [{ side: 'v8-heap-growth', root: options.root, nodeFlags: ['--heap-growing-percent=0'] }] : []),
  { side: 'after', root: options.root },
];
const dir = mkdtempSync(join(tmpdir(), 'bench-import-hr-'));
const file = join(dir, `hr-${users}.csv`);

/** What `/usr/bin/time -v` wrote at the end of the log. */
function timeReport(log: string): { cpuSeconds: number; peakRssMB: number } {
  const field = (name: string) => Number(new RegExp(`${name}: ([0-9.]+)`).exec(log)?.[1] ?? NaN);
  return { cpuSeconds: field('User time \\(seconds\\)') + field('System time \\(seconds\\)'), peakRssMB: field('Maximum resident set size \\(kbytes\\)') / 1024 };
}

async function importWith(store: StoreKind, build: Build): Promise<void> {
  const scratch = store === 'postgres' ? await createScratchDatabase(options.postgresUrl, `import_hr_${build.side}`) : undefined;
  const sqlitePath = join(dir, `hr-${build.side}.db`);
  const url = scratch?.url ?? `sqlite:${sqlitePath}`;
  const profileDir = join(dir, `profile-${store}`);
  const logPath = join(dir, `${store}-${build.side}.log`);
  try {
    const flags = profile && build.side === 'after' ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    if (flags.length > 0) mkdirSync(profileDir, { recursive: true });
    const cli = [...(build.nodeFlags ?? []), ...flags, join(build.root, 'dist/src/cli/main.js'), 'import', file, ...HR_IMPORT_ARGS, '--database-url', url];
    const run = await runCommand('/usr/bin/time', ['-v', process.execPath, ...cli], {}, dir, logPath);
    const summary = run.stdout.trim().split('\n').at(-1) ?? '';
    if (run.code !== 0) throw new Error(`${store} ${build.side}: the import exited with ${run.code}: ${summary}`);
    const { cpuSeconds, peakRssMB } = timeReport(readFileSync(logPath, 'utf8'));
    console.log(`[import-hr] ${store} ${build.side}: ${users} people in ${run.seconds.toFixed(1)} s (${Math.round(users / run.seconds)}/s), CPU ${cpuSeconds.toFixed(1)} s, peak RSS ${peakRssMB.toFixed(0)} MB, load ${loadAverage()}: ${summary}`);
    if (flags.length > 0) for (const name of readdirSync(profileDir)) console.log(formatProfileSummary(`[${store}]`, summariseProfile(join(profileDir, name), options.root, 25)));
  } finally {
    await scratch?.drop();
    for (const end of ['', '-wal', '-shm']) rmSync(`${sqlitePath}${end}`, { force: true });
    rmSync(profileDir, { recursive: true, force: true });
  }
}

try {
  console.log(`[import-hr] writing ${users.toLocaleString('en')} HR-shaped people to ${file}; load ${loadAverage()}`);
  await writeHrImportFile(file, users);
  await forEachStore(options, async (store) => {
    for (const build of builds) await importWith(store, build);
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
