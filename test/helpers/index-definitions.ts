/** The indexes a test database holds, read beside the store (neither opens nor migrates it): name → definition as the database states it. */
import postgres from 'postgres';
import Database from '../../src/store/sqlite/sqlite-driver.js';
import type { StoreKind } from './stores.js';

export async function indexDefinitions(kind: StoreKind, url: string): Promise<Map<string, string>> {
  if (kind === 'sqlite') {
    const db = new Database(url.slice('sqlite:'.length), { readonly: true });
    try {
      const rows = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL").all() as { name: string; sql: string }[];
      return new Map(rows.map((row) => [row.name, row.sql]));
    } finally {
      db.close();
    }
  }
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<{ name: string; definition: string }[]>`SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE schemaname = current_schema()`;
    return new Map(rows.map((row) => [row.name, row.definition]));
  } finally {
    await sql.end();
  }
}

/** The names of `all` that `now` lacks, sorted. */
export const missingIndexes = (all: Map<string, string>, now: Map<string, string>): string[] => [...all.keys()].filter((name) => !now.has(name)).sort();

/** How many users the database holds, counted beside the store (opening one would build what a bulk load set aside). */
export async function countUsers(kind: StoreKind, url: string): Promise<number> {
  if (kind === 'sqlite') {
    const db = new Database(url.slice('sqlite:'.length), { readonly: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
    } finally {
      db.close();
    }
  }
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM users`;
    return row?.n ?? 0;
  } finally {
    await sql.end();
  }
}
