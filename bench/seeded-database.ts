/**
 * A database of BENCH_USERS seeded people for one store, for a benchmark that
 * measures one service on it: a SQLite file in the run's folder, or a scratch
 * PostgreSQL database that drop() removes (the file goes with the folder).
 */
import { join } from 'node:path';
import type { BenchOptions, StoreKind } from './bench-options.js';
import { createScratchDatabase } from './postgres-database.js';
import { seedPostgres } from './seed-postgres.js';
import { seedSqlite } from './seed-sqlite.js';
import type { Database } from './servers.js';

export interface SeededDatabase extends Database {
  drop(): Promise<void>;
}

export async function seededDatabase(options: Readonly<BenchOptions>, store: StoreKind, runDir: string, label: string): Promise<SeededDatabase> {
  console.log(`${store}: seeding ${options.users.toLocaleString('en')} users`);
  if (store === 'sqlite') {
    const location = join(runDir, `${label}-${options.users}.db`);
    seedSqlite(location, options.users);
    return { store, location, drop: async () => {} };
  }
  const scratch = await createScratchDatabase(options.postgresUrl, label);
  try {
    await seedPostgres(scratch.url, options.users);
  } catch (error) {
    await scratch.drop();
    throw error;
  }
  return { store, location: scratch.url, drop: () => scratch.drop() };
}
