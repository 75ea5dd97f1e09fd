/**
 * Command-line arguments: the configuration options a command uses (settings.ts),
 * and the flags that stand for a value of one (`--create`), become environment
 * variables layered over the process environment; a command's own options and
 * positional arguments are returned apart. Unknown options, including settings
 * the command does not use, are an error.
 */
import { optionName, SETTING_FLAGS } from './settings.js';

export class UsageError extends Error {}

export interface ParsedArguments {
  env: Record<string, string | undefined>;
  options: Record<string, string | true>;
  positionals: string[];
  help: boolean;
}

/** `own` names the command's options (without `--`) and whether each takes a value; `settings` the configuration it uses. */
export function parseArguments(
  argv: string[],
  own: Record<string, 'value' | 'flag'>,
  settings: readonly string[],
  baseEnv: Record<string, string | undefined>,
): ParsedArguments {
  const byOption = new Map(settings.map((env) => [optionName(env), env]));
  const env = { ...baseEnv };
  const options: Record<string, string | true> = {};
  const positionals: string[] = [];
  let help = false;
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const inline = eq === -1 ? undefined : arg.slice(eq + 1);
    const takeValue = () => {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value`);
      return value;
    };
    const setting = byOption.get(name);
    const kind = Object.hasOwn(own, name.slice(2)) ? own[name.slice(2)] : undefined;
    const flag = SETTING_FLAGS.get(name);
    // An option given twice is refused, not decided by its last spelling: which one the operator meant is unknown.
    const target = flag && settings.includes(flag[0]) ? flag[0] : (setting ?? name);
    if (!(flag && settings.includes(flag[0])) && !setting && kind !== 'value' && kind !== 'flag') throw new UsageError(`unknown option ${name}`);
    if (seen.has(target)) throw new UsageError(`${name} is given twice (or with another spelling of the same setting)`);
    seen.add(target);
    if (flag && settings.includes(flag[0])) {
      if (inline !== undefined) throw new UsageError(`${name} takes no value`);
      env[flag[0]] = flag[1];
    } else if (setting) env[setting] = takeValue();
    else if (kind === 'value') options[name.slice(2)] = takeValue();
    else if (kind === 'flag') options[name.slice(2)] = true;
    else throw new UsageError(`unknown option ${name}`);
  }
  return { env, options, positionals, help };
}
