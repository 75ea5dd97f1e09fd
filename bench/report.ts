/**
 * Renders a run as Markdown (the generated part of docs/performance.md) and
 * the chart's data. Every figure comes from the RunResult; nothing is typed in.
 */
import type { ChartGroup } from './svg-chart.js';
import { formatProfileSummary } from './profile-summary.js';
import { median, type Comparison, type FeatureCost, type FeaturesResult, type RunResult, type ScenarioResult, type StoreResult, type Summary } from './results.js';
import { GOALS } from './targets.js';

const STORE_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;

const int = (n: number) => Math.round(n).toLocaleString('en');
const ms = (n: number) => (n >= 10 ? n.toFixed(1) : n.toFixed(2));
const verdict = (met: boolean) => (met ? '**met**' : '**not met**');
/** Two decimals, or three where two would round across the target. */
const ratioText = (ratio: number, target?: number) =>
  target !== undefined && ratio < target && Number(ratio.toFixed(2)) >= target ? ratio.toFixed(3) : ratio.toFixed(2);

function failures(summary: Summary): string {
  return summary.failed > 0 ? ` ⚠ ${int(summary.failed)} failed` : '';
}

function comparisonRow(label: string, c: Comparison, unit: string, target?: number): string {
  const goal = target === undefined ? '—' : `≥ ${target.toFixed(2)}: ${verdict(c.ratio >= target)}`;
  return `| ${label} | ${int(c.service.rps)} ${unit}${failures(c.service)} | ${ms(c.service.p50)} | ${ms(c.service.p99)} | ${int(c.service.cpuUsPerRequest)} | ` +
    `${int(c.baseline.rps)}${failures(c.baseline)} | ${ms(c.baseline.p50)} | ${ms(c.baseline.p99)} | ${int(c.baseline.cpuUsPerRequest)} | **${ratioText(c.ratio, target)}** | ${goal} |`;
}

const TABLE_HEAD = [
  '| scenario | service throughput | p50 ms | p99 ms | CPU µs/req | baseline throughput | p50 ms | p99 ms | CPU µs/req | ratio | target |',
  '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|',
];

/** The reads by key as wrk drove them: the table above plus the service's p99 against its target. */
function wrkSection(scenarios: readonly ScenarioResult[]): string[] {
  const measured = scenarios.flatMap((s) => (s.wrk === undefined ? [] : [{ ...s, wrk: s.wrk }]));
  const first = measured[0]?.wrk;
  if (first === undefined) return [];
  const lines = [
    `**Reads with wrk (${first.threads} thread${first.threads === 1 ? '' : 's'}, ${first.connections} connections):** the reads by key again, driven by wrk ` +
      `(a load generator written in C) instead of autocannon, ${first.durationS} s per round in alternation as above; each request is the next of ` +
      `${int(first.paths)} paths drawn at random as autocannon draws them. wrk does not parse responses: here throughput counts responses with a ` +
      'status below 400, and latencies are of all responses.',
    '',
    '| scenario | service throughput | p50 ms | p99 ms | CPU µs/req | baseline throughput | p50 ms | p99 ms | CPU µs/req | ratio | target | service p99 target |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|',
  ];
  for (const { title, unit, wrk } of measured) {
    const p99 = wrk.p99TargetMs === undefined ? '—' : `≤ ${wrk.p99TargetMs} ms: ${verdict(wrk.service.p99 <= wrk.p99TargetMs)}`;
    lines.push(`${comparisonRow(title, wrk, unit, wrk.target)} ${p99} |`);
  }
  const cpu = measured.map((s) => `${s.name} ${s.wrk.service.serverCpu.toFixed(2)}/${s.wrk.baseline.serverCpu.toFixed(2)}`).join(', ');
  const client = Math.max(...measured.map((s) => Math.max(s.wrk.service.clientCpu, s.wrk.baseline.clientCpu)));
  lines.push('', `Server CPU used, in cores (service/baseline): ${cpu}. wrk used at most ${client.toFixed(2)} cores.`, '');
  return lines;
}

function featureLabel(row: FeatureCost): string {
  if (row.server === 'framework-floor') return 'bare Fastify (framework floor)';
  const settings = Object.entries(row.settings).map(([name, value]) => `${name}=${value}`).join(',');
  if (settings === '') return '(production defaults)';
  return `\`${settings}\`${row.note === undefined ? '' : ` (${row.note})`}`;
}

