/**
 * The columns of an import CSV, and the header check that runs once, before any
 * row: every column of the header (after `--map` renames it) must be one the
 * import knows, or go into `attributes` with `--extra-columns attributes`, and
 * `username` and `email_address` must be there. A header that fails stops the
 * run with one line that names the expected columns, the closest match of each
 * unknown one and the `--map` that would fix it, so a file with the wrong names
 * is never rejected row by row.
 *
 * Cells become record members (csvRecord): empty cells are left out (so a
 * `merge` import never clears a field from an empty cell); `legacy_ids` is
 * `;`-separated; `attributes`, `profile` (an object of profile members, as
 * `export` writes it), `emails`, `phone_numbers` and `addresses` are JSON; the
 * profile's other members have a column each (docs/api.md, "Import"). A member
 * given twice in one row (a `department` column and a `profile` cell naming it,
 * an extra column and an `attributes` member) is an error of that row.
 */
import { NAME_KEYS } from '../users/user-profile.js';
import { shellWord } from './shell-word.js';

/** A record being built from a row. */
type Members = Record<string, unknown>;

/**
 * Sets `value` at `path` of `record`, creating objects on the way; throws when the path already
 * holds a value. Members are own properties only, defined rather than assigned, so a column or an
 * attribute named `constructor` or `__proto__` is a member like any other.
 */
function setOnce(record: Members, path: readonly string[], value: unknown, column: string): void {
  const taken = () => new CellError(`the ${column} column sets ${path.join('.')}, which another cell of the row already set`);
  let target = record;
  for (const step of path.slice(0, -1)) {
    if (!Object.hasOwn(target, step)) define(target, step, {});
    const next = target[step];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) throw taken();
    target = next as Members;
  }
  const last = path[path.length - 1]!;
  if (Object.hasOwn(target, last)) throw taken();
  define(target, last, value);
}

