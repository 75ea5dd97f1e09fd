/**
 * Fastify's `childLoggerFactory`: the logger of a request (`request.log`) is made
 * only when something logs through it. Fastify otherwise makes a pino child per
 * request (its bindings, the request id, rendered to JSON each time), and most
 * requests log nothing through it: the access line is written directly
 * (request-log.ts), and only errors, audit lines and debug output use the child.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString, Logger } from 'pino';

type LogMethod = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

class LazyRequestLogger {
  #real: Logger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly ownBindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The pino child Fastify would have made, made once on first use. */
  get real(): Logger {
    return (this.#real ??= this.parent.child(this.ownBindings, this.options) as Logger);
  }

  get level(): LevelWithSilentOrString {
    return this.#real?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.real.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return this.real.isLevelEnabled(level);
  }

  bindings(): Bindings {
    return this.real.bindings();
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }

  silent(): void {}
}

for (const method of ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] satisfies LogMethod[]) {
  Object.defineProperty(LazyRequestLogger.prototype, method, {
    value(this: LazyRequestLogger, ...args: unknown[]) {
      (this.real[method] as (...a: unknown[]) => void)(...args);
    },
  });
}

/** Fastify's `childLoggerFactory` option. */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
