/**
 * One Server-Sent Events subscriber: the readable stream Fastify sends as the
 * response body, and the frames written to it.
 *
 * The buffer is bounded. Catching up is pulled, so it waits for the client
 * (`whenWritable`) before each page. Live events are pushed to every
 * subscriber at once, one batch (at most a page of events) at a time; a
 * subscriber that still holds more than `limitBytes` unsent (this stream's
 * buffer and the response's) when the next batch comes is too slow: it is
 * disconnected rather than buffered without bound, so at most `limitBytes`
 * plus one batch ever waits for it. It reconnects with Last-Event-ID and
 * catches up by pulling.
 */
import { Readable } from 'node:stream';
import type { ServerResponse } from 'node:http';
import { isExcluded, type EventOrigin, type OriginExclusion } from './event-origin.js';

/** Why a stream ended, for the metrics and the log. */
export type EndReason = 'client-left' | 'too-slow' | 'stopping' | 'gone' | 'failed';

export interface EventStream {
  /** The response body. */
  readonly body: Readable;
  /** The position of the last event written (what the client will resume after). */
  position: number;
  /** Whether the stream still runs. */
  readonly open: boolean;
  /**
   * Writes one event frame, unless the stream is already at or past its position
   * (then it is skipped: never twice) or the stream leaves out events of its origin
   * (then only its position is passed). False when the stream is closed.
   */
  send(position: number, frame: string, origin?: EventOrigin): boolean;
  /**
   * Writes a batch of consecutive frames rendered once for every subscriber:
   * one chunk for the stream however many events it holds. A stream already at
   * or past the batch's first position takes the frames one by one instead
   * (skipping what it has). False when the stream is closed.
   */
  sendBatch(batch: FrameBatch): boolean;
  /** Whether more than the limit waits to be sent: the client is not keeping up. */
  readonly behind: boolean;
  /** Writes a comment line, which keeps proxies and clients from timing the stream out. */
  heartbeat(): void;
  /** Resolves when the buffer is below half the limit, or the stream ended. */
  whenWritable(): Promise<void>;
  /** Ends the stream; `onEnd` hears the reason once. */
  end(reason: EndReason): void;
}

/** One event's frame, with the event's origin (for streams that leave some out). */
export interface Frame {
  position: number;
  frame: string;
  origin?: EventOrigin;
}

/** Consecutive frames, and the same frames as one buffer shared by every subscriber that takes them whole. */
export interface FrameBatch {
  frames: readonly Frame[];
  bytes: Buffer;
}

/** The SSE frame of one event: its position as the id, the CloudEvent (one JSON line) as data. */
export const eventFrame = (position: number, json: string) => `id: ${position}\ndata: ${json}\n\n`;

/** Sent first: how long a client waits before reconnecting (SSE `retry`, in ms). */
const RETRY_MS = 1000;

/** `exclusion`: the origin whose events this stream leaves out (`exclude_origin`). */
export function createEventStream(after: number, limitBytes: number, response: ServerResponse, onEnd: (reason: EndReason) => void, exclusion?: OriginExclusion): EventStream {
  let open = true;
  let waiting: (() => void) | undefined;
  const body = new Readable({
    read() {
      // The response took data: a catch-up waiting for room may go on.
      if (waiting && backlog() < limitBytes / 2) wake();
    },
  });
  const backlog = () => body.readableLength + response.writableLength;
  const wake = () => {
    const resolve = waiting;
    waiting = undefined;
    resolve?.();
  };
  const stream: EventStream = {
    body,
    position: after,
    get open() {
      return open;
    },
    get behind() {
      return backlog() > limitBytes;
    },
    send(position, frame, origin) {
      if (!open) return false;
      if (position <= stream.position) return true;
      if (!isExcluded(origin, exclusion)) body.push(frame);
      stream.position = position;
      return true;
    },
    sendBatch({ frames, bytes }) {
      if (!open) return false;
      const first = frames[0];
      if (first === undefined) return true;
      if (stream.position >= first.position || exclusion !== undefined) return frames.every(({ position, frame, origin }) => stream.send(position, frame, origin));
      body.push(bytes);
      stream.position = frames[frames.length - 1]!.position;
      return true;
    },
    heartbeat() {
      if (open && backlog() < limitBytes) body.push(': heartbeat\n\n');
    },
    whenWritable() {
      if (!open || backlog() < limitBytes / 2) return Promise.resolve();
      return new Promise<void>((resolve) => {
        waiting = resolve;
      });
    },
    end(reason) {
      if (!open) return;
      open = false;
      wake();
      if (reason === 'too-slow' || reason === 'failed') {
        // What is buffered would only arrive late: cut the connection; the client resumes from what it has.
        body.destroy();
        response.destroy();
      } else {
        body.push(null);
      }
      onEnd(reason);
    },
  };
  body.push(`retry: ${RETRY_MS}\n\n`);
  // The client went away (or the connection was cut): stop feeding it.
  response.once('close', () => stream.end('client-left'));
  return stream;
}
