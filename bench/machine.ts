/**
 * The machine a run measured, for the report: processor, memory, Node.js, the
 * filesystem holding the databases (fsync cost depends on it), the load other
 * processes put on the machine, and the code measured (commit, local changes).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, totalmem, type } from 'node:os';

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  os: string;
  /** Filesystem type and device of the output folder. */
  filesystem: string;
  commit: string;
  /** Files with uncommitted changes when the run started. */
  dirtyFiles: number;
}

function mountOf(path: string): string {
  try {
    let best = { point: '', text: 'unknown' };
    for (const line of readFileSync('/proc/mounts', 'utf8').split('\n')) {
      const [device, point, fsType] = line.split(' ');
      if (device && point && fsType && path.startsWith(point) && point.length > best.point.length) best = { point, text: `${fsType} on ${device} (${point})` };
    }
    return best.text;
  } catch {
    return 'unknown';
  }
}

function git(root: string, args: string[]): string {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : '';
}

export function describeMachine(root: string, dataDir: string): MachineInfo {
  return {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: totalmem() / 2 ** 30,
    node: process.version,
    os: `${type()} ${release()}`,
    filesystem: mountOf(dataDir),
    commit: git(root, ['rev-parse', '--short', 'HEAD']) || 'unknown',
    dirtyFiles: git(root, ['status', '--porcelain']).split('\n').filter((l) => l !== '').length,
  };
}

/** 1-minute load average: how much other work competed for the cores. */
export function loadAverage(): number {
  return loadavg()[0] ?? 0;
}
