/**
 * Progress of a long command, drawn by cli-progress. On a terminal: a bar over
 * the file's bytes with the records so far, the rate and the ETA, redrawn in
 * place. Elsewhere (a pipe, a log file): a plain line every `intervalMs`, and one
 * at the end, so logs of a pipeline stay readable.
 *
 * The ETA is a moving estimate over the last ETA_SAMPLES samples (createEta).
 * Samples are taken at most every SAMPLE_MS, so the estimate averages the last
 * ETA_SAMPLES × SAMPLE_MS (10 s) of progress instead of jumping with each batch.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  /** `replayed`: records whose outcomes an earlier run recorded (a resumed import), so far. */
  update(records: number, bytesRead: number, replayed?: number): void;
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

function eta(seconds: number | undefined, options: cliProgress.Options): string {
  return seconds === undefined ? '…' : cliProgress.Format.TimeFormat(Math.round(seconds), options, 1);
}

export interface EtaEstimate {
  /** A sample: the time (ms), the bytes read so far and the records replayed so far. */
  sample(at: number, bytes: number, replayed: number): void;
  /** Seconds left at the rate of the last samples of real work; undefined until two are taken. */
  seconds(): number | undefined;
}

/**
 * The time left to read `total` bytes. A resumed import replays the batches an earlier run
 * committed without writing them, many times faster than it writes: the bytes read while it
 * replays (until the last sample whose replayed count grew) are left out of the rate, which is
 * measured over the last `window` samples of real work only.
 */
export function createEta(total: number, window = ETA_SAMPLES): EtaEstimate {
  let samples: { at: number; bytes: number }[] = [];
  let lastReplayed = 0;
  return {
    sample(at, bytes, replayed) {
      // Replay went on up to here: real work is measured from this sample on.
      if (replayed !== lastReplayed) samples = [];
      lastReplayed = replayed;
      samples.push({ at, bytes });
      if (samples.length > window + 1) samples.shift();
    },
    seconds() {
      const first = samples[0];
      const last = samples.at(-1);
      if (first === undefined || last === undefined || last.at <= first.at || last.bytes <= first.bytes) return undefined;
      const rate = (last.bytes - first.bytes) / ((last.at - first.at) / 1000);
      return Math.max(total - last.bytes, 0) / rate;
    },
  };
}

/** `clock` is for tests; it defaults to Date.now. */
export function createProgress(stream: NodeJS.WriteStream, totalBytes: number, label: string, intervalMs = 5000, clock: () => number = Date.now): Progress {
  const interactive = stream.isTTY === true;
  const format: cliProgress.GenericFormatter = (options, params, payload: Payload) => {
    const percent = `${Math.floor(params.progress * 100)}%`;
    const left = params.value >= params.total ? 'done' : `ETA ${eta(estimate.seconds(), options)}`;
    const numbers = `${count(payload.records)} records | ${count(payload.rate)}/s | ${left}`;
    return interactive
      ? `${label} ${cliProgress.Format.BarFormat(params.progress, options)} ${percent.padStart(4)} | ${numbers}`
      : `${label}: ${percent} of the file | ${numbers}`;
  };
  const bar = new cliProgress.SingleBar(
    { stream, format, noTTYOutput: true, notTTYSchedule: intervalMs, fps: 10, barsize: 30, autopaddingChar: '0', clearOnComplete: !interactive },
    cliProgress.Presets.shades_classic,
  );
  const started = clock();
  const estimate = createEta(Math.max(totalBytes, 1));
  let lastSample = -Infinity;
  let latest = { records: 0, bytesRead: 0 };
  // An empty file is read as soon as it is opened.
  const draw = () =>
    bar.update(totalBytes === 0 ? 1 : Math.min(latest.bytesRead, totalBytes), { records: latest.records, rate: latest.records / Math.max((clock() - started) / 1000, 0.001) } satisfies Payload);
  bar.start(Math.max(totalBytes, 1), 0, { records: 0, rate: 0 } satisfies Payload);
  return {
    update(records, bytesRead, replayed = 0) {
      latest = { records, bytesRead };
      const now = clock();
      if (now - lastSample < SAMPLE_MS) return;
      lastSample = now;
      estimate.sample(now, bytesRead, replayed);
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