/** What each feature costs (BENCH_FEATURES=1): one row per server process, each with its own same-run ratio to raw. */
function featuresSection(features: FeaturesResult): string[] {
  const first = features.rows[0];
  if (first === undefined) return [];
  const raw = features.rows.map((r) => r.baseline.cpuUsPerRequest);
  const rounds = first.rounds.service.length;
  const lines = [
    `**What each feature costs (${features.scenario}, wrk):** each row is a separate service process, started with the row's settings laid over ` +
      'its production defaults (the last row: bare Fastify, the framework floor), measured in alternation with raw node:http in the same run ' +
      `(wrk, ${first.threads} thread${first.threads === 1 ? '' : 's'}, ${first.connections} connections, ${rounds} round${rounds === 1 ? '' : 's'} of ${first.durationS} s per side ` +
      `after a warm-up); raw node:http used ${int(Math.min(...raw))}–${int(Math.max(...raw))} CPU µs/req over the rows.`,
    '',
    '| service settings | throughput | p50 ms | p99 ms | CPU µs/req | ratio to raw |',
    '|---|--:|--:|--:|--:|--:|',
  ];
  for (const row of features.rows) {
    const s = row.service;
    lines.push(`| ${featureLabel(row)} | ${int(s.rps)} req/s${failures(s)}${row.baseline.failed > 0 ? ` (raw: ⚠ ${int(row.baseline.failed)} failed)` : ''} | ${ms(s.p50)} | ${ms(s.p99)} | ${int(s.cpuUsPerRequest)} | **${row.ratio.toFixed(2)}** |`);
  }
  lines.push('');
  return lines;
}

function seedLine(label: string, seed: StoreResult['seed']): string {
  const phases = Object.entries(seed.phases).map(([name, s]) => `${name} ${s.toFixed(1)} s`).join(', ');
  return `${label}: ${int(seed.users)} users in ${seed.seconds.toFixed(1)} s, **${int(seed.usersPerSecond)} users/s** (${phases}; ${seed.cpuSeconds.toFixed(1)} s CPU in the harness)`;
}

function storeSection(store: StoreResult): string[] {
  const name = STORE_NAMES[store.store];
  const lines = [`### ${name}, ${int(store.users)} users`, ''];
  lines.push(`Durability: ${Object.entries(store.durability).map(([k, v]) => `\`${k}\` = ${v}`).join(', ')}.`, '');
  if (store.scenarios.length > 0) {
    lines.push(...TABLE_HEAD);
    for (const s of store.scenarios) lines.push(comparisonRow(s.title, s, s.unit, s.target));
    lines.push('');
    const cpu = store.scenarios.map((s) => `${s.name} ${s.service.serverCpu.toFixed(2)}/${s.baseline.serverCpu.toFixed(2)}`).join(', ');
    const client = Math.max(...store.scenarios.map((s) => Math.max(s.service.clientCpu, s.baseline.clientCpu)), 0);
    lines.push(`Server CPU used, in cores (service/baseline): ${cpu}. The load generator (autocannon) used at most ${client.toFixed(2)} cores.`, '');
  }
  lines.push(...wrkSection(store.scenarios));

  const d = store.pageDepth;
  if (d) {
    const ratio = d.deep.service.p50 / d.first.service.p50;
    lines.push(`**Page cost by depth** (pages of ${d.pageSize}, keyset cursor; depth ${int(d.depth)} is rows ${int((d.depth - 1) * d.pageSize + 1)}–${int(d.depth * d.pageSize)}):`, '');
    lines.push(...TABLE_HEAD, comparisonRow('page at depth 1', d.first, 'req/s'), comparisonRow(`page at depth ${int(d.depth)}`, d.deep, 'req/s'), '');
    lines.push(`Service p50 at depth ${int(d.depth)} ÷ depth 1: **${ratio.toFixed(2)}** (goal ≤ ${GOALS.depthLatencyRatio}: ${verdict(ratio <= GOALS.depthLatencyRatio)}).`, '');
  }

  const f = store.floor;
  const readUid = store.scenarios.find((s) => s.name === 'read-uid');
  if (f) {
    lines.push(`**Framework floor** (${f.scenario}): the raw baseline's data access behind a bare Fastify route with the service's response schema, ` +
      'no hooks, logging, authentication or metrics, measured in alternation with the raw baseline:', '');
    lines.push('| server | throughput | p50 ms | p99 ms | CPU µs/req | ratio to raw |', '|---|--:|--:|--:|--:|--:|');
    lines.push(`| bare Fastify | ${int(f.service.rps)} req/s | ${ms(f.service.p50)} | ${ms(f.service.p99)} | ${int(f.service.cpuUsPerRequest)} | **${f.ratio.toFixed(2)}** |`);
    lines.push(`| raw node:http | ${int(f.baseline.rps)} req/s | ${ms(f.baseline.p50)} | ${ms(f.baseline.p99)} | ${int(f.baseline.cpuUsPerRequest)} | 1.00 |`);
    if (readUid) {
      lines.push(`| the service (from the table above) | ${int(readUid.service.rps)} req/s | ${ms(readUid.service.p50)} | ${ms(readUid.service.p99)} | ${int(readUid.service.cpuUsPerRequest)} | ${readUid.ratio.toFixed(2)} |`);
    }
    lines.push('');
  }
  if (store.features) lines.push(...featuresSection(store.features));

  const sc = store.scale;
  if (sc) {
    lines.push(`**Lookups at ${int(store.users)} vs ${int(sc.users)} users** (two fresh services, one per database, measured in alternation):`, '');
    lines.push(`| scenario | ${int(store.users)}: req/s | p50 ms | p99 ms | ${int(sc.users)}: req/s | p50 ms | p99 ms | p50 ratio |`, '|---|--:|--:|--:|--:|--:|--:|--:|');
    for (const l of sc.lookups) {
      lines.push(`| ${l.title} | ${int(l.small.rps)} | ${ms(l.small.p50)} | ${ms(l.small.p99)} | ${int(l.large.rps)} | ${ms(l.large.p50)} | ${ms(l.large.p99)} | **${(l.large.p50 / l.small.p50).toFixed(2)}** |`);
    }
    const worst = Math.max(...sc.lookups.map((l) => l.large.p50 / l.small.p50));
    lines.push('', `Worst p50 ratio ${worst.toFixed(2)} (goal ≤ ${GOALS.scaleLatencyRatio}: ${verdict(worst <= GOALS.scaleLatencyRatio)}). ` +
      `At ${int(sc.users)} users the service was ready in ${int(sc.readyMs)} ms and peaked at ${sc.peakRssMB.toFixed(0)} MB RSS.`, '');
  }

  const ready = median(store.readyMs);
  // No cold starts: the run measured only the features, without a main service.
  if (store.readyMs.length > 0) lines.push(`**Service process:** peak RSS ${store.servicePeakRssMB.toFixed(0)} MB after all scenarios (goal ≤ ${GOALS.peakRssMB}: ${verdict(store.servicePeakRssMB <= GOALS.peakRssMB)}; ` +
    `the baseline peaked at ${store.baselinePeakRssMB.toFixed(0)} MB). Spawn to first 200 on /readyz: median ${int(ready)} ms of ${store.readyMs.length} cold starts ` +
    `(${store.readyMs.map(int).join(', ')} ms; goal < ${GOALS.readyMs}: ${verdict(ready < GOALS.readyMs)}); the baseline server was ready in ${int(store.baselineReadyMs)} ms.`, '');
  lines.push(`**Seeding:** ${seedLine(`${int(store.users)}`, store.seed)}.`);
  if (sc) {
    const goal = store.store === 'sqlite' ? ` (goal < ${GOALS.seedMillionS} s for 1,000,000: ${verdict(sc.seed.seconds < GOALS.seedMillionS)})` : '';
    lines.push(`${seedLine(`${int(sc.users)}`, sc.seed)}${goal}.`);
  }
  lines.push('');
  for (const p of store.profiles) {
    lines.push(`**CPU profile ${p.scenario}**: ${p.note} (\`${p.file.replace(/^.*\/bench\/\.out\//, 'bench/.out/')}\`):`, '', '```', formatProfileSummary(p.scenario, p.summary), '```', '');
  }
  return lines;
}

