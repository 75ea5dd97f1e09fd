/**
 * Where a search page's CPU goes in the service: the service (unbundled, so files are
 * named) under `node --cpu-prof` on a seeded database, one search shape (search-shapes.ts)
 * sent by autocannon for BENCH_DURATION_S seconds, then each thread's profile (the main
 * thread's, then any worker's) as self time by component and by function
 * (profile-summary.ts), with the CPU per request. Start-up is in the profiles too.
 *
 *   npm run build && node dist/bench/search-profile.js DATABASE [SHAPE]
 *
 * DATABASE: a SQLite file or a postgres:// URL seeded by the bench; SHAPE: a shape's name
 * (default q-rare), or q-surnames (surname-prefixes.ts: what npm run bench:search-raw sends); BENCH_CONNECTIONS and BENCH_DURATION_S as for npm run bench.
 * BENCH_PROFILE_WRK=1 sends the load with wrk (one thread, BENCH_WRK_CONNECTIONS connections, bench/wrk/reads.lua) instead
 * of autocannon, which runs in this process and takes a core of its own on a 2-core machine; BENCH_PROFILE_STEPS names
 * functions (comma-separated) whose inclusive time per response is printed for each thread: the steps of a request.
 */
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadBenchOptions } from './bench-options.js';
import { runLoad, type Measurement } from './load.js';
import { formatProfileSummary, inclusiveTimes, summariseProfile } from './profile-summary.js';
import { SEARCH_SHAPES } from './search-shapes.js';
import { makeCredentials, startService } from './servers.js';
import { SURNAME_SHAPE } from './surname-prefixes.js';
import { runWrk } from './wrk-load.js';
import { writeFileSync } from 'node:fs';

const options = loadBenchOptions(process.cwd());
const [location, shapeName = 'q-rare'] = process.argv.slice(2);
if (!location) throw new Error('usage: node dist/bench/search-profile.js DATABASE [SHAPE]');
const shapes = [...SEARCH_SHAPES, SURNAME_SHAPE];
const shape = shapes.find((s) => s.name === shapeName);
if (!shape) throw new Error(`unknown shape ${shapeName}; one of ${shapes.map((s) => s.name).join(', ')}`);

mkdirSync(join(options.root, 'bench/.out'), { recursive: true });
const runDir = mkdtempSync(join(options.root, 'bench/.out/search-profile-'));
const dir = join(runDir, 'profile');
mkdirSync(dir);
const credentials = makeCredentials(runDir);
const db = { store: location.startsWith('postgres') ? ('postgres' as const) : ('sqlite' as const), location };
const server = await startService(options, runDir, db, credentials, { name: `profile-${shape.name}`, nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`], unbundled: true });
const useWrk = process.env.BENCH_PROFILE_WRK === '1';
let measurement: Measurement;
if (useWrk) {
  const pathsFile = join(runDir, 'wrk.paths');
  writeFileSync(pathsFile, shape.paths(options.users).map((path) => `${path}\n`).join(''));
  const spec = { script: join(options.root, 'bench/wrk/reads.lua'), pathsFile, connections: options.wrkConnections, headers: credentials.headers, logPath: join(runDir, 'wrk.log'), cwd: runDir };
  measurement = await runWrk(server, { ...spec, durationS: options.durationS });
} else {
  measurement = await runLoad(server, {
    requests: shape.paths(options.users).map((path) => ({ method: 'GET' as const, path })),
    connections: options.connections,
    durationS: options.durationS,
    headers: credentials.headers,
  });
}
await server.stop(); // the profile is written as the process exits
// One profile per thread: the main thread's first (its thread id, the number after the pid, is 0), then workers' (SQLite's readers).
const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort();
if (files.length === 0) throw new Error(`no .cpuprofile was written to ${dir}`);
const perRequest = (measurement.serverCpu / measurement.rps) * 1e6;
console.log(`${db.store}, ${shape.title}: ${measurement.ok.toLocaleString('en')} responses at ${measurement.rps.toFixed(0)} req/s (${useWrk ? `wrk, ${options.wrkConnections}` : options.connections} connections, ${options.durationS} s) under the profiler, ${perRequest.toFixed(0)} µs CPU per request, failures ${JSON.stringify(measurement.failures)}`);
for (const [i, file] of files.entries()) {
  console.log(formatProfileSummary(`${db.store} service, ${shape.name}, ${i === 0 ? 'main thread' : `worker thread ${i}`} (${file})`, summariseProfile(join(dir, file), options.root, 15)));
}
const steps = (process.env.BENCH_PROFILE_STEPS ?? '').split(',').filter(Boolean);
if (steps.length > 0) {
  for (const [i, file] of files.entries()) {
    const times = inclusiveTimes(join(dir, file), steps);
    console.log(`${i === 0 ? 'main thread' : `worker thread ${i}`}, inclusive µs per response:`);
    for (const [name, us] of times) if (us > 0) console.log(`  ${(us / measurement.ok).toFixed(1).padStart(8)} µs  ${name}`);
  }
}
