/**
 * Entry point of a baseline server: the limit of this stack for the scenarios'
 * requests. BASELINE_STORE picks the driver (sqlite or postgres),
 * BASELINE_DATABASE the file or URL, PORT the port on 127.0.0.1. The driver
 * that is not chosen is never loaded. Stops on SIGTERM.
 */
import { createServer } from 'node:http';
import { createRawHandler } from './raw-router.js';
import type { RawStore } from './raw-store.js';

async function openRawStore(kind: string | undefined, database: string): Promise<RawStore> {
  if (kind === 'sqlite') return (await import('./sqlite-raw-store.js')).openSqliteRawStore(database);
  if (kind === 'postgres') return (await import('./postgres-raw-store.js')).openPostgresRawStore(database);
  throw new Error(`BASELINE_STORE must be sqlite or postgres, got ${JSON.stringify(kind)}`);
}

const store = await openRawStore(process.env.BASELINE_STORE, process.env.BASELINE_DATABASE ?? '');
const server = createServer(createRawHandler(store));
// The service's default keep-alive timeout, so idle connections are treated alike.
server.keepAliveTimeout = 5000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
