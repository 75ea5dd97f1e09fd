/** Import progress: a cli-progress bar on a terminal, plain lines elsewhere. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createProgress } from '../../src/cli/progress.js';

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
});
