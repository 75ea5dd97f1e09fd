/**
 * The sub-commands of `user-service`: what each takes, the settings it uses (it
 * accepts and shows only those), and what it does. `serve` uses every setting;
 * migrate, import and export only open the store; openapi needs none. The HTTP
 * service is loaded only by the commands that build it (serve, openapi), so the
 * store commands start faster and use less memory.
 */
import { resolve } from 'node:path';
import { loadConfig } from '../config.js';
import { migrateStore, openStore } from '../store/open-store.js';
import { UsageError, type ParsedArguments } from './arguments.js';
import { exportUsers } from './export-command.js';
import { importUsers, summaryLine } from './import-command.js';
import { formatOf } from './record-reader.js';
import { ALL_SETTINGS, pickSettings, STORE_SETTINGS } from './settings.js';

export interface Command {
  summary: string;
  usage: string;
  options: Record<string, 'value' | 'flag'>;
  optionsHelp?: string;
  /** The configuration settings the command reads. */
  settings: readonly string[];
  /** Resolves with the exit code, or -1 to keep running (serve). */
  run(args: ParsedArguments, config: () => ReturnType<typeof loadConfig>): Promise<number>;
}

const ON_CONFLICT = ['skip', 'fail', 'update'] as const;

/**
 * Records per transaction unless --batch-size says otherwise. On SQLite a commit
 * writes every B-tree page the batch touched to the WAL, and keys in file order
 * are scattered over the index, so larger batches write each page for more
 * records: 5,000 imported twice as fast as 1,000. PostgreSQL gains nothing above
 * 1,000, and its larger batches only cost memory (docs/performance.md, "Import").
 */
const DEFAULT_BATCH_SIZE = { sqlite: 5000, postgres: 1000 } as const;

async function runImport({ options, positionals }: ParsedArguments, config: () => ReturnType<typeof loadConfig>): Promise<number> {
  const file = positionals[0];
  if (positionals.length !== 1 || file === undefined) throw new UsageError('import takes exactly one FILE');
  const onConflict = String(options['on-conflict'] ?? 'skip') as (typeof ON_CONFLICT)[number];
  if (!ON_CONFLICT.includes(onConflict)) throw new UsageError('--on-conflict must be skip, fail or update');
  const { store: storeConfig, idempotencyTtlMs } = config();
  const runKey = options['idempotency-key'];
  if (runKey !== undefined && (typeof runKey !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(runKey))) throw new UsageError('--idempotency-key must be 1–200 visible ASCII characters');
  const batchSize = Number(options['batch-size'] ?? DEFAULT_BATCH_SIZE[storeConfig.kind]);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 100_000) throw new UsageError('--batch-size must be an integer from 1 to 100000');
  const format = formatOf(file, options.format === undefined ? undefined : String(options.format));
  const reportPath = String(options.report ?? `${file}.report.jsonl`);
  if (resolve(reportPath) === resolve(file)) throw new UsageError('--report must not name the input file');
  const store = await openStore(storeConfig, { bulkWrites: true });
  try {
    const started = Date.now();
    const idempotency = runKey === undefined ? {} : { idempotency: { key: runKey, ttlMs: idempotencyTtlMs } };
    const summary = await importUsers(store, { file, format, onConflict, reportPath, batchSize, progress: process.stderr, ...idempotency });
    process.stdout.write(`${summaryLine(summary, (Date.now() - started) / 1000)}\n`);
    return summary.rejected > 0 ? 1 : 0;
  } finally {
    await store.close();
  }
}

export const COMMANDS: Record<string, Command> = {
  serve: {
    summary: 'run the HTTP service (npm start runs the same from the bundle)',
    usage: 'user-service serve [options]',
    options: {},
    settings: ALL_SETTINGS,
    async run(_args, config) {
      const { serve } = await import('../server.js');
      await serve(config());
      return -1; // keeps running until a signal
    },
  },
  migrate: {
    summary: 'apply pending schema migrations and exit',
    usage: 'user-service migrate [options]',
    options: {},
    settings: STORE_SETTINGS,
    async run(_args, config) {
      const { applied, version } = await migrateStore(config().store);
      process.stdout.write(`user-service: schema at version ${version} (${applied} migration${applied === 1 ? '' : 's'} applied)\n`);
      return 0;
    },
  },
  import: {
    summary: 'load users from a JSON Lines or CSV file',
    usage: 'user-service import FILE [--format jsonl|csv] [--on-conflict skip|fail|update] [--report FILE] [--batch-size N] [--idempotency-key KEY] [options]',
    options: { format: 'value', 'on-conflict': 'value', report: 'value', 'batch-size': 'value', 'idempotency-key': 'value' },
    optionsHelp: [
      '  --format jsonl|csv               file format (default: by extension, .csv is CSV)',
      '  --on-conflict skip|fail|update   what a record whose key exists does (default skip)',
      '  --report FILE                    refused and skipped lines, as JSON Lines (default FILE.report.jsonl;',
      '                                   replaced by each run, removed when there is nothing to report)',
      `  --batch-size N                   records per transaction (default ${DEFAULT_BATCH_SIZE.sqlite} on SQLite, ${DEFAULT_BATCH_SIZE.postgres} on PostgreSQL)`,
      '  --idempotency-key KEY            make the run safe to repeat: a later run with KEY (after a crash) replays',
      '                                   the batches this one committed instead of writing them again',
    ].join('\n'),
    settings: [...STORE_SETTINGS, 'IDEMPOTENCY_TTL_S'],
    run: runImport,
  },
  export: {
    summary: 'write every user of an existing database, in uid order, as JSON Lines or CSV, and the change-feed position it reflects',
    usage: 'user-service export [--format jsonl|csv] [options] > users.jsonl',
    options: { format: 'value' },
    optionsHelp: '  --format jsonl|csv   output format (default jsonl)',
    settings: STORE_SETTINGS,
    async run({ options }, config) {
      const format = String(options.format ?? 'jsonl');
      if (format !== 'jsonl' && format !== 'csv') throw new UsageError('--format must be jsonl or csv');
      const store = await openStore(config().store, { mustExist: true });
      try {
        const { count, position } = await exportUsers(store, format, process.stdout);
        // The position a mirror loaded from this export follows the change feed after (docs/events.md).
        process.stderr.write(`exported ${count} ${count === 1 ? 'user' : 'users'} at change-feed position ${position}\n`);
        return 0;
      } finally {
        await store.close();
      }
    },
  },
  openapi: {
    summary: 'print the OpenAPI 3.1 document',
    usage: 'user-service openapi',
    options: {},
    settings: [],
    async run(_args, config) {
      // The document depends on the routes, not on the data or the settings: an in-memory store serves.
      const [{ buildApp }, { openSqliteUserStore }] = await Promise.all([import('../app.js'), import('../store/sqlite/sqlite-user-store.js')]);
      const app = await buildApp({ config: config(), store: openSqliteUserStore({ path: ':memory:' }) });
      await app.ready();
      process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`);
      await app.close();
      return 0;
    },
  },
};

/** The configuration of `command`: from its own settings only (openapi: none, and silent). */
export function configFor(command: Command, env: Record<string, string | undefined>) {
  const own = pickSettings(env, command.settings);
  return () => loadConfig(command.settings.length === 0 ? { LOG_LEVEL: 'silent' } : own);
}