/** When, with which command, on which machine and code a run measured: the head of every generated section. */
export function runHeader(run: Pick<RunResult, 'startedAt' | 'seconds' | 'command' | 'machine' | 'loadBefore' | 'loadAfter'>): string[] {
  const m = run.machine;
  return [
    `Generated by the harness on ${run.startedAt} (the run took ${(run.seconds / 60).toFixed(1)} min):`,
    '',
    '```sh',
    run.command,
    '```',
    '',
    `Machine: ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB.toFixed(1)} GiB memory, Node.js ${m.node}, ${m.os}; databases on ${m.filesystem}. ` +
      `Load average (1 min) ${run.loadBefore.toFixed(2)} before and ${run.loadAfter.toFixed(2)} after the run. Code: commit ${m.commit}` +
      (m.dirtyFiles > 0 ? ` with ${m.dirtyFiles} changed or new files in the working tree.` : '.'),
    '',
  ];
}

export function renderReport(run: RunResult): string {
  const lines = [
    ...runHeader(run),
    `Settings: ${run.options.connections} connections, ${run.options.durationS} s per round, ${run.options.rounds} rounds per side alternating ` +
      `(service, baseline, service, …) after a ${run.options.warmupS} s warm-up of each; throughput counts 2xx responses; latencies are of 2xx responses. ` +
      'The service runs with its production defaults (logging at info to a file, API-key authentication on, load shedding on, metrics on); ' +
      '"CPU µs/req" is the server process\'s CPU time per response, which holds steady when other work on the machine takes cores away.',
    '',
    ...(Object.keys(run.options.serviceEnv).length > 0
      ? [`**Not production defaults:** the service ran with ${Object.entries(run.options.serviceEnv).map(([k, v]) => `\`${k}=${v}\``).join(', ')}.`, '']
      : []),
    '![Service throughput as a fraction of the baseline, per scenario](performance.svg)',
    '',
  ];
  for (const store of run.stores) lines.push(...storeSection(store));
  return lines.join('\n');
}

export function chartGroups(run: RunResult): ChartGroup[] {
  return run.stores.filter((store) => store.scenarios.length > 0).map((store) => ({
    title: `${STORE_NAMES[store.store]}, ${int(store.users)} users`,
    bars: store.scenarios.map((s) => ({
      label: s.title,
      ratio: s.ratio,
      ...(s.target === undefined ? {} : { target: s.target }),
      detail: `${int(s.service.rps)} vs ${int(s.baseline.rps)} ${s.unit}`,
    })),
  }));
}
