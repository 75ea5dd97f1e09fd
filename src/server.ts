/**
 * Entry point: load the configuration, open the store, build the app, catch the
 * change feed up, listen, and stop gracefully on SIGTERM/SIGINT (stop accepting,
 * finish requests in flight, close the store, log `stopped: store closed` with
 * how long the stop took, exit 0). The signal handlers are installed before
 * anything else, so a signal that arrives during start-up also exits 0.
 *
 * The instance listens only once every event committed before it started is
 * numbered (`events.settle()`): after a crash of this or another instance, events
 * of acknowledged writes may be committed without a position, and an instance that
 * answered /readyz before numbering them would serve a feed that lacks them.
 *
 * Every start-up failure is one line on stderr and a non-zero exit, never a stack.
 */
import { realpathSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openStore, storeLocation, type FailoverEvent } from './store/open-store.js';
import { describeOpenError, isDriverTypeQueryFailure, isDriverWriteAfterClose } from './store/open-store-errors.js';
import type { UserStore } from './store/user-store.js';
import { throttledWarning } from './observability/throttled-warning.js';

/** Tries at numbering the events committed before start, the last failure failing the start. */
const CATCH_UP_ATTEMPTS = 5;
/** The wait after the first failed try; doubled after each (250 ms + 500 + 1 s + 2 s). */
const CATCH_UP_RETRY_MS = 250;

/** The longest a stopping process waits for its log lines to be written before it exits. */
const LOG_DRAIN_MS = 1000;

/**
 * Resolves once the log has written every line. The default destination (observability/log-destination.ts)
 * writes its waiting lines at once; a stream that writes asynchronously (SonicBoom, which pino makes
 * for a file) may still have a write in flight, which process.exit does not wait for: the last lines
 * could come out of order or not at all. Such a write still going after LOG_DRAIN_MS: given up.
 */
async function logWritten(log: FastifyBaseLogger): Promise<void> {
  const stream = (log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as { _writing?: unknown; flushSync?: () => void } | undefined;
  if (stream?._writing === undefined) stream?.flushSync?.();
  const deadline = Date.now() + LOG_DRAIN_MS;
  while (stream?._writing === true && Date.now() < deadline) await sleep(1);
}

/** The one line a failed start prints (after `user-service: cannot start: `): the first line of the message, the store named in words. */
function startFailure(config: Readonly<Config>, error: unknown): string {
  const message = config.store.kind === 'postgres' && (error as { name?: unknown })?.name === 'PostgresError' ? describeOpenError(config.store, error) : error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? '';
}

/**
 * Resolves once every event committed before the call has its position, retrying a
 * failure a few times; undefined when a stop began meanwhile (the stop exits).
 */
async function catchUpFeed(config: Readonly<Config>, store: UserStore, log: FastifyBaseLogger, stopping: () => boolean): Promise<number | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await store.events.settle();
    } catch (error) {
      if (stopping()) return undefined;
      const cause = describeOpenError(config.store, error);
      if (attempt >= CATCH_UP_ATTEMPTS) throw new Error(`change feed: cannot number the events committed before start: ${cause}`, { cause: error });
      log.warn({ attempt, cause }, 'change feed: numbering the events committed before start failed; retrying');
      await sleep(CATCH_UP_RETRY_MS * 2 ** (attempt - 1));
      if (stopping()) return undefined;
    }
  }
}

