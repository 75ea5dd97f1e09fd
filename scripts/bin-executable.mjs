// Part of `npm run build`: marks the package's commands (package.json "bin") executable.
// tsc writes them as plain files (0644); npm makes a dependency's bins executable when it
// links them, but not the checkout's own, so `npx user-service` in a fresh clone would be
// refused ("Permission denied").
import { chmodSync, readFileSync } from 'node:fs';

const { bin = {} } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
for (const file of Object.values(typeof bin === 'string' ? { bin } : bin)) chmodSync(new URL(`../${file}`, import.meta.url), 0o755);
