/**
 * Reads a V8 `.cpuprofile` (written by `node --cpu-prof`) and ranks functions by
 * self time: the time the CPU spent in the function's own code, not its callees.
 * This is what decides what to optimise.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

export interface SelfTime {
  /** `name (file:line)`, the file relative to the repository root or node_modules. */
  frame: string;
  selfMs: number;
  /** Share of all sampled time, idle included. */
  percent: number;
}

export interface ProfileSummary {
  totalMs: number;
  /** Share of sampled time the process was idle (waiting for I/O): 1 - busy. */
  idlePercent: number;
  top: SelfTime[];
  /** Self time grouped by where the code lives: a package, a file of this repository, Node.js internals, native code. */
  byComponent: SelfTime[];
}

/** `fastify`, `@fastify/swagger`, `src/users/user-routes.js`, `node internals`, `native` or `V8`. */
function componentOf(node: ProfileNode, root: string): string {
  const { functionName, url } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? `V8 ${functionName}` : 'native (syscalls, C++ bindings)';
  const file = url.replace(/^file:\/\//, '');
  const modules = file.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = file.slice(modules + '/node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] as string);
  }
  if (file.startsWith('node:')) return 'node internals';
  return relative(root, file).replace(/^dist\//, '');
}

function frameName(node: ProfileNode, root: string): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const name = functionName || '(anonymous)';
  if (!url) return name;
  let file = url.replace(/^file:\/\//, '');
  const modules = file.lastIndexOf('/node_modules/');
  file = modules >= 0 ? file.slice(modules + '/node_modules/'.length) : file.startsWith('node:') ? file : relative(root, file);
  return `${name} (${file}:${lineNumber + 1})`;
}

/** The `limit` functions (and `components` components) with the most self time in one profile. */
export function summariseProfile(path: string, root: string, limit = 20, components = 12): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<string, number>();
  const componentUs = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let total = 0;
  let idle = 0;
  // Each sample's time is the delta to the next sample.
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i] as number);
    const us = deltas[i + 1] ?? 0;
    if (!node || us <= 0) continue;
    total += us;
    if (node.callFrame.functionName === '(idle)') idle += us;
    const name = frameName(node, root);
    selfUs.set(name, (selfUs.get(name) ?? 0) + us);
    const component = componentOf(node, root);
    componentUs.set(component, (componentUs.get(component) ?? 0) + us);
  }
  const rank = (times: Map<string, number>, n: number) => [...times.entries()]
    .filter(([name]) => name !== '(idle)' && name !== 'V8 (idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([frame, us]) => ({ frame, selfMs: us / 1000, percent: total === 0 ? 0 : (100 * us) / total }));
  return { totalMs: total / 1000, idlePercent: total === 0 ? 0 : (100 * idle) / total, top: rank(selfUs, limit), byComponent: rank(componentUs, components) };
}

/** A plain-text table of a summary, for the console and the notes. */
export function formatProfileSummary(title: string, summary: ProfileSummary): string {
  const row = ({ frame, selfMs, percent }: SelfTime) => `  ${percent.toFixed(1).padStart(5)} %  ${selfMs.toFixed(0).padStart(6)} ms  ${frame}`;
  return [
    `${title}: ${summary.totalMs.toFixed(0)} ms sampled, ${summary.idlePercent.toFixed(1)} % idle`,
    'top functions by self time:',
    ...summary.top.map(row),
    'self time by component:',
    ...summary.byComponent.map(row),
  ].join('\n');
}

/**
 * Inclusive time (the function and everything it calls) of each frame whose function name is
 * in `names`, in µs: a step of a request is a function and its callees. A frame that appears
 * twice on one stack (recursion) is counted once per sample.
 */
export function inclusiveTimes(path: string, names: readonly string[]): Map<string, number> {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile & { nodes: (ProfileNode & { children?: number[] })[] };
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const wanted = new Set(names);
  const times = new Map<string, number>(names.map((name) => [name, 0]));
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const us = deltas[i + 1] ?? 0;
    if (us <= 0) continue;
    const seen = new Set<string>();
    for (let id: number | undefined = samples[i]; id !== undefined; id = parent.get(id)) {
      const name = byId.get(id)?.callFrame.functionName ?? '';
      if (wanted.has(name) && !seen.has(name)) {
        seen.add(name);
        times.set(name, (times.get(name) ?? 0) + us);
      }
    }
  }
  return times;
}
