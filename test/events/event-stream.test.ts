/**
 * One SSE subscriber's stream (src/events/event-stream.ts): a live batch goes
 * out as one chunk, shared by every subscriber; a stream that already holds
 * part of the batch takes only the events after its position, never one twice.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { it } from 'node:test';
import { createEventStream, eventFrame, type FrameBatch } from '../../src/events/event-stream.js';

/** The response's part the stream uses: its unsent bytes, its close event, destroy. */
function fakeResponse(): ServerResponse {
  return Object.assign(new EventEmitter(), { writableLength: 0, destroy() {} }) as unknown as ServerResponse;
}

function batchOf(positions: number[]): FrameBatch {
  const frames = positions.map((position) => ({ position, frame: eventFrame(position, `{"n":${position}}`) }));
  return { frames, bytes: Buffer.from(frames.map(({ frame }) => frame).join('')) };
}

/** Everything the stream has pushed so far, one entry per chunk, after the leading `retry:` line. */
function chunks(body: NodeJS.ReadableStream & { read(): Buffer | null }): string[] {
  const out: string[] = [];
  for (let chunk = body.read(); chunk !== null; chunk = body.read()) out.push(chunk.toString());
  return out;
}

it('a batch after the stream\'s position is pushed whole, as the one shared buffer, and moves the position to its last event', () => {
  const stream = createEventStream(2, 1 << 20, fakeResponse(), () => {});
  stream.body.pause();
  const batch = batchOf([3, 4, 5]);
  assert.equal(stream.sendBatch(batch), true);
  assert.equal(stream.position, 5);
  const pushed = (stream.body as unknown as { readableBuffer: Iterable<Buffer> }).readableBuffer;
  const last = [...pushed].at(-1);
  assert.equal(last, batch.bytes, 'the batch\'s own buffer, not a copy');
  assert.deepEqual(chunks(stream.body as never).join(''), `retry: 1000\n\n${batch.bytes.toString()}`);
});

it('a stream already inside the batch takes only the events after its position', () => {
  const stream = createEventStream(4, 1 << 20, fakeResponse(), () => {});
  stream.body.pause();
  assert.equal(stream.sendBatch(batchOf([3, 4, 5, 6])), true);
  assert.equal(stream.position, 6);
  assert.equal(chunks(stream.body as never).join(''), `retry: 1000\n\n${eventFrame(5, '{"n":5}')}${eventFrame(6, '{"n":6}')}`);
  assert.equal(stream.sendBatch(batchOf([5, 6])), true, 'a batch it has whole is skipped');
  assert.deepEqual(chunks(stream.body as never), []);
});

it('a closed stream takes nothing', () => {
  const stream = createEventStream(0, 1 << 20, fakeResponse(), () => {});
  stream.end('stopping');
  assert.equal(stream.sendBatch(batchOf([1])), false);
  assert.equal(stream.position, 0);
});
