#!/usr/bin/env node
/**
 * `user-service`: the command-line entry (the package's bin). Commands: serve
 * (what `npm start` runs, from the bundle), migrate, import FILE, export, openapi
 * (commands.ts), backup, restore, verify, mark-restored (backup-commands.ts). Every configuration setting a command uses is also an option
 * (`--database-url` is DATABASE_URL); `--help` works on every command. Errors are
 * one line on stderr, never a stack: exit 2 for usage and configuration, 1 else.
 */
import { ConfigError } from '../config.js';
import { isDriverWriteAfterClose } from '../store/open-store-errors.js';
import { parseArguments, UsageError } from './arguments.js';
import { COMMANDS, configFor } from './commands.js';
import { settingsHelp } from './settings.js';

function help(command?: string): string {
  if (command === undefined || COMMANDS[command] === undefined) {
    const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
    const list = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)} ${c.summary}`).join('\n');
    return `Usage: user-service <command> [options]\n\nCommands:\n${list}\n\nRun user-service <command> --help for a command's options.\n`;
  }
  const c = COMMANDS[command]!;
  const options = c.optionsHelp ? `Options:\n${c.optionsHelp}\n\n` : '';
  const settings = c.settings.length > 0 ? `Settings (each also read from the environment variable in brackets):\n${settingsHelp(c.settings)}\n` : '';
  return `Usage: ${c.usage}\n\n${c.summary}\n\n${options}${settings}`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help(rest[0]));
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(`unknown command ${JSON.stringify(name)}; commands: ${Object.keys(COMMANDS).join(', ')}`);
  const args = parseArguments(rest, command.options, command.settings, process.env);
  if (args.help) {
    process.stdout.write(help(name));
    return 0;
  }
  return command.run(args, configFor(command, args.env));
}

// postgres.js can throw from a deferred write after a connection dropped mid-command; the
// command's own query has already failed and said so (open-store-errors.ts).
process.on('uncaughtException', (error) => {
  if (isDriverWriteAfterClose(error)) return;
  process.stderr.write(`user-service: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}\n`);
  process.exit(1);
});

/** A finished command whose output is written exits even if a dropped connection left a handle open. */
const EXIT_GRACE_MS = 10_000;

main(process.argv.slice(2)).then(
  (code) => {
    if (code < 0) return; // serve: runs until a signal
    process.exitCode = code;
    setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
  },
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`user-service: ${error.message}\nRun user-service --help for usage.\n`);
    else if (error instanceof ConfigError) process.stderr.write(`user-service: configuration error: ${error.message}\n`);
    else process.stderr.write(`user-service: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}\n`);
    process.exitCode = error instanceof UsageError || error instanceof ConfigError ? 2 : 1;
    setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
  },
);
