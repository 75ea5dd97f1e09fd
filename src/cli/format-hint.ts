/**
 * Whether the first line of a file read as JSON Lines is a CSV header: a `.txt`
 * (or nameless) export is read as JSON Lines, and its rows would each be reported
 * as bad JSON. A line counts as a header when, cut at one delimiter, it gives at
 * least two cells of which at least two are import columns or close to one
 * (`Username`, `Email`); a broken JSON line (`{"username":"a",…`) never does.
 */
import { closestColumn } from './csv-columns.js';
import { shellWord } from './shell-word.js';

const DELIMITERS = [',', ';', '\t', '|'] as const;

/** What the header names, and the options that read the file as CSV; undefined for a line that is no CSV header. */
export function csvHeaderHint(line: string): { columns: string; options: string } | undefined {
  if (/^\s*[[{"]/.test(line)) return undefined;
  for (const delimiter of DELIMITERS) {
    const cells = line.split(delimiter).map((cell) => cell.trim().replace(/^"(.*)"$/, '$1'));
    if (cells.length < 2 || cells.filter((cell) => closestColumn(cell) !== undefined).length < 2) continue;
    const shown = cells.slice(0, 4).join(', ') + (cells.length > 4 ? ', …' : '');
    const options = delimiter === ',' ? '--format csv' : `--format csv --delimiter ${delimiter === '\t' ? 'tab' : shellWord(delimiter)}`;
    return { columns: shown, options };
  }
  return undefined;
}
