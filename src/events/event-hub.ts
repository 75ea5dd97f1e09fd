/**
 * The live side of the change feed on one instance: every Server-Sent Events
 * subscriber of this process is fed from here.
 *
 * A subscriber first catches up by pulling pages from the store after its
 * position, at the pace its client reads. Once it reaches what the hub has
 * read, it goes live: the hub reads each new batch of events once (when the
 * store announces a new latest position) and writes it to every live
 * subscriber. Nothing is replayed from memory: a subscriber behind the hub
 * catches up from the store, so an event erased by a delete (store/erasure.ts)
 * is never sent as it was once the delete has committed.
 *
 * Ordering: a subscriber goes live only in the same synchronous step in which
 * it has written everything up to the hub's position, and the hub writes a
 * batch to every live subscriber in one synchronous step too; a stream never
 * writes an event at or below its position. So no event is skipped or written
 * twice at the hand-over.
 */
import type { EventLog, StoredEvent } from './event-log.js';
import { eventFrame, type EventStream, type Frame } from './event-stream.js';

/** Events per page, for catching up and for the hub's own reads. */
const PAGE = 1000;
/**
 * The hub reads (and writes to its live subscribers) at most once per this many
 * ms. Every batch costs a read of the store and one socket write per subscriber,
 * and announcements come faster than anyone needs them: on PostgreSQL every
 * sequencer run of every instance announces, up to 200 times a second each. With
 * 100 subscribers at 1,000 writes/s that work delayed the service's own writes
 * (docs/performance.md, "Change feed"). After a quiet spell a write is read at
 * once; under a steady stream, one read takes everything announced meanwhile,
 * for at most this much more delay.
 */
const LIVE_INTERVAL_MS = 20;

export interface EventHubOptions {
  events: EventLog;
  render: (event: StoredEvent) => string;
  heartbeatMs: number;
  /** Hears problems of the hub's own reads (retried at the next announcement). */
  onError: (error: unknown) => void;
}

export interface EventHub {
  /** Live and catching-up subscribers. */
  readonly size: number;
  /**
   * Feeds `stream` from its position on, until it ends. Never rejects: a failed
   * read ends the stream as 'failed', and events deleted by retention before
   * the stream had them end it as 'gone' (its reconnect is then answered 410).
   */
  follow(stream: EventStream): Promise<void>;
  /** Ends every stream ('stopping') and stops watching the store. */
  close(): void;
}

/** The hub's state while anyone subscribes; made anew after the last one leaves. */
interface Session {
  /** The highest position read and written to every live subscriber. */
  position: number;
  /** The highest position the store announced. */
  announced: number;
  reading: boolean;
  /** When the last read started (ms since the epoch). */
  lastRead: number;
  /** The next read, while it waits for LIVE_INTERVAL_MS to pass. */
  timer: NodeJS.Timeout | undefined;
  /** Set once the last subscriber left: a read still going writes nothing more. */
  stopped: boolean;
  stop: () => void;
}

