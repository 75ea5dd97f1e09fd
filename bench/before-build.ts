/**
 * The build a before/after comparison measures against (creates-ab.ts, import-ab.ts):
 * another checkout of this repository, built with `npm run build`, named by
 * BENCH_BEFORE_ROOT (default /tmp/bench-before), e.g. a worktree of the commit before a change:
 *
 *   git worktree add --detach /tmp/bench-before <commit> && ln -s "$PWD/node_modules" /tmp/bench-before/node_modules
 *   (cd /tmp/bench-before && npm run build)
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface Build {
  /** The checkout's root (holding dist/). */
  root: string;
  /** Its commit, short, with ` + changes` when its working tree has uncommitted changes. */
  commit: string;
}

function describe(root: string): string {
  const git = (args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout?.trim() ?? '';
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
  return `${git(['rev-parse', '--short', 'HEAD']) || 'unknown'}${dirty ? ' + uncommitted changes' : ''}`;
}

/** This checkout and the one before it; throws, saying what to do, when the one before is not built. */
export function beforeAndAfter(root: string): { before: Build; after: Build } {
  const beforeRoot = resolve(process.env.BENCH_BEFORE_ROOT || '/tmp/bench-before');
  for (const file of ['dist/bundle/server.mjs', 'dist/src/cli/main.js', 'dist/bench/seed-sqlite.js']) {
    if (!existsSync(join(beforeRoot, file))) throw new Error(`BENCH_BEFORE_ROOT=${beforeRoot} has no ${file}: check out the commit before there and run npm run build (see bench/before-build.ts)`);
  }
  return { before: { root: beforeRoot, commit: describe(beforeRoot) }, after: { root, commit: describe(root) } };
}
