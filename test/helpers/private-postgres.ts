/**
 * A PostgreSQL cluster of the test's own: initdb in a temporary folder, its own
 * port and socket folder, so durability and outage tests can stop it hard
 * (`pg_ctl -m immediate`, i.e. a crash) without disturbing the shared server.
 * PostgreSQL refuses to run as root, so under root the commands run as `postgres`.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PrivateCluster {
  url: string;
  port: number;
  start(): void;
  /** Stops at once, like a crash: no checkpoint, recovery from the WAL on the next start. */
  crash(): void;
  destroy(): void;
}

function runAsPostgres(command: string, args: string[]): string {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  return execFileSync(file, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
}

/** Whether initdb and pg_ctl can be run here; a reason when not. */
export function privateClusterSkipReason(): string | undefined {
  try {
    runAsPostgres('pg_ctl', ['--version']);
    runAsPostgres('initdb', ['--version']);
    return undefined;
  } catch (error) {
    const reason = `cannot run initdb/pg_ctl as the postgres user (${(error as Error).message.split('\n')[0]})`;
    if (process.env.CI === 'true') throw new Error(`CI requires a private PostgreSQL cluster: ${reason}`);
    return reason;
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * A self-signed certificate and key for the cluster in `root` (openssl, which Debian's
 * PostgreSQL packages depend on through ssl-cert), owned by whoever runs the server.
 */
function makeCertificate(root: string): { cert: string; key: string } {
  const cert = join(root, 'server.crt');
  const key = join(root, 'server.key');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-keyout', key, '-out', cert], { stdio: 'ignore', timeout: 60_000 });
  chmodSync(key, 0o600);
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(cert, uid, gid);
    chownSync(key, uid, gid);
  }
  return { cert, key };
}

/** A cluster of the test's own, started; with `tls`, it also accepts TLS connections (a self-signed certificate). */
export async function createPrivateCluster(settings: { tls?: boolean } = {}): Promise<PrivateCluster> {
  const root = mkdtempSync(join(tmpdir(), 'user-service-pg-'));
  chmodSync(root, 0o755);
  const data = join(root, 'data');
  const port = await freePort();
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(root, uid, gid);
  }
  runAsPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-instructions', '-E', 'UTF8', '--locale=C']);
  const tls = settings.tls ? makeCertificate(root) : undefined;
  const tlsOptions = tls ? ` -c ssl=on -c ssl_cert_file=${tls.cert} -c ssl_key_file=${tls.key}` : '';
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=on -c synchronous_commit=on -c max_connections=100${tlsOptions}`;
  const cluster: PrivateCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start() {
      runAsPostgres('pg_ctl', ['-D', data, '-o', options, '-l', join(root, 'server.log'), '-w', '-t', '60', 'start']);
    },
    crash() {
      runAsPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    },
    destroy() {
      try {
        runAsPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
