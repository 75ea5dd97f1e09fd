/**
 * `npm run bench`: seeds each store, starts the real service and the baseline
 * servers, runs every scenario against both in alternation (the reads by key
 * with autocannon, then with wrk unless BENCH_WRK=0), with BENCH_FEATURES=1
 * measures what each of the service's features costs (features-run.ts), and writes
 * docs/performance.md, docs/performance.svg and bench/.out/<run>/results.json.
 * With BENCH_SCENARIOS=import it runs the import scenarios instead (the CLI on
 * each store, import-run.ts) and writes their own section of the page.
 * Settings come from BENCH_* environment variables (see bench-options.ts and
 * docs/performance.md). Every process and database it creates is removed at
 * the end, also after a failure or Ctrl-C.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBenchOptions } from './bench-options.js';
import { writeDocs, writeImportDocs } from './docs-writer.js';
import { featuresSelected } from './features-run.js';
import { renderImportReport } from './import-report.js';
import { runImports, selectImportScenarios } from './import-run.js';
import { describeMachine, loadAverage } from './machine.js';
import { killAll } from './processes.js';
import { chartGroups, renderReport } from './report.js';
import type { RunResult } from './results.js';
import { makeCredentials } from './servers.js';
import { selectScenarios } from './scenarios.js';
import { runStore, type StoreRunContext } from './store-run.js';
import { renderRatioChart } from './svg-chart.js';
import { findWrk } from './wrk-load.js';

/** dist/bench/run-bench.js → the repository root. */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function commandLine(): string {
  const settings = Object.entries(process.env)
    .filter(([name]) => name.startsWith('BENCH_'))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}=${value}`);
  return [...settings, 'npm run bench'].join(' ');
}

async function main(): Promise<void> {
  const options = loadBenchOptions(root);
  // Filters starting with `import` select import scenarios; any other filter (or none) the HTTP ones.
  const http = options.scenarios.length === 0 || options.scenarios.some((f) => !f.startsWith('import'));
  const imports = selectImportScenarios(options.scenarios).length > 0;
  // Before minutes of seeding: a run that will need wrk fails now if there is none.
  if (http && ((options.wrk && selectScenarios(options.scenarios).some((s) => s.path)) || featuresSelected(options))) findWrk();
  const startedAt = new Date();
  const runDir = join(options.outDir, startedAt.toISOString().replace(/[:.]/g, '-'));
  mkdirSync(runDir, { recursive: true });
  const context: StoreRunContext = { options, runDir, credentials: makeCredentials(runDir), cleanups: [] };
  let interrupted = false;
  const interrupt = () => {
    if (interrupted) return;
    interrupted = true;
    console.error('interrupted: stopping servers and dropping databases');
    killAll();
    void Promise.allSettled(context.cleanups.map((c) => c())).then(() => process.exit(130));
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);

  const machine = describeMachine(root, runDir);
  const loadBefore = loadAverage();
  console.log(`bench: ${options.stores.join(', ')}; ${options.users.toLocaleString('en')} users; ${options.connections} connections${options.wrk ? ` (wrk: ${options.wrkConnections})` : ''}; ${options.durationS} s × ${options.rounds} rounds; output in ${runDir}`);
  const result: RunResult = { startedAt: startedAt.toISOString(), command: commandLine(), options, machine, loadBefore, loadAfter: 0, seconds: 0, stores: [], imports: [] };
  try {
    for (const store of options.stores) {
      if (http) result.stores.push(await runStore(store, context));
      if (imports) result.imports.push(await runImports(store, context));
    }
  } finally {
    killAll();
    await Promise.allSettled(context.cleanups.map((cleanup) => cleanup()));
  }
  result.loadAfter = loadAverage();
  result.seconds = (Date.now() - startedAt.getTime()) / 1000;

  writeFileSync(join(runDir, 'results.json'), JSON.stringify(result, null, 2));
  if (http) {
    const markdown = renderReport(result);
    const svg = renderRatioChart('Service throughput ÷ baseline throughput', chartGroups(result));
    writeFileSync(join(runDir, 'report.md'), markdown);
    writeFileSync(join(runDir, 'performance.svg'), svg);
    if (options.writeDocs) writeDocs(root, markdown, svg);
    console.log(`\n${markdown}`);
  }
  if (imports) {
    const markdown = renderImportReport(result);
    writeFileSync(join(runDir, 'import-report.md'), markdown);
    if (options.writeDocs) writeImportDocs(root, options.importUsers, markdown);
    console.log(`\n${markdown}`);
  }
  console.log(`results: ${join(runDir, 'results.json')}${options.writeDocs ? '; docs/performance.md written' : ''}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
