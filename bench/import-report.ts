/**
 * Renders the import scenarios of a run as Markdown (a generated section of
 * docs/performance.md, one per BENCH_IMPORT_USERS), each figure with the goal
 * issue 11 sets for it. Every figure comes from the RunResult.
 */
import { formatProfileSummary } from './profile-summary.js';
import { runHeader } from './report.js';
import type { ImportMeasurement, ImportStoreResult, RunResult } from './results.js';
import { IMPORT_GOALS } from './targets.js';

const STORE_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;
const int = (n: number) => Math.round(n).toLocaleString('en');
const verdict = (met: boolean) => (met ? '**met**' : '**not met**');

/** The goals that apply to one measurement, each with its verdict. */
function goals(store: ImportStoreResult, m: ImportMeasurement): string[] {
  const found: string[] = [];
  const perSecond = m.name === 'import-empty' ? IMPORT_GOALS.emptyPerSecond[store.store] : m.name === 'import-update' ? IMPORT_GOALS.updatePerSecond[store.store] : undefined;
  if (perSecond !== undefined) found.push(`≥ ${int(perSecond)}/s: ${verdict(m.usersPerSecond >= perSecond)}`);
  if (m.name === 'import-empty' && m.users === 1_000_000) {
    const limit = IMPORT_GOALS.millionSeconds[store.store];
    found.push(`< ${limit} s: ${verdict(m.seconds < limit)}`);
  }
  const update = store.measurements.find((other) => other.name === 'import-update');
  if (m.name === 'import-merge' && update !== undefined) {
    const ratio = m.usersPerSecond / update.usersPerSecond;
    found.push(`${ratio.toFixed(2)}× the replace above, ≥ ${IMPORT_GOALS.mergeRatio}×: ${verdict(ratio >= IMPORT_GOALS.mergeRatio)}`);
  }
  found.push(`RSS ≤ ${IMPORT_GOALS.peakRssMB} MB: ${verdict(m.peakRssMB <= IMPORT_GOALS.peakRssMB)}`);
  return found;
}

export function renderImportReport(run: RunResult): string {
  const lines = [
    ...runHeader(run),
    'Each row is one run of the real CLI (`node dist/src/cli/main.js import FILE --database-url …`), timed from spawn to exit ' +
      '(start-up, reading, validation, writing and the final commit included), with the peak RSS of the process sampled every 50 ms. ' +
      'The file holds the seeded users of the HTTP benchmarks (`bench/seed-data.ts`) as JSON Lines, without uids; ' +
      'the default batch size (5,000 on SQLite, 1,000 on PostgreSQL) and durability (SQLite `synchronous=FULL`, PostgreSQL `synchronous_commit=on`).',
    '',
    '| store | scenario | users | seconds | users/s | peak RSS | goals | summary line of the CLI |',
    '|---|---|--:|--:|--:|--:|---|---|',
  ];
  for (const store of run.imports) {
    for (const m of store.measurements) {
      lines.push(`| ${STORE_NAMES[store.store]} | ${m.title} | ${int(m.users)} | ${m.seconds.toFixed(1)} | **${int(m.usersPerSecond)}** | ${m.peakRssMB.toFixed(0)} MB | ${goals(store, m).join('; ')} | \`${m.summary.replace(/\|/g, '\\|')}\` |`);
    }
  }
  lines.push('');
  for (const store of run.imports) {
    for (const m of store.measurements) {
      if (!m.profile) continue;
      lines.push(`**CPU profile of the CLI, ${STORE_NAMES[store.store]}, ${m.name}** (\`${m.profile.file.replace(/^.*\/bench\/\.out\//, 'bench/.out/')}\`):`, '', '```', formatProfileSummary(`${store.store}-${m.name}`, m.profile.summary), '```', '');
    }
  }
  return lines.join('\n');
}
