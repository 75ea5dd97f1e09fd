/**
 * The whole HTTP layer of a baseline server: node:http, no framework. It answers
 * the paths the scenarios use with the same JSON fields and the same headers
 * that matter to a client (ETag as the service makes it, Content-Location,
 * Cache-Control, Location, Link). Like the service, a write stores the user's
 * representation and a read sends it as stored.
 *
 * Deliberately left out, and cheaper for it (so the baseline is an upper bound):
 * authentication (the service checks a bearer token by SHA-256 per request),
 * request logging, schema validation of bodies and queries, cursor signing
 * (the baseline's cursor is the plain last uid), problem documents.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { v7 as uuidv7 } from 'uuid';
import { canon } from '../../src/users/canonical.js';
import { withDefaults, type UniqueKey, type User, type UserFields } from '../../src/users/user.js';
import { representationOf, type UserRepresentation } from '../../src/users/user-representation.js';
import type { MaybePromise, RawStore } from './raw-store.js';

const KEYS = new Set<string>(['username', 'email_address', 'legacy_id']);

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

function sendRepresentation(res: ServerResponse, status: number, { uid, json, etag }: UserRepresentation, extra: Record<string, string> = {}): void {
  send(res, status, json, { etag, 'content-location': `/users/${uid}`, 'cache-control': 'no-cache', ...extra });
}

const sendUser = (res: ServerResponse, status: number, user: User, extra: Record<string, string> = {}) => sendRepresentation(res, status, representationOf(user), extra);

const notFound = (res: ServerResponse) => send(res, 404, '{"status":404}');

function then<T>(value: MaybePromise<T>, use: (value: T) => void, res: ServerResponse): void {
  if (value instanceof Promise) value.then(use, (error: unknown) => send(res, 500, JSON.stringify({ error: String(error) })));
  else use(value);
}

function readBody(req: IncomingMessage, res: ServerResponse, use: (body: string) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    try {
      use(Buffer.concat(chunks).toString('utf8'));
    } catch (error) {
      send(res, 500, JSON.stringify({ error: String(error) }));
    }
  });
}

function fieldsOf(body: string): UserFields {
  const input = JSON.parse(body) as Partial<UserFields>;
  return withDefaults({
    username: String(input.username).normalize('NFC'),
    email_address: String(input.email_address),
    legacy_ids: input.legacy_ids ?? [],
    display_name: input.display_name ?? null,
    attributes: input.attributes ?? {},
  });
}

function read(store: RawStore, segment: string, res: ServerResponse): void {
  const colon = segment.indexOf(':');
  const key = colon === -1 ? 'uid' : segment.slice(0, colon);
  const value = colon === -1 ? segment : segment.slice(colon + 1);
  let found: MaybePromise<UserRepresentation | undefined>;
  if (key === 'uid') found = store.byUid(value.toLowerCase());
  else if (KEYS.has(key)) found = store.byKey(key as UniqueKey, key === 'legacy_id' ? value : canon(value));
  else return send(res, 400, '{"status":400}');
  then(found, (stored) => (stored ? sendRepresentation(res, 200, stored) : notFound(res)), res);
}

function page(store: RawStore, query: URLSearchParams, res: ServerResponse): void {
  const limit = Number(query.get('limit') ?? 100);
  const q = query.get('q') ?? undefined;
  const after = query.get('after') ?? undefined;
  then(store.page(q === undefined ? undefined : canon(q), after, limit + 1), (rows) => {
    const users = rows.slice(0, limit);
    const headers: Record<string, string> = { 'cache-control': 'no-cache' };
    const last = users[users.length - 1];
    if (rows.length > limit && last) {
      const next = new URLSearchParams(query);
      next.set('after', last.uid);
      headers.link = `</users?${next.toString()}>; rel="next"`;
    }
    send(res, 200, JSON.stringify(users), headers);
  }, res);
}

export function createRawHandler(store: RawStore) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    try {
      if (path === '/readyz') return send(res, 200, '{"status":"ready"}');
      if (path === '/users' && req.method === 'GET') return page(store, new URLSearchParams(q === -1 ? '' : url.slice(q + 1)), res);
      if (path === '/users' && req.method === 'POST') {
        return readBody(req, res, (body) => {
          const now = new Date().toISOString();
          const user: User = { uid: uuidv7(), ...fieldsOf(body), created_at: now, updated_at: now, version: 1 };
          then(store.create(user), (created) => (created ? sendUser(res, 201, user, { location: `/users/${user.uid}` }) : send(res, 409, '{"status":409}')), res);
        });
      }
      if (!path.startsWith('/users/')) return notFound(res);
      const segment = decodeURIComponent(path.slice('/users/'.length));
      if (req.method === 'GET') return read(store, segment, res);
      if (req.method === 'PUT') {
        return readBody(req, res, (body) => {
          then(store.replace(segment.toLowerCase(), fieldsOf(body), new Date().toISOString()), (user) => (user ? sendUser(res, 200, user) : notFound(res)), res);
        });
      }
      return send(res, 405, '{"status":405}');
    } catch (error) {
      return send(res, 500, JSON.stringify({ error: String(error) }));
    }
  };
}
