/**
 * CPU profiles (BENCH_PROFILE=1): the service from spawn to ready, and the
 * service and the baseline under each profiled scenario, each in its own
 * process run under `node --cpu-prof`. The .cpuprofile files stay in the run's
 * output folder; their top self time goes into the report.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { uniqueTag } from './alternate.js';
import type { StoreKind } from './bench-options.js';
import { runLoad } from './load.js';
import type { RunningServer } from './processes.js';
import { formatProfileSummary, summariseProfile } from './profile-summary.js';
import type { ProfileResult } from './results.js';
import { SCENARIOS, type Scenario } from './scenarios.js';
import { startBaseline, startService, type Database } from './servers.js';
import type { StoreRunContext } from './store-run.js';
import { PROFILED_SCENARIOS } from './targets.js';

/** Starts a server under `node --cpu-prof`; the profile is written into `dir` when it exits. */
async function profiled(kind: 'service' | 'baseline', label: string, db: Database, context: StoreRunContext): Promise<{ server: RunningServer; dir: string }> {
  const dir = join(context.runDir, 'profiles', label);
  mkdirSync(dir, { recursive: true });
  const start = { name: `profile-${label}`, nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`], unbundled: true };
  const server = kind === 'service'
    ? await startService(context.options, context.runDir, db, context.credentials, start)
    : await startBaseline(context.options, context.runDir, db, start);
  return { server, dir };
}

function readProfile(label: string, dir: string, context: StoreRunContext, note: string): ProfileResult {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile was written to ${dir}`);
  const summary = summariseProfile(join(dir, file), context.options.root, 15);
  console.log(formatProfileSummary(`[${label}] ${note}`, summary));
  return { scenario: label, note, file: join(dir, file), summary };
}

/** CPU profiles of the service (and, for comparison, the baseline) under the profiled scenarios, and of one start-up. */
export async function profileStore(store: StoreKind, db: Database, context: StoreRunContext): Promise<ProfileResult[]> {
  const results: ProfileResult[] = [];
  const startup = await profiled('service', `${store}-service-startup`, db, context);
  await startup.server.stop();
  results.push(readProfile(`${store}-service-startup`, startup.dir, context, `unbundled build (dist/src, so files are named), from spawn to ready in ${startup.server.readyMs.toFixed(0)} ms, then stopped`));
  for (const name of PROFILED_SCENARIOS) {
    const scenario = SCENARIOS.find((s) => s.name === name) as Scenario;
    for (const kind of ['service', 'baseline'] as const) {
      const label = `${store}-${kind}-${name}`;
      const { server, dir } = await profiled(kind, label, db, context);
      const measurement = await runLoad(server, {
        requests: scenario.requests({ users: context.options.users, tag: uniqueTag() }),
        connections: context.options.connections,
        durationS: context.options.durationS,
        headers: context.credentials.headers,
      });
      await server.stop(); // the profile is written as the process exits
      const perRequest = (measurement.serverCpu / measurement.rps) * 1e6;
      results.push(readProfile(label, dir, context, `${measurement.ok.toLocaleString('en')} responses at ${measurement.rps.toFixed(0)} req/s under the profiler, ${perRequest.toFixed(0)} µs CPU per request (start-up included in the profile)`));
    }
  }
  return results;
}
