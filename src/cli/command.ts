/** What a sub-command of `user-service` is: its help, its options and settings, and what it does (commands.ts lists them). */
import type { loadConfig } from '../config.js';
import type { ParsedArguments } from './arguments.js';

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
