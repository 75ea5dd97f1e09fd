/**
 * Publishes the change feed to NATS JetStream (CONTRACT §11, EVENTS_NATS_URL):
 * every event, in position order, the position as the message id, one relay at
 * a time across every instance sharing the store.
 *
 * Guarantees, and how they hold:
 * - One publisher: only the holder of the store's 'nats' leadership publishes
 *   (a PostgreSQL advisory lock, or a SQLite lease); a leader that dies loses it.
 * - In order, no gaps, none twice: each message expects the stream's last
 *   message id to be the previous position (`expect.lastMsgID`), so JetStream
 *   refuses a message out of order whoever sends it; the id is the position, so
 *   a resend inside the stream's duplicate window is dropped as a duplicate.
 *   After any refusal or failure the relay reads where the stream stands and
 *   goes on from there. A stream an operator purged holds no message to read
 *   a position from: the relay goes on after the position it recorded as
 *   published, and the stream numbers the new messages after the purged ones.
 * - Nothing lost to retention: the relay records how far it published, and
 *   retention never deletes past it (retention.ts).
 * - An outage of NATS stops nothing else: writes and the HTTP feed go on; the
 *   relay retries, and the lag shows in user_events_relay_lag_* metrics.
 * - Erasure (docs/security.md, "Erasure"): each user's events go on a subject of
 *   their own (`<prefix>.<type>.<uid>`); before it publishes a `user.deleted`, the
 *   relay purges that user's earlier messages from the stream (once they are all
 *   stored), so the stream holds no personal data of a deleted user once the
 *   relay has published the deletion. A relay that stops between the purge and
 *   the publish purges again when it publishes the deletion after restarting.
 * - Origin: each message carries its event's origin (event-origin.ts) as the
 *   headers Origin-Interface, Origin-Credential and Origin-Client, percent-encoded.
 */
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { JetStreamApiError, jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsRelayConfig } from '../config.js';
import { CLOUDEVENTS_JSON } from './cloud-event.js';
import type { EventLog, StoredEvent } from './event-log.js';
import type { EventOrigin } from './event-origin.js';
import type { Leadership } from './leadership.js';

export interface NatsRelayOptions {
  events: EventLog;
  leadership: Leadership;
  nats: NatsRelayConfig;
  /** The relay's name in the store (its recorded position). */
  name: string;
  render: (event: StoredEvent) => string;
  /** Hears failures (NATS down, a refused message); the relay retries at its next turn. */
  onError: (error: unknown) => void;
  /** How often a follower asks for leadership, and a leader retries after a failure (ms). */
  retryMs?: number;
}

export interface NatsRelay {
  /** Stops publishing, gives up leadership and closes the connection. */
  stop(): Promise<void>;
}

interface Session {
  connection: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  /** How far the feed has been published (or skipped, when retention deleted events first). */
  after: number;
  /** The stream's last message id (a position); undefined while the stream holds none. */
  lastId: number | undefined;
  /**
   * While the stream holds no message: its last sequence number, which the first message
   * expects (0 for a new stream; a purged one goes on numbering after its purged messages).
   */
  emptyAfter: number;
}

/** Events read per page, and published before the relay records its position. */
const PAGE = 500;
/** Messages in flight at once: sent in order on one connection, each expecting the one before. */
const WINDOW = 64;
const MSG_ID = 'Nats-Msg-Id';

/** The subject of one event: the prefix, its type, then its user's uid (`users.events.user.created.<uid>`). */
export const subjectOf = (prefix: string, event: Pick<StoredEvent, 'type' | 'subject'>) => `${prefix}.${event.type}.${event.subject}`;

/** Every subject of one user's events (the purge filter of its erasure). */
export const userSubjects = (prefix: string, uid: string) => `${prefix}.*.*.${uid}`;

/** The headers of one message: its content type and its event's origin. */
function messageHeaders(origin: EventOrigin | undefined) {
  const h = headers();
  h.set('Content-Type', CLOUDEVENTS_JSON);
  if (origin !== undefined) {
    h.set('Origin-Interface', origin.interface);
    if (origin.credential !== undefined) h.set('Origin-Credential', encodeURIComponent(origin.credential));
    if (origin.client !== undefined) h.set('Origin-Client', encodeURIComponent(origin.client));
  }
  return h;
}

/** The relay's name in the store: its recorded position, its leadership. */
export const RELAY_NAME = 'nats';

