/**
 * What a user costs on disk (docs/deployment.md, "Sizing the disk"; issue 36): BENCH_STORAGE_USERS
 * HR-shaped people (seed-data.ts: names, title, department, employee number, user type, an extra
 * attribute) created through the store's create, BENCH_STORAGE_CONCURRENCY in flight, with the
 * change feed on and nothing pruned (the default retention keeps every event of the window: one
 * `user.created` each here). Then, per table and index, the bytes and the bytes per user:
 * - SQLite: `dbstat` (pages of each table and index), and the file after a checkpoint;
 * - PostgreSQL: `pg_table_size` of each table (with its TOAST) and `pg_relation_size` of each
 *   index, after VACUUM.
 * Then every user is changed once (a new title: one `user.updated` each) and the events
 * measured again: what each further event the retention window keeps costs.
 *
 *   npm run bench:storage     (BENCH_STORAGE_USERS, default 20000; BENCH_STORAGE_CONCURRENCY, default 64;
 *                              BENCH_STORES=sqlite,postgres;
 *                              BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import postgres from 'postgres';
import { openPostgresUserStore } from '../src/store/postgres/postgres-user-store.js';
import { openSqliteUserStore } from '../src/store/sqlite/sqlite-user-store.js';
import type { UserStore } from '../src/store/user-store.js';
import { newUid } from '../src/users/new-uid.js';
import { withDefaults } from '../src/users/user.js';
import { createScratchDatabase } from './postgres-database.js';
import { seededFields } from './seed-data.js';

const USERS = Number(process.env.BENCH_STORAGE_USERS ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_STORAGE_CONCURRENCY ?? 64);
const STORES = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',');
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs `work` on 0 … USERS-1, CONCURRENCY at a time. */
async function pool(work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < USERS) await work(next++);
  }));
}

/** Creates USERS HR-shaped people through `store.create`; returns their uids. */
async function fill(store: UserStore): Promise<string[]> {
  const uids: string[] = [];
  await pool(async (i) => {
    const now = new Date().toISOString();
    uids[i] = (await store.create(withDefaults({ ...seededFields(i), uid: newUid(), created_at: now, updated_at: now, version: 1 }))).uid;
  });
  return uids;
}

/** Gives every user a new title: one `user.updated` event each. */
async function changeAll(store: UserStore, uids: string[]): Promise<void> {
  await pool((i) => store.replace(uids[i] as string, (user) => ({ ...user, title: `${user.title ?? ''} II` }), new Date().toISOString()));
}

/** The bytes of the events table and its indexes. */
const eventBytes = (parts: Part[]) => parts.filter((part) => part.table === 'events').reduce((sum, part) => sum + part.bytes, 0);

function reportEvents(store: string, before: number, after: number): void {
  console.log(`\n${store}: events ${before} bytes before and ${after} bytes after one change of each user: ${((after - before) / USERS).toFixed(0)} bytes a further event`);
}

interface Part {
  name: string;
  /** The table an index belongs to (its own name for a table). */
  table: string;
  bytes: number;
}

function report(store: string, parts: Part[], total: number, totalLabel: string): void {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  console.log(`\n${store}: ${USERS} users, ${totalLabel} ${kb(total)}: ${(total / USERS).toFixed(0)} bytes a user`);
  console.log('| table or index | of table | bytes | bytes a user |');
  console.log('|---|---|--:|--:|');
  for (const part of [...parts].sort((a, b) => a.table.localeCompare(b.table) || (a.name === a.table ? -1 : b.name === b.table ? 1 : a.name.localeCompare(b.name)))) {
    if (part.bytes === 0) continue;
    console.log(`| ${part.name} | ${part.table} | ${part.bytes} | ${(part.bytes / USERS).toFixed(0)} |`);
  }
}

async function sqlite(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'storage-bench-'));
  try {
    const path = join(dir, 'users.db');
    const parts = () => {
      const db = new Database(path);
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
        return db.prepare<[], { name: string; tbl_name: string | null; bytes: number }>(
          `SELECT d.name, m.tbl_name, sum(d.pgsize) AS bytes FROM dbstat d LEFT JOIN sqlite_schema m ON m.name = d.name GROUP BY d.name`,
        ).all().map((row) => ({ name: row.name, table: row.tbl_name ?? row.name, bytes: row.bytes }));
      } finally {
        db.close();
      }
    };
    let store = openSqliteUserStore({ path });
    const uids = await fill(store);
    await store.close();
    const created = parts();
    report('SQLite', created, statSync(path).size, 'file');
    store = openSqliteUserStore({ path });
    await changeAll(store, uids);
    await store.close();
    reportEvents('SQLite', eventBytes(created), eventBytes(parts()));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresStore(): Promise<void> {
  const scratch = await createScratchDatabase(POSTGRES_URL, 'storage');
  try {
    const open = () => openPostgresUserStore({ url: scratch.url, poolMax: 10, statementTimeoutMs: 60_000, connectTimeoutMs: 5_000 });
    let store = await open();
    const uids = await fill(store);
    await store.close();
    const sql = postgres(scratch.url, { max: 1, onnotice: () => {} });
    try {
      const parts = await postgresParts(sql);
      // The tables and indexes of the service, without the database's own catalogue (about 7 MiB however many users).
      report('PostgreSQL', parts, parts.reduce((sum, part) => sum + part.bytes, 0), 'tables and indexes');
      store = await open();
      await changeAll(store, uids);
      await store.close();
      reportEvents('PostgreSQL', eventBytes(parts), eventBytes(await postgresParts(sql)));
    } finally {
      await sql.end({ timeout: 5 });
    }
  } finally {
    await scratch.drop();
  }
}

/** Each table's and index's bytes, after VACUUM. */
async function postgresParts(sql: postgres.Sql): Promise<Part[]> {
  await sql.unsafe('VACUUM ANALYZE');
  const rows = await sql<{ name: string; tbl: string; bytes: string }[]>`
    SELECT c.relname AS name, c.relname AS tbl, pg_table_size(c.oid) AS bytes FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'
    UNION ALL
    SELECT i.relname, t.relname, pg_relation_size(i.oid) FROM pg_index x
      JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public'`;
  return rows.map((row) => ({ name: row.name, table: row.tbl, bytes: Number(row.bytes) }));
}

if (STORES.includes('sqlite')) await sqlite();
if (STORES.includes('postgres')) await postgresStore();
