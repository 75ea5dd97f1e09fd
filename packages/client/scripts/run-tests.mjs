// Runs the package's compiled tests (dist-test/**/*.test.js) with node's test runner,
// one file at a time. The files are listed here because Node 20's --test takes no glob
// patterns and later majors read its arguments as globs.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../dist-test/', import.meta.url));
const files = readdirSync(root, { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('.test.js'))
  .map((file) => join(root, file))
  .sort();
const result = spawnSync(process.execPath, ['--enable-source-maps', '--test', '--test-concurrency=1', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