export function startNatsRelay({ events, leadership, nats, name, render, onError, retryMs = 1000 }: NatsRelayOptions): NatsRelay {
  let stopped = false;
  /**
   * While this process leads and nothing failed: the connection, and where the
   * stream stands, read from the stream once when the session starts and then
   * kept as the relay publishes. Dropped on any failure or loss of leadership,
   * so the next session reads the stream again.
   */
  let session: Session | undefined;
  let wake: (() => void) | undefined;
  // After a failure the relay waits out `retryMs`; new events do not hurry it.
  let backingOff = false;
  const unwatch = events.watch(() => {
    if (!backingOff) wake?.();
  });

  async function disconnect(): Promise<void> {
    const closing = session?.connection;
    session = undefined;
    await closing?.close().catch(() => {});
  }

  /**
   * Where the stream stands: the position of its last message (its id), or, when it holds
   * none or its last one was purged (new, purged by an operator, or an erasure), its last sequence number.
   */
  async function streamPosition(jsm: JetStreamManager): Promise<{ lastId: number } | { lastId: undefined; emptyAfter: number }> {
    const info = await jsm.streams.info(nats.stream).catch((error: unknown) => {
      if (error instanceof JetStreamApiError && error.code === 10059) return undefined;
      throw error;
    });
    if (info === undefined) {
      await jsm.streams.add({ name: nats.stream, subjects: [`${nats.subjectPrefix}.>`] });
      return { lastId: undefined, emptyAfter: 0 };
    }
    if (info.state.messages === 0) return { lastId: undefined, emptyAfter: info.state.last_seq };
    const last = await jsm.streams.getMessage(nats.stream, { seq: info.state.last_seq });
    // The last message was purged (an erasure purges just before publishing the deletion, which the relay
    // recorded how far it had published): as for an emptied stream, go on from the record.
    if (last === undefined || last === null) return { lastId: undefined, emptyAfter: info.state.last_seq };
    const id = last?.header.get(MSG_ID);
    if (!id || !/^[0-9]+$/.test(id)) throw new Error(`stream ${nats.stream}'s last message has no position as its ${MSG_ID}; is the stream shared with another publisher?`);
    return { lastId: Number(id) };
  }

  /** Connects, makes the stream when missing, and reads where it stands. */
  async function startSession(): Promise<Session> {
    const connection = await connect({ servers: nats.servers, name: 'user-service change-feed relay', maxReconnectAttempts: 0 });
    try {
      const jsm = await jetstreamManager(connection);
      const stored = await streamPosition(jsm);
      const js = jetstream(connection);
      // The stream is the truth; a new or emptied (purged) stream starts after what was recorded as published.
      if (stored.lastId !== undefined) return { connection, js, jsm, after: stored.lastId, lastId: stored.lastId, emptyAfter: 0 };
      return { connection, js, jsm, after: await events.relayPosition(name), lastId: undefined, emptyAfter: stored.emptyAfter };
    } catch (error) {
      await connection.close().catch(() => {});
      throw error;
    }
  }

  /** Publishes everything readable after where the stream stands, while this process leads. */
  async function publishAll(): Promise<void> {
    const current = (session ??= await startSession());
    const { js, jsm } = current;
    // `after`: how far the feed has been read; `lastId`: the stream's last message id (what the next message expects).
    let { after, lastId } = current;
    while (!stopped) {
      if (!leadership.isLeader()) return disconnect();
      const page = await events.read(after, PAGE);
      if (page.prunedThrough > after) {
        onError(new Error(`change feed relay: events ${after + 1}–${page.prunedThrough} were deleted before they were published; going on after them`));
        after = page.prunedThrough;
      }
      for (let i = 0; i < page.events.length; i += WINDOW) {
        if (stopped) return;
        if (!leadership.isLeader()) return disconnect();
        const acks: Promise<unknown>[] = [];
        for (const event of page.events.slice(i, i + WINDOW)) {
          if (event.type === 'user.deleted') {
            // The user's earlier messages are stored before they are purged, and how far the relay got is
            // recorded: should the purge take the stream's last message and the relay stop before the
            // deletion is published, the next session goes on from the record (streamPosition).
            await Promise.all(acks.splice(0));
            Object.assign(current, { after, lastId });
            await events.setRelayPosition(name, after);
            await jsm.streams.purge(nats.stream, { filter: userSubjects(nats.subjectPrefix, event.subject) });
          }
          const expect = lastId === undefined ? { lastSequence: current.emptyAfter } : { lastMsgID: String(lastId) };
          acks.push(js.publish(subjectOf(nats.subjectPrefix, event), render(event), { msgID: String(event.position), expect, headers: messageHeaders(event.origin) }));
          lastId = after = event.position;
        }
        // A refusal fails this one and every later one in the window: the session is dropped, and the next reads the stream again.
        await Promise.all(acks);
        Object.assign(current, { after, lastId });
      }
      if (page.events.length > 0) await events.setRelayPosition(name, after);
      if (page.events.length < PAGE) return;
    }
  }

  async function run(): Promise<void> {
    while (!stopped) {
      let failed = false;
      try {
        if (await leadership.tryAcquire()) await publishAll();
        else await disconnect();
      } catch (error) {
        if (!stopped) onError(error);
        failed = true;
        await disconnect();
      }
      if (stopped) break;
      // New events wake a leader at once; otherwise (and after a failure) wait a while.
      backingOff = failed;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, retryMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  }

  const running = run();
  return {
    async stop() {
      stopped = true;
      unwatch();
      wake?.();
      await running;
      await disconnect();
      await leadership.release().catch(() => {});
    },
  };
}
