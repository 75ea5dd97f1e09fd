/**
 * Two instances of the service side by side, each on a fresh database of its
 * own (a SQLite file, or a scratch PostgreSQL database dropped afterwards), for
 * the benchmarks that compare the service with itself under two settings.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchOptions, StoreKind } from './bench-options.js';
import { createScratchDatabase } from './postgres-database.js';
import { killAll, type RunningServer } from './processes.js';
import { makeCredentials, startService, type Credentials } from './servers.js';

export interface PairedServices {
  a: RunningServer;
  b: RunningServer;
  credentials: Credentials;
  runDir: string;
  /** The DATABASE_URL of side a. */
  urlOfA: string;
}

export interface PairSpec {
  /** Names of the two sides, e.g. ['feed-on', 'feed-off']; the store is appended. */
  names: readonly [string, string];
  /** Extra service settings of each side. */
  env?: readonly [Record<string, string>, Record<string, string>];
}

/** Starts the pair, runs `measure`, then stops both and removes their databases (also after a failure). */
export async function withPairedServices(options: Readonly<BenchOptions>, store: StoreKind, spec: PairSpec, measure: (pair: PairedServices) => Promise<void>): Promise<void> {
  const runDir = mkdtempSync(join(tmpdir(), `bench-${spec.names.join('-')}-${store}-`));
  const scratch = store === 'postgres' ? await Promise.all(spec.names.map((name) => createScratchDatabase(options.postgresUrl, name.replace(/-/g, '_')))) : [];
  const location = (i: number) => (store === 'postgres' ? scratch[i]!.url : join(runDir, `users-${i}.db`));
  const credentials = makeCredentials(runDir);
  const servers: RunningServer[] = [];
  try {
    for (const [i, name] of spec.names.entries()) {
      const env = spec.env?.[i] ?? {};
      servers.push(await startService({ ...options, serviceEnv: { ...options.serviceEnv, ...env } }, runDir, { store, location: location(i) }, credentials, { name: `${name}-${store}` }));
    }
    await measure({ a: servers[0]!, b: servers[1]!, credentials, runDir, urlOfA: store === 'postgres' ? location(0) : `sqlite:${location(0)}` });
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await Promise.all(scratch.map((database) => database.drop()));
    rmSync(runDir, { recursive: true, force: true });
  }
}

/** Runs `bench` for every store of the options; a failure stops every child process. */
export async function forEachStore(options: Readonly<BenchOptions>, bench: (store: StoreKind) => Promise<void>): Promise<void> {
  try {
    for (const store of options.stores) await bench(store);
  } catch (error) {
    killAll();
    throw error;
  }
}
