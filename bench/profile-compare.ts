/**
 * `node dist/bench/profile-compare.js SERVICE.cpuprofile N BASELINE.cpuprofile M`:
 * where a response's time goes in each of two profiles (the service's N responses,
 * the baseline's M), by component, in µs per response, and the difference: what
 * each microsecond the service spends beyond the baseline pays for. Busy sampled
 * time only (idle excluded), so start-up is included; the harness's profiles
 * (BENCH_PROFILE=1) run long enough for it to be a few percent.
 */
import { relative } from 'node:path';
import { summariseProfile } from './profile-summary.js';

const [servicePath, serviceCount, baselinePath, baselineCount] = process.argv.slice(2);
if (!servicePath || !serviceCount || !baselinePath || !baselineCount) {
  throw new Error('usage: node dist/bench/profile-compare.js SERVICE.cpuprofile N BASELINE.cpuprofile M');
}
const root = process.cwd();
const COMPONENTS = 40;

/** µs per response by component. */
function perResponse(path: string, responses: number): Map<string, number> {
  const summary = summariseProfile(path, root, 0, COMPONENTS);
  return new Map(summary.byComponent.map(({ frame, selfMs }) => [frame, (selfMs * 1000) / responses]));
}

const service = perResponse(servicePath, Number(serviceCount));
const baseline = perResponse(baselinePath, Number(baselineCount));
const total = (times: Map<string, number>) => [...times.values()].reduce((sum, us) => sum + us, 0);
const rows = [...new Set([...service.keys(), ...baseline.keys()])]
  .map((component) => ({ component, service: service.get(component) ?? 0, baseline: baseline.get(component) ?? 0 }))
  .sort((a, b) => b.service - b.baseline - (a.service - a.baseline));
const us = (value: number) => value.toFixed(1);
console.log(`service: ${relative(root, servicePath)} (${serviceCount} responses); baseline: ${relative(root, baselinePath)} (${baselineCount} responses)`);
console.log('| component | service µs/response | baseline µs/response | difference |');
console.log('|---|--:|--:|--:|');
for (const row of rows) {
  if (Math.abs(row.service - row.baseline) < 0.05 && row.service < 0.05) continue;
  console.log(`| ${row.component} | ${us(row.service)} | ${us(row.baseline)} | ${us(row.service - row.baseline)} |`);
}
console.log(`| **all (busy sampled time)** | **${us(total(service))}** | **${us(total(baseline))}** | **${us(total(service) - total(baseline))}** |`);
