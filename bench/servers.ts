/**
 * How the harness starts what it measures. The service runs as in production:
 * `node --enable-source-maps dist/bundle/server.mjs` (what `npm start` runs) with its defaults, logging at info, API-key
 * authentication on. The baseline server gets the same database.
 */
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchOptions, StoreKind } from './bench-options.js';
import { freePort, startServer, type RunningServer } from './processes.js';

export interface Database {
  store: StoreKind;
  /** A SQLite file path or a PostgreSQL URL. */
  location: string;
}

export interface Credentials {
  /** Headers every benchmark request sends. */
  headers: Record<string, string>;
  keysFile: string;
}

/** A fresh API key with both scopes; the keys file holds only its SHA-256, as the service requires. */
export function makeCredentials(runDir: string): Credentials {
  const key = randomBytes(32).toString('base64url');
  const keysFile = join(runDir, 'api-keys.json');
  const sha256 = createHash('sha256').update(key).digest('hex');
  writeFileSync(keysFile, JSON.stringify([{ id: 'bench', sha256, scopes: ['users:read', 'users:write'] }]));
  return { headers: { authorization: `Bearer ${key}` }, keysFile };
}

function databaseUrl(db: Database): string {
  return db.store === 'sqlite' ? `sqlite:${db.location}` : db.location;
}

export interface ServiceStart {
  name: string;
  /** Extra flags for node, e.g. --cpu-prof. */
  nodeFlags?: string[];
  /**
   * Run the unbundled build (dist/src/server.js, the same code as the bundle) instead of
   * the bundle `npm start` runs: CPU profiles then name each package and source file.
   */
  unbundled?: boolean;
}

export async function startService(options: Readonly<BenchOptions>, runDir: string, db: Database, credentials: Credentials, start: ServiceStart): Promise<RunningServer> {
  return startServer(
    {
      name: start.name,
      // As `npm start` runs it.
      args: start.unbundled
        ? [...(start.nodeFlags ?? []), join(options.root, 'dist/src/server.js')]
        : ['--enable-source-maps', ...(start.nodeFlags ?? []), join(options.root, 'dist/bundle/server.mjs')],
      env: {
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl(db),
        LOG_LEVEL: 'info',
        AUTH_MODE: 'api-key',
        API_KEYS_FILE: credentials.keysFile,
        ...options.serviceEnv,
      },
      cwd: runDir,
      logPath: options.log === 'file' ? join(runDir, `${start.name}.log`) : '/dev/null',
      readyPath: '/readyz',
    },
    await freePort(),
  );
}

/** The raw baseline (node:http), or with `floor` the framework floor (bare Fastify over the same data access). */
export async function startBaseline(options: Readonly<BenchOptions>, runDir: string, db: Database, start: Partial<ServiceStart> & { floor?: boolean } = {}): Promise<RunningServer> {
  const name = start.name ?? `${start.floor ? 'fastify-floor' : 'baseline'}-${db.store}`;
  const script = start.floor ? 'fastify-floor-server.js' : 'baseline-server.js';
  return startServer(
    {
      name,
      args: [...(start.nodeFlags ?? []), join(options.root, 'dist/bench/baselines', script)],
      env: { BASELINE_STORE: db.store, BASELINE_DATABASE: db.location },
      cwd: runDir,
      logPath: join(runDir, `${name}.log`),
      readyPath: '/readyz',
    },
    await freePort(),
  );
}
