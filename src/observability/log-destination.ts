/**
 * Where log lines go by default: standard output, written once per turn of the event loop.
 * Lines are appended to a string and written together with one writeSync when the turn ends
 * (setImmediate), or at once past FLUSH_BYTES, and at exit. Under load a turn answers several
 * requests, so their access lines cost one system call; at rest a line is out within a turn.
 *
 * Why not pino's default destination (SonicBoom, asynchronous): on a read by key its write
 * cost 15–18 µs of CPU per line against 2–3 µs here, measured by writing 100,000 access lines
 * in batches of 20 per turn (npm run bench:access-line; docs/performance.md, "What a read by key costs"). A synchronous
 * write can meet a full pipe (EAGAIN, when stdout is a non-blocking pipe): it waits 1 ms and
 * writes the rest, as SonicBoom does, so no line is lost or cut; a reader that has gone
 * (EPIPE) ends logging, as pino does.
 */
import { writeSync } from 'node:fs';

/** Written at once past this many characters waiting, so a long turn holds no unbounded text. */
const FLUSH_BYTES = 64 * 1024;

export interface LogDestination {
  write(line: string): void;
  /** Writes every waiting line now (the stop's last lines, before process.exit). */
  flushSync(): void;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

function writeAll(fd: number, text: string): boolean {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(fd, bytes, at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') Atomics.wait(pause, 0, 0, 1);
      else if (code === 'EPIPE') return false;
      else throw error;
    }
  }
  return true;
}

/** Lines written to the file descriptor `fd` once per turn of the event loop (standard output: stdoutDestination()). */
export function turnBuffered(fd: number): LogDestination {
  let waiting = '';
  let scheduled = false;
  let open = true;
  const flushSync = () => {
    scheduled = false;
    if (waiting === '' || !open) return;
    const text = waiting;
    waiting = '';
    open = writeAll(fd, text);
  };
  process.once('exit', flushSync);
  return {
    write(line) {
      waiting += line;
      if (waiting.length >= FLUSH_BYTES) flushSync();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flushSync);
      }
    },
    flushSync,
  };
}

let stdout: LogDestination | undefined;

/** Standard output's destination, one per process however many apps log to it. */
export function stdoutDestination(): LogDestination {
  return (stdout ??= turnBuffered(1));
}
