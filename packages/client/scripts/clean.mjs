// Removes build output folders before a build, so a source file that was deleted
// or renamed leaves no stale module behind to be packed or tested.
import { rmSync } from 'node:fs';

for (const dir of process.argv.slice(2)) rmSync(new URL(`../${dir}/`, import.meta.url), { recursive: true, force: true });
