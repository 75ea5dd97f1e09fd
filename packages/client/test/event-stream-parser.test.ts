/**
 * The client's Server-Sent Events parser against the HTML standard's rules for
 * interpreting an event stream: line ends of every kind, split anywhere between
 * chunks, comments, ids that carry over, retry, and blocks that dispatch nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEventStreamParser, type ServerSentEvent } from '../dist/event-stream-parser.js';

/** Every event of `chunks` fed in order, and every retry value seen. */
function parse(chunks: string[]): { events: ServerSentEvent[]; retries: number[] } {
  const retries: number[] = [];
  const parser = createEventStreamParser((ms) => retries.push(ms));
  return { events: chunks.flatMap((chunk) => parser.feed(chunk)), retries };
}

const STREAM = 'retry: 1000\n\nid: 1\ndata: {"id":"1"}\n\n: heartbeat\n\nid: 2\ndata: {"id":"2"}\n\n';
const EXPECTED = [
  { id: '1', event: 'message', data: '{"id":"1"}' },
  { id: '2', event: 'message', data: '{"id":"2"}' },
];

describe('createEventStreamParser', () => {
  it("parses the service's stream: retry first, events with ids, heartbeat comments", () => {
    assert.deepEqual(parse([STREAM]), { events: EXPECTED, retries: [1000] });
  });

  it('gives the same events however the stream is split into chunks, one character at a time included', () => {
    for (let cut = 1; cut < STREAM.length; cut++) assert.deepEqual(parse([STREAM.slice(0, cut), STREAM.slice(cut)]).events, EXPECTED, `split at ${cut}`);
    assert.deepEqual(parse([...STREAM]).events, EXPECTED);
  });

  it('accepts CRLF, CR and LF line ends, a CRLF split between two chunks counting once', () => {
    for (const end of ['\r\n', '\r', '\n']) assert.deepEqual(parse([STREAM.replaceAll('\n', end)]).events, EXPECTED, JSON.stringify(end));
    assert.deepEqual(parse(['id: 7\r', '\ndata: x\r', '\n\r', '\n']).events, [{ id: '7', event: 'message', data: 'x' }]);
  });

  it('joins data lines with LF, keeps an empty data line, and strips only one space after the colon', () => {
    assert.deepEqual(parse(['data: a\ndata:\ndata:  b\n\n']).events, [{ id: '', event: 'message', data: 'a\n\n b' }]);
    assert.deepEqual(parse(['data\n\n']).events, [{ id: '', event: 'message', data: '' }], 'a field name alone has an empty value');
  });

  it('carries the last id over to later events; an id with NUL is ignored', () => {
    assert.deepEqual(parse(['id: 5\ndata: a\n\ndata: b\n\nid: 6\u0000\ndata: c\n\n']).events.map((e) => e.id), ['5', '5', '5']);
  });

  it('names the event type when given, and dispatches nothing for a block without data or an unfinished block', () => {
    assert.deepEqual(parse(['event: ping\n\nevent: user\ndata: 1\n\ndata: 2\n\ndata: unfinished\n']).events, [
      { id: '', event: 'user', data: '1' },
      { id: '', event: 'message', data: '2' },
    ]);
  });

  it('takes retry only as plain digits, and ignores unknown fields', () => {
    assert.deepEqual(parse(['retry: 15\nretry: 1e3\nretry: -1\nretry: 20 \nfoo: bar\ndata: x\n\n']), { events: [{ id: '', event: 'message', data: 'x' }], retries: [15] });
  });
});
