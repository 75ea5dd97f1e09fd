/**
 * Entry point: load the configuration, open the store, build the app, listen,
 * and stop gracefully on SIGTERM/SIGINT (stop accepting, finish requests in
 * flight, close the store, exit 0). The signal handlers are installed before
 * anything else, so a signal that arrives during start-up also exits 0.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openStore, storeLocation } from './store/open-store.js';
import { throttledWarning } from './observability/throttled-warning.js';

export async function serve(config: Readonly<Config>): Promise<void> {
  let app: FastifyInstance | undefined;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app?.log.info({ signal }, 'stopping: finishing requests in flight');
    const force = setTimeout(() => {
      app?.log.error('requests in flight did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    // Without an app yet, nothing was acknowledged: exiting is the whole of stopping.
    (app ? app.close() : Promise.resolve()).then(
      () => process.exit(0),
      (error: unknown) => {
        app?.log.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);

  // Background work of the store (the feed's sequencer on PostgreSQL) retries by itself; its failures are logged, throttled.
  const store = await openStore(config.store, { onBackgroundError: throttledWarning(() => app?.log, 'change feed: numbering new events failed; retrying') });
  app = await buildApp({ config, store });
  app.log.info(storeLocation(config.store), 'store opened');
  await app.listen({ host: config.host, port: config.port });
}

function main(): void {
  let config: Readonly<Config>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`user-service: configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  serve(config).catch((error: unknown) => {
    process.stderr.write(`user-service: cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

// Run when started directly (`node dist/src/server.js`, or the bundle dist/bundle/server.mjs that npm start runs); the CLI imports serve() instead.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) main();
