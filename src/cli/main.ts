#!/usr/bin/env node
/**
 * `user-service`: the command-line entry (the package's bin). Commands: serve
 * (what `npm start` runs, from the bundle), migrate, import FILE, export, openapi. Every
 * configuration setting is also an option (`--database-url` is DATABASE_URL);
 * `--help` works on every command.
 */
import { buildApp } from '../app.js';
import { ConfigError, loadConfig } from '../config.js';
import { serve } from '../server.js';
import { migrateStore, openStore } from '../store/open-store.js';
import { openSqliteUserStore } from '../store/sqlite/sqlite-user-store.js';
import { parseArguments, UsageError } from './arguments.js';
import { exportUsers } from './export-command.js';
import { importUsers } from './import-command.js';
import { formatOf } from './record-reader.js';
import { settingsHelp } from './settings.js';

interface Command {
  summary: string;
  usage: string;
  options: Record<string, 'value' | 'flag'>;
  optionsHelp?: string;
  run(args: ReturnType<typeof parseArguments>): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  serve: {
    summary: 'run the HTTP service (npm start runs the same from the bundle)',
    usage: 'user-service serve [options]',
    options: {},
    async run({ env }) {
      await serve(loadConfig(env));
      return -1; // keeps running until a signal
    },
  },
  migrate: {
    summary: 'apply pending schema migrations and exit',
    usage: 'user-service migrate [options]',
    options: {},
    async run({ env }) {
      const { applied, version } = await migrateStore(loadConfig(env).store);
      process.stdout.write(`user-service: schema at version ${version} (${applied} migration${applied === 1 ? '' : 's'} applied)\n`);
      return 0;
    },
  },
  import: {
    summary: 'load users from a JSON Lines or CSV file',
    usage: 'user-service import FILE [--format jsonl|csv] [--on-conflict skip|fail|update] [--report FILE] [--batch-size N] [options]',
    options: { format: 'value', 'on-conflict': 'value', report: 'value', 'batch-size': 'value' },
    optionsHelp: [
      '  --format jsonl|csv           file format (default: by extension, .csv is CSV)',
      '  --on-conflict skip|fail|update  what a record whose key exists does (default skip)',
      '  --report FILE                refused and skipped lines, as JSON Lines (default FILE.report.jsonl)',
      '  --batch-size N               records per transaction (default 1000)',
    ].join('\n'),
    async run({ env, options, positionals }) {
      const file = positionals[0];
      if (positionals.length !== 1 || file === undefined) throw new UsageError('import takes exactly one FILE');
      const onConflict = String(options['on-conflict'] ?? 'skip');
      if (!['skip', 'fail', 'update'].includes(onConflict)) throw new UsageError('--on-conflict must be skip, fail or update');
      const batchSize = Number(options['batch-size'] ?? 1000);
      if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 100_000) throw new UsageError('--batch-size must be an integer from 1 to 100000');
      const format = formatOf(file, options.format === undefined ? undefined : String(options.format));
      const store = await openStore(loadConfig(env).store);
      try {
        const started = Date.now();
        const summary = await importUsers(store, {
          file,
          format,
          onConflict: onConflict as 'skip' | 'fail' | 'update',
          reportPath: String(options.report ?? `${file}.report.jsonl`),
          batchSize,
          progress: process.stderr,
        });
        const seconds = (Date.now() - started) / 1000;
        const total = summary.created + summary.updated + summary.skipped + summary.rejected;
        process.stdout.write(
          `created ${summary.created}, updated ${summary.updated}, skipped ${summary.skipped}, rejected ${summary.rejected}` +
            ` (${total} records in ${seconds.toFixed(1)} s, ${Math.round(total / Math.max(seconds, 0.001))}/s)` +
            (summary.stoppedAt !== undefined ? `; stopped at line ${summary.stoppedAt} (--on-conflict fail)` : '') +
            '\n',
        );
        return summary.rejected > 0 ? 1 : 0;
      } finally {
        await store.close();
      }
    },
  },
  export: {
    summary: 'write every user, in uid order, as JSON Lines or CSV',
    usage: 'user-service export [--format jsonl|csv] [options] > users.jsonl',
    options: { format: 'value' },
    optionsHelp: '  --format jsonl|csv           output format (default jsonl)',
    async run({ env, options }) {
      const format = String(options.format ?? 'jsonl');
      if (format !== 'jsonl' && format !== 'csv') throw new UsageError('--format must be jsonl or csv');
      const store = await openStore(loadConfig(env).store);
      try {
        const count = await exportUsers(store, format, process.stdout);
        process.stderr.write(`exported ${count} users\n`);
        return 0;
      } finally {
        await store.close();
      }
    },
  },
  openapi: {
    summary: 'print the OpenAPI 3.1 document',
    usage: 'user-service openapi [options]',
    options: {},
    async run({ env }) {
      // The document depends on the routes, not on the data: an in-memory store serves.
      const app = await buildApp({ config: loadConfig({ ...env, LOG_LEVEL: 'silent' }), store: openSqliteUserStore({ path: ':memory:' }) });
      await app.ready();
      process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`);
      await app.close();
      return 0;
    },
  },
};

function help(command?: string): string {
  if (command === undefined || COMMANDS[command] === undefined) {
    const list = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(8)} ${c.summary}`).join('\n');
    return `Usage: user-service <command> [options]\n\nCommands:\n${list}\n\nRun user-service <command> --help for a command's options.\n`;
  }
  const c = COMMANDS[command]!;
  return `Usage: ${c.usage}\n\n${c.summary}\n\n${c.optionsHelp ? `Options:\n${c.optionsHelp}\n\n` : ''}Settings (each also read from the environment variable in brackets):\n${settingsHelp()}\n`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help(rest[0]));
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command ${JSON.stringify(name)}; commands: ${Object.keys(COMMANDS).join(', ')}`);
  const args = parseArguments(rest, command.options, process.env);
  if (args.help) {
    process.stdout.write(help(name));
    return 0;
  }
  return command.run(args);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`user-service: ${error.message}\nRun user-service --help for usage.\n`);
    else if (error instanceof ConfigError) process.stderr.write(`user-service: configuration error: ${error.message}\n`);
    else process.stderr.write(`user-service: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof UsageError || error instanceof ConfigError ? 2 : 1;
  },
);
