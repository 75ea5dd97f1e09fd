/**
 * The readers every section of the configuration uses (config.ts reads them all once): a
 * bad value throws ConfigError naming the setting; the entry point prints its one line
 * and exits non-zero.
 */
import { readFileSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';

export class ConfigError extends Error {
  constructor(readonly setting: string, message: string) {
    super(`${setting}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** The environment as the sections read it. */
export type Env = Record<string, string | undefined>;

/** `why`: what goes wrong below `min`, said in the message (a bound an operator would not guess). */
export function integer(env: Env, name: string, fallback: number, min: number, max: number, why?: string): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}${why ? ` (${why})` : ''}`);
  }
  return Number(raw);
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`);
  }
  return raw as T;
}

export function bool(env: Env, name: string): boolean {
  return oneOf(env, name, ['true', 'false'], 'false') === 'true';
}

export function required(env: Env, name: string, why: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') throw new ConfigError(name, `is required ${why}`);
  return raw;
}

export function readJsonFile(name: string, path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(name, `cannot read JSON from ${path}: ${(error as Error).message.split('\n')[0]}`);
  }
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Whether `host` (an address, a name, or a URL's hostname, which keeps an IPv6
 * address in brackets: `[::1]`) is this machine's loopback. IPv4-mapped IPv6
 * loopback addresses (`::ffff:127.0.0.1`) count too.
 */
export function isLoopback(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare === 'localhost') return true;
  const family = isIP(bare);
  return family !== 0 && LOOPBACK.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}
