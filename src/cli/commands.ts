/**
 * The sub-commands of `user-service`: what each takes, the settings it uses (it
 * accepts and shows only those), and what it does. `serve` uses every setting;
 * migrate, import and export only open the store; openapi needs none. The HTTP
 * service is loaded only by the commands that build it (serve, openapi), so the
 * store commands start faster and use less memory.
 */
import { loadConfig } from '../config.js';
import { migrateStore, openStore } from '../store/open-store.js';
import { UsageError, type ParsedArguments } from './arguments.js';
import { BACKUP_COMMANDS } from './backup-commands.js';
import type { Command } from './command.js';
import { exportUsers } from './export-command.js';
import { DEFAULT_BATCH_SIZE, IMPORT_OPTIONS, runImport } from './import-run.js';
import { ALL_SETTINGS, EXISTING_STORE_SETTINGS, pickSettings, STORE_SETTINGS } from './settings.js';

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
    usage: 'user-service import FILE [--format jsonl|csv] [--on-conflict skip|fail|merge|replace] [--map FROM=TO,…] [--extra-columns attributes] [--delimiter C] [--encoding NAME] [--report FILE] [--batch-size N] [--idempotency-key KEY] [options]',
    options: IMPORT_OPTIONS,
    optionsHelp: [
      '  --format jsonl|csv               file format (default: by extension, .csv is CSV); a gzip-compressed file is read as is',
      '  --on-conflict MODE               what a record whose keys an existing user holds does:',
      '                                     skip (default): leave the user, report the line',
      '                                     fail: stop at that line',
      '                                     merge (or update): change only the members or non-empty cells the record has',
      '                                     replace: make the user the record; what it lacks is reset to its default',
      '  --map FROM=TO,…                  CSV: read column FROM as TO (--map email=email_address,Surname=family_name)',
      '  --extra-columns attributes       CSV: keep columns the import does not know as members of attributes',
      "  --delimiter C                    CSV: the cell delimiter, one character or tab (default ',')",
      '  --encoding NAME                  utf-8 (default; a UTF-16 byte-order mark is read as such), windows-1252 (Excel\'s',
      '                                   "CSV (Comma delimited)"), iso-8859-1 (latin1), utf-16, utf-16le or utf-16be',
      '  --report FILE                    refused and skipped lines, as JSON Lines (default FILE.report.jsonl, or in the',
      '                                   temporary folder when FILE\'s folder cannot be written; removed when empty)',
      `  --batch-size N                   records per transaction (default ${DEFAULT_BATCH_SIZE.sqlite} on SQLite, ${DEFAULT_BATCH_SIZE.postgres} on PostgreSQL; fewer once they hold 4 MiB)`,
      '  --idempotency-key KEY            the run\'s key (default: a new one, printed): a later run with KEY (after a',
      '                                   crash or a stop) replays the batches this one committed and writes the rest',
    ].join('\n'),
    settings: [...STORE_SETTINGS, 'IDEMPOTENCY_TTL_S'],
    // The raw arguments (the command's name first) make the command that resumes an interrupted run.
    run: (args, config) => runImport(args, config, process.argv.slice(2)),
  },
  export: {
    summary: 'write every user of an existing database, in uid order, as JSON Lines or CSV, and the change-feed position it reflects',
    usage: 'user-service export [--format jsonl|csv] [options] > users.jsonl',
    options: { format: 'value' },
    optionsHelp: '  --format jsonl|csv   output format (default jsonl)',
    settings: EXISTING_STORE_SETTINGS,
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
  ...BACKUP_COMMANDS,
};

/** The configuration of `command`: from its own settings only (openapi: none, and silent). */
export function configFor(command: Command, env: Record<string, string | undefined>) {
  const own = pickSettings(env, command.settings);
  return () => loadConfig(command.settings.length === 0 ? { LOG_LEVEL: 'silent' } : own);
}
