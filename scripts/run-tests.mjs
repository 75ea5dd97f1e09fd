// Runs every compiled test file with node's test runner: the service's (dist/test) and
// the client package's (packages/client/dist-test, which `npm test -w packages/client`
// also runs alone). Node 20's --test takes no glob patterns, so the files are listed here.
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
const result = spawnSync(process.execPath, ['--enable-source-maps', '--test', '--test-concurrency=2', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
