/**
 * The import's heap. What an import holds is bounded: two batches at once (one read, one
 * written), each ending at --batch-size records or BATCH_TEXT_MAX of record text
 * (import-command.ts), and nothing kept from one batch to the next. What it throws away is
 * not: a record's objects live as long as its batch is read and written, longer than V8's
 * young generation keeps anything, so about 8 KB a record is promoted to the old generation
 * and dies there. V8 collects the old generation once it has grown to a multiple of what
 * survived the last collection, and raises that multiple up to 4 when collections cost
 * little, as an import's do: 15–32 MB live grew to about 145 MB before each collection, a
 * peak RSS of 261–267 MB importing HR-shaped people into SQLite. A multiple of 2 keeps the
 * peak under 200 MB for the same CPU (docs/performance.md, "The import's memory").
 *
 * V8 reads the flag at every collection, so setting it once the process runs takes effect
 * (its other heap limits are fixed at start-up and cannot be set here). A value the operator
 * gave on node's command line is left as given (node refuses this flag in NODE_OPTIONS).
 */
import { setFlagsFromString } from 'node:v8';

/** The old generation's growth between collections, in percent of what survived the last one. */
export const IMPORT_HEAP_GROWING_PERCENT = 100;

const FLAG = '--heap-growing-percent';

/** Bounds the heap's growth for the rest of the process (an import command's process). */
export function boundImportHeap(): void {
  const given = process.execArgv.some((arg) => arg.replace(/_/g, '-').startsWith(FLAG));
  if (!given) setFlagsFromString(`${FLAG}=${IMPORT_HEAP_GROWING_PERCENT}`);
}
