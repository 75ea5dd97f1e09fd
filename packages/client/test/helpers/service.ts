/**
 * The user service the client's tests talk to: this checkout's production build
 * (`dist/bundle/server.mjs`, what `npm start` runs), started as a child process on
 * a free port over a fresh SQLite file, with API-key authentication (an admin key
 * and a read-only key), and stopped with SIGTERM. The tests see it only over
 * HTTP, as any consumer of the package would.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** packages/client, from test/helpers or dist-test/helpers. */
const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SERVICE_ENTRY = join(PACKAGE_ROOT, '..', '..', 'dist', 'bundle', 'server.mjs');

export interface Service {
  baseUrl: string;
  keys: { admin: string; reader: string };
  stop(): Promise<void>;
}

const LISTENING = /"msg":"Server listening at http:\/\/127\.0\.0\.1:(\d+)"/;

/** Starts the service; `env` adds or overrides settings (EVENTS_RETENTION_COUNT, …). */
export async function startService(env: Record<string, string> = {}): Promise<Service> {
  if (!existsSync(SERVICE_ENTRY)) throw new Error(`${SERVICE_ENTRY} is missing: build the service first (npm run build at the repository root)`);
  const dir = mkdtempSync(join(tmpdir(), 'user-client-test-'));
  const keys = { admin: `ak-${randomBytes(16).toString('hex')}`, reader: `rk-${randomBytes(16).toString('hex')}` };
  const sha256 = (key: string) => createHash('sha256').update(key).digest('hex');
  writeFileSync(
    join(dir, 'api-keys.json'),
    JSON.stringify([
      { id: 'admin', sha256: sha256(keys.admin), scopes: ['users:read', 'users:write'] },
      { id: 'reader', sha256: sha256(keys.reader), scopes: ['users:read'] },
    ]),
  );
  const child = spawn(process.execPath, [SERVICE_ENTRY], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      DATABASE_URL: `sqlite:${join(dir, 'users.db')}`,
      AUTH_MODE: 'api-key',
      API_KEYS_FILE: join(dir, 'api-keys.json'),
      // A busy test machine must not shed the tests' requests.
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  let output = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: string) => {
      output += chunk;
      const match = LISTENING.exec(output);
      if (match === null) return;
      child.stdout.off('data', onData).resume(); // the request log is not needed: let it flow away
      resolve(Number(match[1]));
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    void exited.then((code) => reject(new Error(`the service exited (${code}) before listening:\n${stderr}${output}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    keys,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
