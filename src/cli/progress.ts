/**
 * Progress of a long command: on a terminal, one line redrawn in place with the
 * count, the rate and the ETA; otherwise a plain line every few seconds, so logs
 * of a pipeline stay readable.
 */
export interface Progress {
  update(done: number, bytesRead: number): void;
  finish(): void;
}

export function createProgress(stream: NodeJS.WriteStream, totalBytes: number, label: string, intervalMs = 5000): Progress {
  const started = Date.now();
  let last = 0;
  const line = (done: number, bytesRead: number) => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    const rate = Math.round(done / seconds);
    const fraction = totalBytes > 0 ? Math.min(bytesRead / totalBytes, 1) : 0;
    const eta = fraction > 0 ? Math.round((seconds / fraction) * (1 - fraction)) : undefined;
    return `${label}: ${done} records, ${rate}/s, ${Math.round(fraction * 100)}%${eta === undefined ? '' : `, ETA ${eta}s`}`;
  };
  const interactive = stream.isTTY === true;
  return {
    update(done, bytesRead) {
      const now = Date.now();
      if (now - last < (interactive ? 100 : intervalMs)) return;
      last = now;
      stream.write(interactive ? `\r\x1b[2K${line(done, bytesRead)}` : `${line(done, bytesRead)}\n`);
    },
    finish() {
      if (interactive) stream.write('\r\x1b[2K');
    },
  };
}