export async function serve(config: Readonly<Config>): Promise<void> {
  let app: FastifyInstance | undefined;
  let store: UserStore | undefined;
  let stopping = false;
  let started = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const since = performance.now();
    app?.log.info({ signal }, 'stopping: finishing requests in flight');
    const force = setTimeout(() => {
      app?.log.error('requests in flight did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    // The app's onClose closes the store. Without an app yet, nothing was acknowledged:
    // closing a store already open (or nothing) is the whole of stopping.
    (app ? app.close() : (store?.close() ?? Promise.resolve())).then(
      async () => {
        if (app) {
          app.log.info({ signal, stop_ms: Math.round(performance.now() - since) }, 'stopped: store closed');
          await logWritten(app.log);
        }
        process.exit(0);
      },
      (error: unknown) => {
        app?.log.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  // Not once: a second signal (timeout(1) and process-group kills send two) must not cut the stop short.
  // The stop runs once; SHUTDOWN_TIMEOUT_MS bounds it.
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  // The PostgreSQL driver (postgres.js 3.4) runs a query of its own as each new connection opens (the
  // array types) and drops its promise (porsager/postgres#1192): when that query fails, a statement
  // timeout for one, the error reaches no caller, only this event. During start-up it fails the start
  // at once, in one line, before a statement that went ahead on that connection (without the array
  // types) can commit. Later it is harmless (the types were read at start, and are shared by every
  // connection): it is logged. Any other unhandled rejection ends the process, as it would without this.
  process.on('unhandledRejection', (reason: unknown) => {
    if (!started && !stopping) {
      process.stderr.write(`user-service: cannot start: ${startFailure(config, reason)}\n`);
      process.exit(1);
    }
    if (isDriverTypeQueryFailure(reason)) {
      app?.log.warn({ cause: startFailure(config, reason) }, 'PostgreSQL: a new connection could not read the array types; it uses those read before');
      return;
    }
    throw reason;
  });
  // postgres.js's deferred write after a connection dropped (open-store-errors.ts) throws where nothing
  // can catch it; the query on that connection has failed on its own. Anything else ends the process.
  process.on('uncaughtException', (error) => {
    if (isDriverWriteAfterClose(error)) {
      app?.log.warn('PostgreSQL: a connection that had already dropped was written to; the write is dropped');
      return;
    }
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });

  try {
    // Background work of the store (the feed's sequencer on PostgreSQL) retries by itself; its failures are logged, throttled.
    // A failover followed (docs/deployment.md, "Failover"): which host is the primary now, or which
    // stale writer was refused. Those met while the store opens are logged once the log exists.
    const failoverEvents: FailoverEvent[] = [];
    const logFailover = (log: FastifyBaseLogger, { kind, host, timeline }: FailoverEvent) =>
      kind === 'primary-changed'
        ? log.warn({ host, timeline }, 'PostgreSQL: following a new primary')
        : log.error({ host, timeline }, 'PostgreSQL: a writable host on an older timeline is refused (a stale primary: fence it)');
    store = await openStore(config.store, {
      onBackgroundError: throttledWarning(() => app?.log, 'change feed: numbering new events failed; retrying'),
      onFailoverEvent: (event) => (app ? logFailover(app.log, event) : failoverEvents.push(event)),
    });
    if (stopping) return; // the stop closes it and exits
    app = await buildApp({ config, store });
    app.log.info(storeLocation(config.store), 'store opened');
    for (const event of failoverEvents.splice(0)) logFailover(app.log, event);
    // Ready means caught up: the feed numbers what was committed before this start (a crash's leftovers) before the first request.
    if ((await catchUpFeed(config, store, app.log, () => stopping)) === undefined || stopping) return;
    await app.listen({ host: config.host, port: config.port });
    started = true;
  } catch (error) {
    // A stop under way closed the store beneath the start: the stop exits (0), not the failure.
    if (stopping) return;
    throw error;
  }
}

/** A configuration error, found as the settings are read or as the store is opened (a SQLite folder that does not exist): one line, exit 2. */
function configurationError(error: ConfigError): never {
  process.stderr.write(`user-service: configuration error: ${error.message}\n`);
  process.exit(2);
}

function main(): void {
  let config: Readonly<Config>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) configurationError(error);
    throw error;
  }
  serve(config).catch((error: unknown) => {
    if (error instanceof ConfigError) configurationError(error);
    process.stderr.write(`user-service: cannot start: ${startFailure(config, error)}\n`);
    process.exit(1);
  });
}

// Run when started directly (`node dist/src/server.js`, or the bundle dist/bundle/server.mjs that npm start runs); the CLI imports serve() instead.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) main();
