/**
 * The raw search server: what this stack can do for `GET /users?q=<prefix>&limit=<n>` with
 * nothing but node:http and better-sqlite3 on the service's own database file. The prefix is
 * folded as the service folds a query word (users/search-words.ts), its users are read from
 * the word index the service drives such a page with (`user_terms`, a `(field, value, uid)`
 * B-tree) and sorted as the service's default sort (by uid), the uids alone, then the page's
 * joined to their stored representation; one row more than the page says whether a `next` link follows. The page is the
 * stored texts in a JSON array, as the service sends it.
 *
 * Left out, so the server is an upper bound: authentication, the access log, validation,
 * the exact match of a username or an address, the driver counts and the walk of a broad
 * word (every prefix is read through the index, however many users it names), cursor signing.
 *
 *   DATABASE=<file> PORT=<port> node dist/bench/baselines/raw-search-server.js
 */
import { createServer, type ServerResponse } from 'node:http';
import Database from 'better-sqlite3';
import { prefixUpperBound } from '../../src/users/canonical.js';
import { fold } from '../../src/users/search-words.js';

const db = new Database(process.env.DATABASE ?? '', { readonly: true, fileMustExist: true });
const page = db
  .prepare<[string, string, number], string>(
    `SELECT u.representation FROM (SELECT DISTINCT uid FROM user_terms WHERE field = 'word' AND value >= ? AND value < ? ORDER BY uid LIMIT ?) d
       CROSS JOIN users u ON u.uid = d.uid ORDER BY d.uid`,
  )
  .pluck();
const lastUid = (json: string) => json.slice(8, 44); // {"uid":"<36 characters>",…

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-cache', ...headers });
  res.end(body);
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://raw');
  if (url.pathname === '/readyz') return send(res, 200, '{"status":"ready"}');
  const q = url.searchParams.get('q');
  if (url.pathname !== '/users' || req.method !== 'GET' || q === null) return send(res, 404, '{"status":404}');
  const word = fold(q);
  const limit = Number(url.searchParams.get('limit') ?? 100);
  const rows = page.all(word, prefixUpperBound(word) ?? '\u{10ffff}', limit + 1);
  const users = rows.slice(0, limit);
  const headers: Record<string, string> = {};
  if (rows.length > limit) headers.link = `</users?q=${encodeURIComponent(q)}&limit=${limit}&after=${lastUid(users[limit - 1] as string)}>; rel="next"`;
  send(res, 200, `[${users.join(',')}]`, headers);
});
// The service's default keep-alive timeout, so idle connections are treated alike.
server.keepAliveTimeout = 5000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