export function createEventHub({ events, render, heartbeatMs, onError }: EventHubOptions): EventHub {
  const live = new Set<EventStream>();
  const all = new Set<EventStream>();
  let session: Promise<Session> | undefined;

  const frameOf = (event: StoredEvent): Frame => ({ position: event.position, frame: eventFrame(event.position, render(event)), origin: event.origin });

  /** Reads what the store announced beyond the session's position, and writes it to every live subscriber. */
  async function readAhead(s: Session): Promise<void> {
    while (s.announced > s.position && !s.stopped) {
      const page = await events.read(s.position, PAGE);
      if (s.stopped) return;
      if (page.prunedThrough > s.position) {
        // Retention deleted events the live subscribers have not had: they must resync (410 on reconnect).
        for (const stream of [...live]) stream.end('gone');
        s.position = page.prunedThrough;
      }
      if (page.events.length === 0) {
        // Nothing readable beyond: the announcement was at most what this read saw.
        s.position = Math.max(s.position, page.latest);
        s.announced = s.position;
        return;
      }
      const frames = page.events.map(frameOf);
      // Rendered and encoded once: each live subscriber gets the same buffer as one chunk.
      const batch = { frames, bytes: Buffer.from(frames.map(({ frame }) => frame).join('')) };
      for (const stream of [...live]) {
        // Still holding more than its limit from earlier batches: cut off, it resumes by pulling.
        if (stream.behind) stream.end('too-slow');
        else stream.sendBatch(batch);
      }
      s.position = frames[frames.length - 1]!.position;
    }
  }

  function kick(s: Session): void {
    if (s.reading || s.stopped || s.timer !== undefined) return;
    const wait = s.lastRead + LIVE_INTERVAL_MS - Date.now();
    if (wait > 0) {
      s.timer = setTimeout(() => {
        s.timer = undefined;
        kick(s);
      }, wait);
      return;
    }
    s.reading = true;
    s.lastRead = Date.now();
    readAhead(s)
      .catch(onError)
      .finally(() => {
        s.reading = false;
        // Announced while the last page was read, or the read failed: read again, no sooner
        // than LIVE_INTERVAL_MS after this read started (a store that is down is not polled in a loop).
        if (s.announced > s.position) kick(s);
      });
  }

  async function open(): Promise<Session> {
    const s: Session = { position: 0, announced: 0, reading: false, lastRead: -Infinity, timer: undefined, stopped: false, stop: () => {} };
    const unwatch = events.watch((latest) => {
      if (latest > s.announced) s.announced = latest;
      kick(s);
    });
    const heartbeat = setInterval(() => {
      for (const stream of all) stream.heartbeat();
    }, heartbeatMs);
    heartbeat.unref();
    s.stop = () => {
      s.stopped = true;
      clearTimeout(s.timer);
      unwatch();
      clearInterval(heartbeat);
    };
    try {
      s.position = await events.latest();
    } catch (error) {
      s.stop();
      throw error;
    }
    s.announced = Math.max(s.announced, s.position);
    kick(s);
    return s;
  }

  const ended = (stream: EventStream) => {
    live.delete(stream);
    all.delete(stream);
    if (all.size === 0 && session !== undefined) {
      const stopping = session;
      session = undefined;
      void stopping.then((s) => s.stop(), () => {});
    }
  };

  return {
    get size() {
      return all.size;
    },

    async follow(stream) {
      all.add(stream);
      stream.body.once('close', () => ended(stream));
      try {
        const attempt = (session ??= open());
        attempt.catch(() => {
          if (session === attempt) session = undefined;
        });
        const s = await attempt;
        while (stream.open) {
          // Caught up with the hub: live from here, in this same step.
          if (stream.position >= s.position) {
            if (stream.open) live.add(stream);
            return;
          }
          await stream.whenWritable();
          // One page per turn of the event loop: a catch-up from far back (a socket that
          // drains as fast as it is written, a store that answers synchronously) must not
          // hold the loop for the whole backlog.
          await new Promise((resolve) => setImmediate(resolve));
          if (!stream.open) return;
          const page = await events.read(stream.position, PAGE);
          if (page.prunedThrough > stream.position) {
            stream.end('gone');
            return;
          }
          for (const event of page.events) {
            const { position, frame, origin } = frameOf(event);
            if (!stream.send(position, frame, origin)) return;
          }
          // An empty page below the hub's position can only mean pruned events, answered above.
          if (page.events.length === 0 && stream.position < s.position) {
            stream.end('gone');
            return;
          }
        }
      } catch (error) {
        onError(error);
        stream.end('failed');
      } finally {
        if (!stream.open) ended(stream);
      }
    },

    close() {
      for (const stream of [...all]) stream.end('stopping');
      const stopping = session;
      session = undefined;
      void stopping?.then((s) => s.stop(), () => {});
    },
  };
}
