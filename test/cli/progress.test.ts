import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createProgress } from '../../src/cli/progress.js';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (text: string) => writes.push(text) } as unknown as NodeJS.WriteStream };
}

describe('import progress', () => {
  it('on a terminal redraws one line with count, rate, percentage and ETA', async () => {
    const { writes, stream } = fakeStream(true);
    const progress = createProgress(stream, 1000, 'import');
    await new Promise((resolve) => setTimeout(resolve, 120));
    progress.update(50, 250);
    progress.finish();
    assert.match(writes[0]!, /^\r\x1b\[2Kimport: 50 records, \d+\/s, 25%, ETA \d+s$/);
    assert.equal(writes.at(-1), '\r\x1b[2K');
  });

  it('elsewhere writes plain lines, at most one per interval', async () => {
    const { writes, stream } = fakeStream(false);
    const progress = createProgress(stream, 1000, 'import', 50);
    await new Promise((resolve) => setTimeout(resolve, 60));
    progress.update(10, 100);
    progress.update(11, 110);
    progress.finish();
    assert.equal(writes.length, 1);
    assert.match(writes[0]!, /^import: 10 records, \d+\/s, 10%, ETA \d+s\n$/);
  });
});
