/**
 * Progress of a long command, drawn by cli-progress. On a terminal: a bar over
 * the file's bytes with the records so far, the rate and the ETA, redrawn in
 * place. Elsewhere (a pipe, a log file): a plain line every `intervalMs`, and one
 * at the end, so logs of a pipeline stay readable.
 *
 * The ETA is cli-progress's moving estimate over its last ETA_SAMPLES samples.
 * Samples are taken at most every SAMPLE_MS, so the estimate averages the last
 * ETA_SAMPLES × SAMPLE_MS (10 s) of progress instead of jumping with each batch.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  update(records: number, bytesRead: number): void;
  /** Writes a line of its own without breaking the bar (on a terminal: above it). */
  note(line: string): void;
  finish(): void;
}

const SAMPLE_MS = 250;
const ETA_SAMPLES = 40;

interface Payload {
  records: number;
  rate: number;
}

const count = (n: number) => Math.round(n).toLocaleString('en');

function eta(seconds: unknown, options: cliProgress.Options): string {
  return typeof seconds === 'number' ? cliProgress.Format.TimeFormat(seconds, options, 1) : '…';
}

/** `clock` is for tests; it defaults to Date.now. */
export function createProgress(stream: NodeJS.WriteStream, totalBytes: number, label: string, intervalMs = 5000, clock: () => number = Date.now): Progress {
  const interactive = stream.isTTY === true;
  const format: cliProgress.GenericFormatter = (options, params, payload: Payload) => {
    const percent = `${Math.floor(params.progress * 100)}%`;
    const left = params.value >= params.total ? 'done' : `ETA ${eta(params.eta, options)}`;
    const numbers = `${count(payload.records)} records | ${count(payload.rate)}/s | ${left}`;
    return interactive
      ? `${label} ${cliProgress.Format.BarFormat(params.progress, options)} ${percent.padStart(4)} | ${numbers}`
      : `${label}: ${percent} of the file | ${numbers}`;
  };
  const bar = new cliProgress.SingleBar(
    { stream, format, etaBuffer: ETA_SAMPLES, noTTYOutput: true, notTTYSchedule: intervalMs, fps: 10, barsize: 30, autopaddingChar: '0', clearOnComplete: !interactive },
    cliProgress.Presets.shades_classic,
  );
  const started = clock();
  let lastSample = -Infinity;
  let latest = { records: 0, bytesRead: 0 };
  // An empty file is read as soon as it is opened.
  const draw = () =>
    bar.update(totalBytes === 0 ? 1 : Math.min(latest.bytesRead, totalBytes), { records: latest.records, rate: latest.records / Math.max((clock() - started) / 1000, 0.001) } satisfies Payload);
  bar.start(Math.max(totalBytes, 1), 0, { records: 0, rate: 0 } satisfies Payload);
  return {
    update(records, bytesRead) {
      latest = { records, bytesRead };
      const now = clock();
      if (now - lastSample < SAMPLE_MS) return;
      lastSample = now;
      draw();
    },
    note(line) {
      // On a terminal the bar's line is cleared, the note takes it, and the bar is drawn again below.
      stream.write(interactive ? `\r\x1b[2K${line}\n` : `${line}\n`);
      if (interactive) draw();
    },
    /** Draws the latest figures and ends the bar (its line stays; a plain line is written). */
    finish() {
      draw();
      bar.stop();
    },
  };
}
