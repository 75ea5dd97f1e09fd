/**
 * The import scenarios: the real CLI (`node dist/src/cli/main.js import`) as an
 * operator runs it, one process per run, timed from spawn to exit with its peak
 * RSS. For each store: a file of BENCH_IMPORT_USERS new users into an empty
 * database (`import-empty`), then every one of them changed with
 * `--on-conflict replace` over the now full table (`import-update`: what an
 * update was before merge existed), then the same file with `--on-conflict
 * merge` (`import-merge`) over the same full table, put back as import-empty
 * left it (import-snapshot.ts), so its rate against import-update's is the
 * merge ratio; then the same file again, which changes nothing (`import-unchanged`). With
 * BENCH_PROFILE=1 each runs under `node --cpu-prof` (the profile is summarised).
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreKind } from './bench-options.js';
import { writeImportFile, type ImportFileVariant } from './import-data.js';
import { snapshotPostgres, snapshotSqlite, type Snapshot } from './import-snapshot.js';
import { createScratchDatabase } from './postgres-database.js';
import { runNode } from './processes.js';
import { formatProfileSummary, summariseProfile } from './profile-summary.js';
import type { ImportMeasurement, ImportStoreResult } from './results.js';
import type { StoreRunContext } from './store-run.js';

export const IMPORT_SCENARIOS = [
  { name: 'import-empty', title: 'new users into an empty database', file: 'new', args: [], fromSnapshot: false },
  { name: 'import-update', title: 'every user changed, --on-conflict replace over the full table', file: 'changed', args: ['--on-conflict', 'replace'], fromSnapshot: true },
  { name: 'import-merge', title: 'every user changed, --on-conflict merge over the same full table', file: 'changed', args: ['--on-conflict', 'merge'], fromSnapshot: true },
  { name: 'import-unchanged', title: 'the same file again, --on-conflict merge (nothing changes)', file: 'changed', args: ['--on-conflict', 'merge'], fromSnapshot: false },
] as const;

/** Import scenarios selected by BENCH_SCENARIOS: only by filters that start with `import`. */
export function selectImportScenarios(filters: readonly string[]) {
  const own = filters.filter((f) => f.startsWith('import'));
  return IMPORT_SCENARIOS.filter((s) => own.some((f) => s.name.includes(f)));
}

const MB = 1024 * 1024;

export async function runImports(store: StoreKind, context: StoreRunContext): Promise<ImportStoreResult> {
  const { options, runDir } = context;
  const users = options.importUsers;
  const scenarios = selectImportScenarios(options.scenarios);
  const files = { new: join(runDir, `import-${users}-new.jsonl`), changed: join(runDir, `import-${users}-changed.jsonl`) };
  for (const [variant, path] of Object.entries(files) as [ImportFileVariant, string][]) {
    if (scenarios.some((s) => s.file === variant) && readdirSync(runDir).every((f) => join(runDir, f) !== path)) {
      console.log(`[import] writing ${users.toLocaleString('en')} ${variant} users to ${path}`);
      await writeImportFile(path, users, variant);
    }
  }
  let databaseUrl: string;
  if (store === 'sqlite') databaseUrl = `sqlite:${join(runDir, `import-${users}.db`)}`;
  else {
    const scratch = await createScratchDatabase(options.postgresUrl, `import_${users}`);
    context.cleanups.push(() => scratch.drop());
    databaseUrl = scratch.url;
  }
  const measurements: ImportMeasurement[] = [];
  let snapshot: Snapshot | undefined;
  for (const scenario of scenarios) {
    if (scenario.fromSnapshot) {
      if (snapshot === undefined) {
        snapshot = store === 'sqlite' ? snapshotSqlite(databaseUrl.slice('sqlite:'.length)) : await snapshotPostgres(options.postgresUrl, new URL(databaseUrl).pathname.slice(1));
        context.cleanups.push(() => snapshot!.drop());
      }
      // Every compared scenario runs on a copy made the same way, the first one too: a copy's
      // files are laid out and cached differently from the ones the import wrote.
      console.log(`[${store}] ${scenario.name}: the database put back as import-empty left it`);
      await snapshot.restore();
    }
    const label = `${store}-${scenario.name}`;
    const profileDir = join(runDir, 'profiles', label);
    if (options.profile) mkdirSync(profileDir, { recursive: true });
    const flags = options.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    const cli = join(options.root, 'dist/src/cli/main.js');
    console.log(`[${store}] ${scenario.name}: ${users.toLocaleString('en')} users`);
    const run = await runNode([...flags, cli, 'import', files[scenario.file], '--database-url', databaseUrl, ...scenario.args], {}, runDir, join(runDir, `${label}.log`));
    const summary = run.stdout.trim().split('\n').at(-1) ?? '';
    if (run.code !== 0) throw new Error(`${label}: the import exited with ${run.code}: ${summary}; see ${join(runDir, `${label}.log`)}`);
    const measurement: ImportMeasurement = {
      name: scenario.name, title: scenario.title, users, seconds: run.seconds, usersPerSecond: users / run.seconds, peakRssMB: run.peakRssBytes / MB, summary,
    };
    console.log(`[${store}] ${scenario.name}: ${run.seconds.toFixed(1)} s, ${Math.round(measurement.usersPerSecond)} users/s, peak RSS ${measurement.peakRssMB.toFixed(0)} MB: ${summary}`);
    if (options.profile) {
      const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
      if (file) {
        const profile = summariseProfile(join(profileDir, file), options.root, 15);
        console.log(formatProfileSummary(`[${label}]`, profile));
        measurement.profile = { file: join(profileDir, file), summary: profile };
      }
    }
    measurements.push(measurement);
    const update = measurements.find((m) => m.name === 'import-update');
    if (scenario.name === 'import-merge' && update !== undefined) {
      console.log(`[${store}] merge/replace: ${(measurement.usersPerSecond / update.usersPerSecond).toFixed(2)}× (${Math.round(measurement.usersPerSecond)} against ${Math.round(update.usersPerSecond)} users/s)`);
    }
  }
  return { store, users, measurements };
}
