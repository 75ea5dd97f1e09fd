/**
 * Serves the operator console (built from src/console/ into dist/console/) at
 * /console: a public page and its two assets, read once at start. The page is
 * a client of the public API like any other: every call it makes carries the
 * operator's credential and meets the route's own check.
 *
 * The content security policy allows this origin's script, style and fetches
 * and nothing else: no inline script or style, no other origin, no framing
 * (`data:` images only for the empty favicon, which spares a request per load).
 *
 * The page names the service's AUTH_MODE in `<meta name="auth-mode">`, so the console
 * knows before any request whether to show the sign-in screen: a fresh load makes no
 * request that fails (a 401 every browser logs as an error). The mode is no secret:
 * the public OpenAPI document shows it in its security schemes.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthConfig } from '../config.js';
import { ifNoneMatchMatches } from './conditional-requests.js';

export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

const FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
};

/**
 * dist/console beside the compiled code: two levels up from dist/src/http (the
 * library build), one from dist/bundle (the bundle `npm start` runs).
 */
function consoleFolder(): string | undefined {
  for (const relative of ['../../console/', '../console/']) {
    const folder = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(`${folder}index.html`)) return folder;
  }
  return undefined;
}

/** The page's empty auth-mode tag (src/console/index.html), filled at start. */
const AUTH_MODE_TAG = '<meta name="auth-mode" content="">';

function load(folder: string, authMode: AuthConfig['mode']): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const [name, type] of Object.entries(FILES)) {
    const file = readFileSync(`${folder}${name}`);
    const body = name === 'index.html' ? Buffer.from(file.toString('utf8').replace(AUTH_MODE_TAG, `<meta name="auth-mode" content="${authMode}">`)) : file;
    // Weak: the same content goes out gzip- or br-encoded or plain (compression.ts compresses no answer with a strong tag).
    assets.set(name, { body, type, etag: `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });
  }
  return assets;
}

export async function consolePage(app: FastifyInstance, { authMode }: { authMode: AuthConfig['mode'] }): Promise<void> {
  const folder = consoleFolder();
  if (folder === undefined) {
    app.log.warn('the console is not built (dist/console is missing: run npm run build); /console answers 404');
    return;
  }
  const assets = load(folder, authMode);
  const send = (name: string) => (request: FastifyRequest, reply: FastifyReply) => {
    const asset = assets.get(name) as Asset;
    // Revalidated on every load (no-cache), answered 304 when unchanged: a new build is seen at once.
    reply.header('etag', asset.etag).header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').header('referrer-policy', 'no-referrer');
    if (name === 'index.html') reply.header('content-security-policy', CONSOLE_CSP).header('x-frame-options', 'DENY');
    const cached = request.headers['if-none-match'];
    // No body: a 304 carries neither Content-Length nor Content-Type (RFC 9110 §15.4.5).
    if (cached !== undefined && ifNoneMatchMatches(cached, asset.etag)) return reply.code(304).send(undefined as never);
    return reply.type(asset.type).send(asset.body);
  };
  // GET and HEAD share each route: Fastify's automatic HEAD route would give a 304 a
  // Content-Length (RFC 9110 §8.6); Node itself drops the body of a HEAD response.
  const serve = (url: string, name: string) => app.route({ method: ['GET', 'HEAD'], url, config: { access: 'public' }, schema: { hide: true }, handler: send(name) });
  serve('/console', 'index.html');
  serve('/console/', 'index.html');
  serve('/console/console.js', 'console.js');
  serve('/console/console.css', 'console.css');
}
