/**
 * PostgreSQL for tests: every test file that needs it gets its own database on
 * the machine's server (TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 * and drops it at the end, so runs never see each other's data.
 *
 * Under CI=true an unreachable server is a failure; elsewhere the PostgreSQL tests
 * skip with a one-line reason.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

export const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let probe: Promise<string | undefined> | undefined;

/** Why PostgreSQL tests cannot run here, or undefined when they can. Throws under CI=true. */
export async function postgresSkipReason(): Promise<string | undefined> {
  probe ??= (async () => {
    const sql = postgres(ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => {} });
    try {
      await sql`SELECT 1`;
      return undefined;
    } catch (error) {
      return `PostgreSQL at ${ADMIN_URL} is unreachable (${(error as Error).message})`;
    } finally {
      await sql.end({ timeout: 1 });
    }
  })();
  const reason = await probe;
  if (reason !== undefined && process.env.CI === 'true') throw new Error(`CI requires PostgreSQL: ${reason}`);
  return reason;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A new, empty database; drop() removes it even while connections remain. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `user_service_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end({ timeout: 1 });
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const sql = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await sql.end({ timeout: 1 });
      }
    },
  };
}
