/**
 * pino's serializer of `err`: what an error log line may say. Errors are logged
 * only when they are the service's own (a 5xx), but an unexpected one may come
 * from a driver whose fields quote the data it was given (PostgreSQL's `detail`:
 * `Key (key, value)=(email_address, alice@example.com) already exists`; a
 * message such as `invalid input syntax for type uuid: "…"`). So only the type,
 * code, message and stack are kept, and text shaped like an email address in
 * them is replaced. This is the backstop; request lines never hold user data in
 * the first place (request-log.ts).
 */
import { stdSerializers } from 'pino';

/** Anything shaped like `local@domain`, as loosely as it could appear quoted in a message. */
const EMAIL_SHAPED = /[^\s@"'`<>()[\]{},;:]+@[^\s@"'`<>()[\]{},;:]+/g;

export function scrubEmails(text: string): string {
  return text.replace(EMAIL_SHAPED, '…@…');
}

export interface LoggedError {
  [field: string]: unknown;
  type: string;
  message: string;
  stack: string;
  code?: string;
  cause?: LoggedError;
}

export function serializeError(error: unknown, depth = 0): LoggedError {
  const standard = stdSerializers.err(error as Error) as { type?: string; message?: string; stack?: string; code?: unknown; cause?: unknown };
  const logged: LoggedError = {
    type: String(standard.type ?? 'Error'),
    message: scrubEmails(String(standard.message ?? '')),
    stack: scrubEmails(String(standard.stack ?? '')),
  };
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' || typeof code === 'number') logged.code = String(code);
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof Error && depth < 3) logged.cause = serializeError(cause, depth + 1);
  return logged;
}

/** An outage's cause as a warning shows it: type, code and message down its causes, no stack. */
export function describeCause(error: unknown): Record<string, unknown> {
  const { stack: _stack, cause, ...rest } = serializeError(error);
  return cause === undefined ? rest : { ...rest, cause: describeCause((error as { cause?: unknown }).cause) };
}
