/** Import progress: a cli-progress bar on a terminal, plain lines elsewhere. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEta, createProgress } from '../../src/cli/progress.js';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  const stream = { isTTY, columns: 100, write: (text: string) => (writes.push(text), true) } as unknown as NodeJS.WriteStream;
  return { writes, stream, text: () => writes.join('') };
}

describe('import progress', () => {
  it('on a terminal draws a bar with percentage, records, rate and ETA, redrawn in place, and leaves the final bar on its line', () => {
    const { stream, text } = fakeStream(true);
    const progress = createProgress(stream, 1000, 'import');
    progress.update(50, 250);
    progress.finish();
    const output = text();
    assert.match(output, /\x1b\[/, 'cursor control: the line is redrawn in place');
    assert.match(output, /import [█░]{30}\s+25% \| 50 records \| [\d,]+\/s \| ETA (\S+)/);
    assert.ok(output.endsWith('\n'), 'the final bar stays on its own line');
  });

  it('on a terminal shows "done" once the whole file is read', () => {
    const { stream, text } = fakeStream(true);
    const progress = createProgress(stream, 1000, 'import');
    progress.update(400, 1000);
    progress.finish();
    assert.match(text(), /import █{30} 100% \| 400 records \| [\d,]+\/s \| done/);
  });

  it('elsewhere writes plain lines with no control characters: one at the start and one at the end (and one per interval between)', () => {
    const { stream, writes, text } = fakeStream(false);
    const progress = createProgress(stream, 2000, 'import', 60_000);
    progress.update(10, 100);
    progress.update(11, 2000);
    progress.finish();
    assert.doesNotMatch(text(), /\x1b|\r/);
    const lines = text().split('\n').filter((line) => line !== '');
    assert.equal(lines.length, 2, JSON.stringify(writes));
    assert.match(lines[0]!, /^import: 0% of the file \| 0 records \| 0\/s \| ETA …$/);
    assert.match(lines[1]!, /^import: 100% of the file \| 11 records \| [\d,]+\/s \| done$/);
  });

  it('an empty file finishes at 100 %', () => {
    const { stream, text } = fakeStream(false);
    const progress = createProgress(stream, 0, 'import');
    progress.finish();
    assert.match(text(), /100% of the file \| 0 records \| 0\/s \| done/);
  });

  it('the ETA of a resumed import leaves the replayed part out: the rate is that of the records written', () => {
    // 100 MB; the first 60 MB replayed at 20 MB/s (3 s), the rest written at 1 MB/s.
    const total = 100e6;
    const eta = createEta(total);
    let at = 0;
    let bytes = 0;
    let replayed = 0;
    for (; bytes < 60e6; at += 250, bytes += 5e6, replayed += 5000) eta.sample(at, bytes, replayed);
    for (let i = 0; i < 20; i++, at += 250, bytes += 0.25e6) eta.sample(at, bytes, replayed);
    const left = eta.seconds();
    assert.ok(left !== undefined);
    // 35 MB left at 1 MB/s; a rate over the whole run (replay included) would say about 4 s.
    assert.ok(Math.abs(left - (total - (bytes - 0.25e6)) / 1e6) < 1, `ETA ${left} s`);
  });

  it('the ETA is unknown until real work has two samples, and follows the last samples of a run that slows down', () => {
    const eta = createEta(1000, 4);
    eta.sample(0, 0, 0);
    assert.equal(eta.seconds(), undefined);
    eta.sample(1000, 100, 100);
    assert.equal(eta.seconds(), undefined, 'replay only: no rate of real work yet');
    eta.sample(2000, 200, 100);
    assert.equal(eta.seconds(), 8, '800 bytes left at 100 B/s');
    for (let at = 3000, bytes = 210; at <= 7000; at += 1000, bytes += 10) eta.sample(at, bytes, 100);
    // The last 4 intervals went at 10 B/s: 750 bytes left.
    assert.equal(eta.seconds(), 75);
  });

  it('on a terminal the bar shows the ETA of real work when told what was replayed', () => {
    const { stream, text } = fakeStream(true);
    let now = 0;
    const progress = createProgress(stream, 1000, 'import', 5000, () => now);
    for (let bytes = 0; bytes <= 500; bytes += 100, now += 1000) progress.update(bytes, bytes, bytes);
    progress.update(510, 510, 500);
    now += 1000;
    progress.update(520, 520, 500);
    progress.finish();
    // 480 bytes left at 10 B/s: 48 s, where the whole run's rate would say about 5 s.
    assert.match(text(), /ETA 48s/);
  });
});

