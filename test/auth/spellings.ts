/**
 * Other ways to write a request target that an attacker tries: every one of
 * them either reaches the same route (and must meet its check) or no route.
 *
 * `reaching` spellings are ones the router decodes to the very same route
 * (percent-encoded unreserved characters, absolute-form targets): the answer
 * must be the route's own refusal (401/403), not a 404 that merely missed it.
 * `other` spellings may or may not route; they must never succeed.
 */
import type { RouteEntry } from '../../src/http/route-table.js';

export interface Spellings {
  reaching: string[];
  other: string[];
}

const UNRESERVED = /^[A-Za-z0-9\-._~:@]$/;

/** `ch` percent-encoded, with upper- or lower-case hex digits. */
export function percent(ch: string, upper = true): string {
  const hex = Buffer.from(ch, 'utf8').toString('hex').replace(/(..)/g, '%$1');
  return upper ? hex.toUpperCase() : hex.toLowerCase();
}

/** Positions worth encoding: every character of the fixed words, and a few of each parameter. */
function positions(path: string, fixedLength: number): number[] {
  const all = Array.from(path, (_ch, i) => i).filter((i) => path[i] !== '/' && UNRESERVED.test(path[i] as string));
  const fixed = all.filter((i) => i < fixedLength);
  const rest = all.filter((i) => i >= fixedLength);
  const sample = rest.length <= 3 ? rest : [rest[0]!, rest[Math.floor(rest.length / 2)]!, rest[rest.length - 1]!];
  return [...fixed, ...sample];
}

export function spellingsOf(path: string, fixedLength: number): Spellings {
  const reaching = new Set<string>();
  for (const i of positions(path, fixedLength)) {
    for (const upper of [true, false]) reaching.add(path.slice(0, i) + percent(path[i] as string, upper) + path.slice(i + 1));
  }
  reaching.add(path.replace(/[A-Za-z]/g, (ch) => percent(ch)));
  for (const origin of ['http://anything', 'HTTP://anything', 'http://anything:1', 'https://127.0.0.1']) reaching.add(origin + path);

  const other = new Set<string>();
  const slashes = Array.from(path, (_ch, i) => i).filter((i) => path[i] === '/');
  for (const i of slashes) for (const upper of [true, false]) other.add(path.slice(0, i) + (upper ? '%2F' : '%2f') + path.slice(i + 1));
  other.add(`/${path}`);
  other.add(path.replace(/\//g, '//'));
  other.add(`/.${path}`);
  other.add(path.replace(/^\/([^/]+)/, '/$1/.'));
  other.add(`/x/..${path}`);
  other.add(`/%2e%2e${path}`);
  other.add(`${path}/`);
  other.add(`${path};x`);
  other.add(path.replace(/^\/([^/]+)/, '/$1;x'));
  other.add(path.toUpperCase());
  other.add(path.replace(/^\/(.)/, (_m, c: string) => `/${c.toUpperCase()}`));
  other.add(`${path}?${'a'.repeat(8000)}=1`);
  other.add(`${path}${'/a'.repeat(1200)}`);
  other.add(`${path}%00`);
  other.add(`${path}%20`);
  other.add(path.replace(/\//g, '\\'));
  other.add(`${path}#x`);
  other.add(`${path}.json`);
  other.add(`${path}?`);
  for (const r of reaching) other.delete(r);
  other.delete(path);
  return { reaching: [path, ...reaching], other: [...other] };
}

/** Values for the parameters of a route pattern, one concrete path per value set. */
export interface Samples {
  uid: string;
  username: string;
  legacyId: string;
}

/** Concrete paths of a route pattern, and how long its fixed leading part is. */
export function concretePaths(url: string, samples: Samples): { path: string; fixedLength: number }[] {
  const fixedLength = url.indexOf(':') === -1 && url.indexOf('*') === -1 ? url.length : Math.min(...[url.indexOf(':'), url.indexOf('*')].filter((i) => i >= 0));
  if (url === '/users/:ref') {
    return [`/users/${samples.uid}`, `/users/username:${samples.username}`, `/users/legacy_id:${samples.legacyId}`].map((path) => ({ path, fixedLength }));
  }
  return [{ path: url.replace(/:[^/]+/g, 'x').replace(/\*/g, 'x'), fixedLength }];
}

/** The methods of a route worth sending: all of them when few, else a spread that includes the common ones. */
export function methodsOf(entry: RouteEntry, depth: 'all' | 'some'): string[] {
  if (depth === 'all' || entry.methods.length <= 3) return [...entry.methods];
  const common = entry.methods.filter((m) => ['OPTIONS', 'PATCH', 'PUT', 'DELETE', 'POST', 'PROPFIND'].includes(m));
  return common.length > 0 ? common.slice(0, 3) : entry.methods.slice(0, 2);
}