function define(target: Members, name: string, value: unknown): void {
  // Assignment makes the same own, enumerable, writable member, at a fraction of the cost, for
  // every name but `__proto__` (whose assignment would set the prototype instead).
  if (name !== '__proto__') target[name] = value;
  else Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

/** A cell that cannot become a member: the row is rejected with this reason. */
export class CellError extends Error {}

function jsonCell(column: string, cell: string, kind: 'object' | 'array'): unknown {
  let value: unknown;
  try {
    value = JSON.parse(cell);
  } catch {
    throw new CellError(`the ${column} cell is not valid JSON`);
  }
  const isArray = Array.isArray(value);
  const isObject = value !== null && typeof value === 'object' && !isArray;
  if (kind === 'array' ? !isArray : !isObject) throw new CellError(`the ${column} cell is not a JSON ${kind}`);
  return value;
}

type CellReader = (record: Members, cell: string, column: string) => void;

const text = (member: string): CellReader => (record, cell, column) => setOnce(record, [member], cell, column);
const json = (member: string, kind: 'object' | 'array'): CellReader => (record, cell, column) => setOnce(record, [member], jsonCell(column, cell, kind), column);

/** Cells of typed columns that are not a value of the type pass through as text: the schema then names the member. */
const READERS: Record<string, CellReader> = {
  uid: text('uid'),
  username: text('username'),
  email_address: text('email_address'),
  legacy_ids: (record, cell, column) => setOnce(record, ['legacy_ids'], cell.split(';'), column),
  legacy_id: text('legacy_id'),
  external_id: text('external_id'),
  active: (record, cell, column) => {
    const word = cell.toLowerCase();
    setOnce(record, ['active'], word === 'true' ? true : word === 'false' ? false : cell, column);
  },
  display_name: text('display_name'),
  ...Object.fromEntries(['nick_name', 'title', 'user_type', 'preferred_language', 'locale', 'timezone', 'employee_number', 'cost_center', 'organization', 'division', 'department'].map((m) => [m, text(m)])),
  ...Object.fromEntries(NAME_KEYS.map((part) => [part === 'formatted' ? 'formatted_name' : part, ((record, cell, column) => setOnce(record, ['name', part], cell, column)) as CellReader])),
  manager: (record, cell, column) => setOnce(record, ['manager', 'value'], cell, column),
  manager_display_name: (record, cell, column) => setOnce(record, ['manager', 'display_name'], cell, column),
  emails: json('emails', 'array'),
  phone_numbers: json('phone_numbers', 'array'),
  addresses: json('addresses', 'array'),
  profile: (record, cell, column) => {
    for (const [member, value] of Object.entries(jsonCell(column, cell, 'object') as Members)) setOnce(record, [member], value, column);
  },
  attributes: (record, cell, column) => {
    for (const [member, value] of Object.entries(jsonCell(column, cell, 'object') as Members)) setOnce(record, ['attributes', member], value, column);
  },
  created_at: text('created_at'),
  updated_at: text('updated_at'),
  version: (record, cell, column) => setOnce(record, ['version'], /^[0-9]+$/.test(cell) ? Number(cell) : cell, column),
};

const READER_OF = new Map(Object.entries(READERS));

/** Every column the import reads, in the order the message lists them. */
export const IMPORT_COLUMNS: readonly string[] = [...READER_OF.keys()];
export const REQUIRED_COLUMNS = ['username', 'email_address'] as const;

/** What a header means: for each column in file order, the reader of its cells (or undefined: an empty header cell of an empty column). */
export interface ColumnPlan {
  /** The import columns each header column feeds (one, or several through --map). */
  columns: string[][];
  readers: ((record: Members, cell: string) => void)[];
}

export interface ColumnOptions {
  /** `--map`: header name → the import columns it feeds (an HR export's one email column can be both username and email_address). */
  map: ReadonlyMap<string, readonly string[]>;
  /** `--extra-columns attributes`: unknown columns become members of `attributes`. */
  extraToAttributes: boolean;
}

/** The header does not fit: one line, everything the operator needs to fix it. */
export class HeaderError extends Error {}

/** `--map` pairs for unknown columns whose closest column is neither in the header nor suggested for another. */
function suggestedMap(unknown: readonly string[], columns: readonly string[]): string[] {
  const targets = new Map<string, string[]>();
  for (const name of unknown) {
    if (/[,=]/.test(name)) continue; // --map cannot name it: the file's header must be renamed
    const close = closestColumn(name);
    if (close !== undefined && !columns.includes(close)) targets.set(close, [...(targets.get(close) ?? []), name]);
  }
  return [...targets].filter(([, from]) => from.length === 1).map(([to, [from]]) => `${from}=${to}`);
}

/** Parses `--map from=to,from2=to2`: each target must be an import column; a source may feed several (`Mail=email_address,Mail=username`). */
export function parseColumnMap(spec: string | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  if (spec === undefined) return map;
  for (const pair of spec.split(',')) {
    const eq = pair.indexOf('=');
    const from = pair.slice(0, eq).trim().normalize('NFC');
    const to = pair.slice(eq + 1).trim();
    if (eq === -1 || from === '' || to === '') throw new HeaderError(`--map takes FROM=TO pairs separated by commas, got ${JSON.stringify(pair)}`);
    if (!IMPORT_COLUMNS.includes(to)) throw new HeaderError(`--map ${from}=${to}: ${to} is not an import column${hint(to)}; columns: ${IMPORT_COLUMNS.join(', ')}`);
    const targets = map.get(from) ?? [];
    if (targets.includes(to)) throw new HeaderError(`--map names ${from}=${to} twice`);
    map.set(from, [...targets, to]);
  }
  return map;
}

/** Checks `header` (csv-parse's first row) and says what each column means; throws one HeaderError listing every problem. */
export function planColumns(header: readonly string[], options: ColumnOptions): ColumnPlan {
  // Names compared in NFC, so a header written in decomposed form matches what a terminal types.
  const names = header.map((name) => name.trim().normalize('NFC'));
  const problems: string[] = [];
  for (const from of options.map.keys()) if (!names.includes(from)) problems.push(`--map names ${JSON.stringify(from)}, which is not in the header`);
  const fed = names.map((name) => [...(options.map.get(name) ?? [name])]);
  // Every import column fed, once per header column that feeds it.
  const columns = fed.flat();
  const unknown = columns.filter((column) => column !== '' && !IMPORT_COLUMNS.includes(column));
  const repeated = columns.filter((column, i) => column !== '' && columns.indexOf(column) !== i);
  if (repeated.length > 0) problems.push(`${[...new Set(repeated)].map((c) => JSON.stringify(c)).join(', ')} appear${repeated.length === 1 ? 's' : ''} more than once`);
  if (unknown.length > 0 && !options.extraToAttributes) problems.push(`unknown column${unknown.length === 1 ? '' : 's'} ${unknown.map((c) => `${JSON.stringify(c)}${hint(c)}`).join(', ')}`);
  const missing = REQUIRED_COLUMNS.filter((column) => !columns.includes(column));
  if (missing.length > 0) problems.push(`missing ${missing.join(' and ')}`);
  if (problems.length > 0) {
    const mapping = suggestedMap(unknown, columns);
    const fixes = [
      ...(mapping.length > 0 ? [`rename with --map ${shellWord(mapping.join(','))}`] : []),
      ...(unknown.length > 0 && !options.extraToAttributes ? ['keep other columns in attributes with --extra-columns attributes'] : []),
      ...(delimiterHint(names) ?? []),
    ];
    throw new HeaderError(
      `the header does not fit: ${problems.join('; ')}. Columns: ${REQUIRED_COLUMNS.join(' and ')} (required), ${IMPORT_COLUMNS.filter((c) => !(REQUIRED_COLUMNS as readonly string[]).includes(c)).join(', ')}` +
        `${fixes.length > 0 ? `. To fix: ${fixes.join('; ')}` : ''}. Nothing was imported.`,
    );
  }
  const readers = fed.map((targets, i) => {
    const each = targets.map((column) => readerOf(column, i));
    return each.length === 1 ? each[0]! : (record: Members, cell: string) => each.forEach((read) => read(record, cell));
  });
  return { columns: fed, readers };
}

/** The reader of import column `column`, the `index`th of the header. */
function readerOf(column: string, index: number): (record: Members, cell: string) => void {
  const read = READER_OF.get(column);
  if (read !== undefined) return (record: Members, cell: string) => read(record, cell, column);
  if (column === '') return emptyNamed(index);
  return (record: Members, cell: string) => setOnce(record, ['attributes', column], cell, column);
}

/** A column without a name (a trailing delimiter in the header) holds nothing: a cell in it is an error of its row. */
const emptyNamed = (index: number) => (_record: Members, _cell: string) => {
  throw new CellError(`column ${index + 1} has a cell but no name in the header`);
};

/** A header read with the wrong delimiter is one column holding the others' names. */
function delimiterHint(names: readonly string[]): string[] | undefined {
  if (names.length !== 1) return undefined;
  const found = [';', '\t', '|'].find((d) => names[0]!.split(d).filter((part) => closestColumn(part.trim()) !== undefined).length >= 2);
  return found === undefined ? undefined : [`the header reads as one column: give its delimiter with --delimiter ${found === '\t' ? 'tab' : `'${found}'`}`];
}

/** Names HR exports use for the import's columns. */
const SYNONYMS = new Map<string, string>(Object.entries({
  email: 'email_address',
  e_mail: 'email_address',
  mail: 'email_address',
  email_addr: 'email_address',
  user_name: 'username',
  login: 'username',
  user: 'username',
  user_id: 'username',
  first_name: 'given_name',
  firstname: 'given_name',
  last_name: 'family_name',
  lastname: 'family_name',
  surname: 'family_name',
  full_name: 'display_name',
  name: 'display_name',
  job_title: 'title',
  dept: 'department',
  employee_id: 'employee_number',
  employeeid: 'employee_number',
  manager_id: 'manager',
  phone: 'phone_numbers',
  legacyid: 'legacy_id',
  id: 'uid',
}));

const normal = (name: string) => name.toLowerCase().replace(/[\s.-]+/g, '_');

/** Edit distance of two short strings (Levenshtein), for a suggestion only. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The import column an unknown header name most likely means, if any is close. */
export function closestColumn(name: string): string | undefined {
  const n = normal(name);
  if (IMPORT_COLUMNS.includes(n)) return n;
  const synonym = SYNONYMS.get(n) ?? SYNONYMS.get(n.replace(/_/g, ''));
  if (synonym !== undefined) return synonym;
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(n.length / 3)) + 1;
  for (const column of IMPORT_COLUMNS) {
    const d = distance(n, column);
    if (d < bestDistance) [best, bestDistance] = [column, d];
  }
  return best;
}

const hint = (name: string) => {
  const close = closestColumn(name);
  return close === undefined ? '' : ` (did you mean ${close}?)`;
};
