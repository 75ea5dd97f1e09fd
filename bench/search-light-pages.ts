/**
 * How long a light search page (store/sqlite/sqlite-search.ts lightPage()) holds the event loop
 * at its bounds: on a seeded SQLite database, the word prefix of two letters (or three) whose
 * index entries come closest to LIGHT_BOUND without passing it, read in uid order, and the one
 * closest to LIGHT_ROWS_BOUND read with a sort and a check that read every driven user; 30 reads
 * of each, median and maximum.
 *
 *   npm run build && node dist/bench/search-light-pages.js DATABASE
 */
import Database from 'better-sqlite3';
import { LATEST_POSITION_SQL } from '../src/store/sqlite/sqlite-event-log.js';
import { BUDGET_MESSAGE, connectionReads, statementRunner } from '../src/store/sqlite/sqlite-reads.js';
import { LIGHT_BOUND, LIGHT_ROWS_BOUND, sqliteSearch } from '../src/store/sqlite/sqlite-search.js';
import type { SearchPage } from '../src/store/user-store.js';
import { prefixUpperBound } from '../src/users/canonical.js';

const [location] = process.argv.slice(2);
if (!location) throw new Error('usage: node dist/bench/search-light-pages.js DATABASE');
const db = new Database(location, { readonly: true, fileMustExist: true });
const run = statementRunner(db, BUDGET_MESSAGE);
const search = sqliteSearch(connectionReads(db, run), undefined, undefined, run);
const count = db.prepare<[string, string | undefined], number>("SELECT count(*) FROM (SELECT uid FROM user_terms WHERE field = 'word' AND value >= ? AND value < ? LIMIT 5001)").pluck();

/** The prefix naming most entries up to `bound`. */
function closest(bound: number): { word: string; entries: number } {
  let best = { word: '', entries: -1 };
  for (const a of 'abcdefghijklmnopqrstuvwxyz') {
    for (const b of 'abcdefghijklmnopqrstuvwxyz') {
      for (const c of ['', ...'aeioulnrst']) {
        const word = a + b + c;
        const entries = count.get(word, prefixUpperBound(word)) as number;
        if (entries <= bound && entries > best.entries) best = { word, entries };
      }
    }
  }
  return best;
}

const broad = closest(LIGHT_BOUND);
const narrow = closest(LIGHT_ROWS_BOUND);
const page = (word: string, more: Partial<SearchPage> & { active?: boolean } = {}): SearchPage => ({
  filter: { words: [word], ...(more.active === undefined ? {} : { active: more.active }) },
  sort: more.sort ?? [],
  limit: 21,
  walkLimit: 10_000,
});
const shapes: [string, SearchPage][] = [
  [`q=${broad.word} (${broad.entries} entries), uid order`, page(broad.word)],
  [`q=${narrow.word} (${narrow.entries} entries), sort=family_name`, page(narrow.word, { sort: [{ field: 'family_name', descending: false }] })],
  [`q=${narrow.word}, active=true`, page(narrow.word, { active: true })],
  [`q=${narrow.word}, active=true, sort=-display_name,given_name`, page(narrow.word, { active: true, sort: [{ field: 'display_name', descending: true }, { field: 'given_name', descending: false }] })],
];
for (const [name, shape] of shapes) {
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const start = process.hrtime.bigint();
    if (search.lightPage(shape, LATEST_POSITION_SQL) === undefined) throw new Error(`${name}: not a light page`);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((x, y) => x - y);
  console.log(`${name}: median ${(times[15] as number).toFixed(2)} ms, max ${(times[29] as number).toFixed(2)} ms`);
}
