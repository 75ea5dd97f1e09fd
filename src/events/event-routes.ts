/**
 * GET /events (CONTRACT §11): the change feed as a JSON page, or, with
 * `Accept: text/event-stream`, as a live Server-Sent Events stream. Both start
 * after a position; one that retention has passed (or that is ahead of the
 * feed) is a 410 telling the consumer to resync from a listing.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { EventsConfig } from '../config.js';
import { ProblemError } from '../http/problems.js';
import { wellFormedQuery } from '../http/query-string.js';
import { assertLinkable, linkQuery } from '../http/link-query.js';
import type { EventLog, EventPage, StoredEvent } from './event-log.js';
import { isExcluded, parseOriginExclusion } from './event-origin.js';
import type { EventHub } from './event-hub.js';
import { EVENTS_LIMIT_DEFAULT, eventsSchema, FEED_POSITION, LAST_EVENT_ID } from './event-schemas.js';
import { createEventStream, type EndReason, type EventStream } from './event-stream.js';

export interface EventRoutesOptions {
  events: EventLog;
  hub: EventHub;
  render: (event: StoredEvent) => string;
  config: EventsConfig;
  /** Hears every stream's end, for the metrics. */
  onStreamEnd: (reason: EndReason) => void;
}

/** How long a client refused for the subscriber limit should wait, in seconds. */
const SUBSCRIBER_RETRY_S = 5;

const EVENT_STREAM = 'text/event-stream';

/** A qvalue as RFC 9110 §12.4.2 spells it: 0 to 1, at most three decimals. */
const QVALUE = /^(0(\.[0-9]{0,3})?|1(\.0{0,3})?)$/;

/**
 * The quality the Accept header gives `type` (exactly that type; no wildcards):
 * 0 when absent, or when its q is not a valid qvalue (`q=2`, `q=1e-3`).
 */
function quality(accept: string, type: string): number {
  for (const range of accept.split(',')) {
    const [media, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    if (media !== type) continue;
    const q = params.find((p) => p.startsWith('q='))?.slice(2);
    if (q === undefined) return 1;
    return QVALUE.test(q) ? Number(q) : 0;
  }
  return 0;
}

/** A stream when Accept prefers text/event-stream to JSON; HEAD never streams (it would never end). */
function wantsStream(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (request.method !== 'GET' || accept === undefined) return false;
  const stream = quality(accept, EVENT_STREAM);
  return stream > 0 && stream > quality(accept, 'application/json');
}

/** Last-Event-ID, as a position: the SSE reconnect names the last event it received. */
function lastEventId(request: FastifyRequest): number | undefined {
  const header = request.headers['last-event-id'];
  if (header === undefined) return undefined;
  // Only HTTP's own whitespace (space, tab) around the value; String.prototype.trim would also take U+00A0 and others.
  const value = typeof header === 'string' ? header.replace(/^[ \t]+|[ \t]+$/g, '') : undefined;
  if (value === undefined || !/^(0|[1-9][0-9]{0,14})$/.test(value)) {
    throw new ProblemError('malformed-request', 'Last-Event-ID must be the id of an event: a position in plain decimal.');
  }
  return Number(value);
}

/** 410 when the events after `after` are no longer all there, or `after` is beyond the feed. */
function assertAvailable(after: number, page: EventPage): void {
  if (after < page.prunedThrough) {
    throw new ProblemError(
      'events-gone',
      `The events after position ${after} were deleted by retention (through position ${page.prunedThrough}). Resync: list the users, then follow after the listing's Feed-Position.`,
    );
  }
  const gap = page.restoreGaps?.find((g) => after > g.after && after < g.through);
  if (gap !== undefined) {
    throw new ProblemError(
      'events-gone',
      `Position ${after} was given before the store was restored from a snapshot at position ${gap.after}; the restored feed continues from there with other events. Resync: list the users, then follow after the listing's Feed-Position.`,
    );
  }
  if (after > page.latest) {
    throw new ProblemError(
      'events-gone',
      `Position ${after} is ahead of this feed (latest ${page.latest}): the store was restored or replaced. Resync: list the users, then follow after the listing's Feed-Position.`,
    );
  }
}

export const eventRoutes: FastifyPluginAsyncTypebox<EventRoutesOptions> = async (app, { events, hub, render, config, onStreamEnd }) => {
  /** Streams admitted under the subscriber limit that are not yet in the hub (their first read is running). */
  let opening = 0;
  app.get('/events', { config: { access: 'users:read', requestHeaders: LAST_EVENT_ID }, schema: eventsSchema, preValidation: wellFormedQuery(['after', 'limit']) }, async (request, reply) => {
    reply.header('vary', 'accept');
    const exclusion = parseOriginExclusion(request.query.exclude_origin);
    if (wantsStream(request)) {
      if (request.query.subject !== undefined) throw new ProblemError('malformed-request', 'subject selects a page of one user\'s events; a stream follows every user. Read the history as JSON pages.');
      const after = lastEventId(request) ?? request.query.after ?? 0;
      // The slot is taken before the first await and given back on every path: streams still
      // opening count against the limit, so any number of concurrent opens admits at most the limit.
      if (hub.size + opening >= config.maxSubscribers) {
        throw new ProblemError('subscriber-limit', `This instance serves ${config.maxSubscribers} event streams already; retry shortly or poll GET /events.`, {}, { 'retry-after': String(SUBSCRIBER_RETRY_S) });
      }
      opening++;
      let start: EventPage;
      let stream: EventStream;
      try {
        start = await events.read(after, 1);
        assertAvailable(after, start);
        stream = createEventStream(after, config.subscriberBufferBytes, reply.raw, onStreamEnd, exclusion);
        // follow() counts the stream in hub.size before it returns: the slot passes to it in this step.
        void hub.follow(stream);
      } finally {
        opening--;
      }
      // Proxies that buffer responses (nginx) pass this one through as it is written.
      return reply.header(FEED_POSITION, String(start.latest)).header('content-type', EVENT_STREAM).header('cache-control', 'no-store').header('x-accel-buffering', 'no').send(stream.body);
    }
    assertLinkable(request.query);
    const after = request.query.after ?? 0;
    const limit = request.query.limit ?? EVENTS_LIMIT_DEFAULT;
    // A uid is lower-case; the schema admits either case, and both stores must answer alike.
    const subject = request.query.subject?.toLowerCase();
    const page = await events.read(after, limit, subject);
    assertAvailable(after, page);
    // One user's page that is not full has read every event up to `latest`: the next starts there.
    const last = subject !== undefined && page.events.length < limit ? page.latest : (page.events[page.events.length - 1]?.position ?? after);
    const shown = exclusion === undefined ? page.events : page.events.filter((event) => !isExcluded(event.origin, exclusion));
    // The next page starts after the last event read (shown or left out): always sent, so a poller just follows it. It keeps the page's filters.
    return reply
      .header('link', `<${app.publishedUrl(`/events?${linkQuery({ after: last, limit, exclude_origin: request.query.exclude_origin, subject })}`)}>; rel="next"`)
      .header(FEED_POSITION, String(page.latest))
      .header('cache-control', 'no-cache')
      .type('application/json; charset=utf-8')
      .send(`[${shown.map(render).join(',')}]`);
  });
};
