/**
 * The log lines an in-process app writes, captured as text and as records, so
 * a test can assert what was (and was not) logged at any level.
 */
import { Writable } from 'node:stream';

export interface LogCapture {
  stream: Writable;
  /** Every line written so far, as written. */
  text(): string;
  /** The lines that are JSON records. */
  records(): Array<Record<string, any>>;
  /** Forgets what was captured so far. */
  clear(): void;
}

export function captureLogs(): LogCapture {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      text += chunk.toString();
      callback();
    },
  });
  return {
    stream,
    text: () => text,
    records: () =>
      text.split('\n').flatMap((line) => {
        try {
          return line === '' ? [] : [JSON.parse(line) as Record<string, any>];
        } catch {
          return [];
        }
      }),
    clear() {
      text = '';
    },
  };
}
