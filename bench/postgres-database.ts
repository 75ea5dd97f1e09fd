/**
 * A fresh PostgreSQL database per benchmark run, created on the configured server
 * and dropped at the end (also after a failure), so runs never share state.
 */
import postgres from 'postgres';

export interface ScratchDatabase {
  name: string;
  /** The URL of the new database (the server URL with its path replaced). */
  url: string;
  drop(): Promise<void>;
}

export async function createScratchDatabase(serverUrl: string, label: string): Promise<ScratchDatabase> {
  const name = `bench_${label}_${process.pid}_${Date.now().toString(36)}`.replace(/[^a-z0-9_]/g, '_');
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await sql.end({ timeout: 5 });
      }
    },
  };
}

/** Server settings that decide what a durable commit costs, for the report. */
export async function durabilitySettings(serverUrl: string): Promise<Record<string, string>> {
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    const settings: Record<string, string> = {};
    for (const name of ['server_version', 'fsync', 'synchronous_commit', 'wal_sync_method', 'commit_delay', 'shared_buffers']) {
      const [row] = await sql.unsafe<{ setting: string }[]>(`SELECT current_setting('${name}') AS setting`);
      settings[name] = row?.setting ?? '?';
    }
    return settings;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
