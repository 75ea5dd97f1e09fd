/**
 * The state a scenario starts from, kept and put back: the scenarios compared
 * with each other (replace against merge) each start from the same database,
 * the one import-empty left, not from one the scenario before them grew (each
 * update appends a million change events and leaves pages to reuse, which
 * slows whatever runs next). SQLite: the database's files copied; PostgreSQL: a
 * template database (CREATE DATABASE … TEMPLATE copies its files).
 */
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import postgres from 'postgres';

export interface Snapshot {
  /** Puts the database back as it was when the snapshot was taken. */
  restore(): Promise<void>;
  drop(): Promise<void>;
}

const SQLITE_FILES = ['', '-wal', '-shm'];

/** The files of a SQLite database no process has open. */
export function snapshotSqlite(path: string): Snapshot {
  const copy = (from: string, to: string) => {
    for (const end of SQLITE_FILES) {
      rmSync(`${to}${end}`, { force: true });
      if (existsSync(`${from}${end}`)) copyFileSync(`${from}${end}`, `${to}${end}`);
    }
  };
  copy(path, `${path}.snapshot`);
  return {
    async restore() {
      copy(`${path}.snapshot`, path);
    },
    async drop() {
      for (const end of SQLITE_FILES) rmSync(`${path}.snapshot${end}`, { force: true });
    },
  };
}

/** A PostgreSQL database no session is connected to, copied to `<name>_snapshot` on the same server. */
export async function snapshotPostgres(serverUrl: string, name: string): Promise<Snapshot> {
  const snapshot = `${name}_snapshot`;
  const admin = async (statements: string[]) => {
    const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
    try {
      for (const statement of statements) await sql.unsafe(statement);
    } finally {
      await sql.end({ timeout: 5 });
    }
  };
  await admin([`CREATE DATABASE ${snapshot} TEMPLATE ${name}`]);
  return {
    restore: () => admin([`DROP DATABASE ${name} WITH (FORCE)`, `CREATE DATABASE ${name} TEMPLATE ${snapshot}`]),
    drop: () => admin([`DROP DATABASE IF EXISTS ${snapshot} WITH (FORCE)`]),
  };
}
