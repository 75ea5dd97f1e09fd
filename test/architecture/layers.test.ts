/**
 * The domain is the ground floor (../shared STYLE: "The domain's vocabulary"): what a
 * user is, its facets and sort keys, how a merge patch applies and what a search matches
 * live in src/users/, and the store imports them. users/ reaches the store through its
 * port alone (src/store/user-store.ts: the UserStore interface, its types and the errors
 * it declares), never an adapter, the planner or another store module.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

const SOURCE = join(import.meta.dirname, '..', '..', '..', 'src');

/** Every module a file names in an import or export statement, or in `import(…)`. */
function specifiersOf(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s*'([^']+)'/g)) found.push(match[1]!);
  for (const match of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) found.push(match[1]!);
  return found;
}

/** The store modules a file of src/users imports, as paths under src/. */
function storeImportsOf(file: string): string[] {
  return specifiersOf(readFileSync(join(SOURCE, 'users', file), 'utf8'))
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => posix.normalize(posix.join('users', specifier)))
    .filter((path) => path.startsWith('store/'));
}

describe('layers', () => {
  it('src/users imports the store only through its port, store/user-store.ts', () => {
    const files = readdirSync(join(SOURCE, 'users')).filter((name) => name.endsWith('.ts'));
    assert.ok(files.length > 10, 'src/users holds the domain');
    const outside = files.flatMap((file) => storeImportsOf(file).filter((path) => path !== 'store/user-store.js').map((path) => `${file} → ${path}`));
    assert.deepEqual(outside, []);
  });

  it('finds an import of a store module other than the port, as the check above needs', () => {
    const text = "import { a } from '../store/search-plan.js';\nexport { b } from '../store/sqlite/x.js';\nconst c = await import('../store/page-marks.js');";
    assert.deepEqual(specifiersOf(text), ['../store/search-plan.js', '../store/sqlite/x.js', '../store/page-marks.js']);
  });
});
