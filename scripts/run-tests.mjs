// Runs every compiled test file with node's test runner: the service's (dist/test) and
// the client package's (packages/client/dist-test, which `npm test -w packages/client`
// also runs alone). Node 20's --test takes no glob patterns, so the files are listed here.
// The spec reporter ends with every failing test again, its file and its error, so the
// last lines of a long run (all a CI log may keep) name what failed.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.js') ? [path] : [];
  });
}

const filter = process.argv.slice(2);
const files = ['dist/test', 'packages/client/dist-test'].flatMap(testFiles).filter((file) => filter.length === 0 || filter.some((f) => file.includes(f))).sort();
// With no file, node --test would discover files of its own (dist/bundle, node_modules' tests).
if (files.length === 0) {
  console.error(`no compiled test file matches ${filter.join(', ')} (paths look like dist/test/search/search-plans.test.js)`);
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--enable-source-maps', '--test', '--test-concurrency=2', '--test-reporter=spec', '--test-reporter-destination=stdout', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
