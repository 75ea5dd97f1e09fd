/**
 * A consumer of the change feed over Server-Sent Events that lives through
 * failovers and restarts as a client should: whenever its stream ends or cannot be
 * opened, it opens another on the next instance with `Last-Event-ID` set to the
 * last position it received. It keeps every position it received, in order.
 */
import { openEventStream, type SseConnection } from './sse-client.js';

export interface FeedFollower {
  /** Every position received, in the order received. */
  readonly positions: number[];
  /** Streams opened (the first and every reconnection). */
  connections(): number;
  /** Resolves once a position at or above `position` arrived. */
  waitFor(position: number, signal?: AbortSignal): Promise<void>;
  /** Drops the stream now, as a client whose connection broke: it reconnects with Last-Event-ID. */
  drop(): void;
  close(): Promise<void>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function followFeed(baseUrls: () => readonly string[]): FeedFollower {
  const positions: number[] = [];
  let opened = 0;
  let closed = false;
  let current: SseConnection | undefined;

  const loop = (async () => {
    for (let turn = 0; !closed; turn++) {
      const urls = baseUrls();
      // From the feed's start, then after the last position received.
      const last = positions.at(-1) ?? 0;
      try {
        current = await openEventStream(urls[turn % urls.length] as string, '/events', { 'last-event-id': String(last) });
      } catch {
        await pause(100);
        continue;
      }
      if (current.status !== 200) {
        current.close();
        await pause(100);
        continue;
      }
      opened++;
      let seen = 0;
      const copy = () => {
        for (; seen < current!.events.length; seen++) positions.push((current!.events[seen] as { id: number }).id);
      };
      const ticker = setInterval(copy, 20);
      await current.ended;
      clearInterval(ticker);
      copy();
    }
  })();

  return {
    positions,
    connections: () => opened,
    async waitFor(position, signal) {
      while ((positions.at(-1) ?? 0) < position) {
        signal?.throwIfAborted();
        await pause(20);
      }
    },
    drop: () => current?.close(),
    async close() {
      closed = true;
      current?.close();
      await loop;
    },
  };
}
