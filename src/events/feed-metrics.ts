/**
 * Metrics of the change feed (docs/events.md): events appended by this
 * instance's writes, the feed's latest position, event-stream subscribers and
 * why their streams ended, events deleted by retention, and, when a relay
 * publishes the feed, how far behind it is in positions and in seconds.
 * Positions and lag are read from the store when scraped.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { EventLog } from './event-log.js';
import type { EndReason } from './event-stream.js';

export interface FeedMetrics {
  appended: Counter<'type'>;
  retained: Counter;
  streamEnded: (reason: EndReason) => void;
}

export interface FeedMetricsOptions {
  registry: Registry;
  events: EventLog;
  /** Live subscribers of this instance, read when scraped. */
  subscribers: () => number;
  /** The relay publishing the feed, when one is configured. */
  relayName?: string;
}

export function createFeedMetrics({ registry, events, subscribers, relayName }: FeedMetricsOptions): FeedMetrics {
  const registers = [registry];
  new Gauge({
    name: 'user_events_latest_position',
    help: 'The highest change-feed position readable (the same on every instance sharing the store)',
    registers,
    async collect() {
      this.set(await events.latest());
    },
  });
  new Gauge({
    name: 'user_events_subscribers',
    help: 'Server-Sent Events streams this instance serves',
    registers,
    collect() {
      this.set(subscribers());
    },
  });
  const ended = new Counter({ name: 'user_events_streams_ended_total', help: 'Event streams ended, by reason (too-slow: cut off for falling behind)', labelNames: ['reason'], registers });
  if (relayName !== undefined) {
    new Gauge({
      name: 'user_events_relay_lag_positions',
      help: 'Events the relay has not published yet',
      registers,
      async collect() {
        this.set(Math.max(0, (await events.latest()) - (await events.relayPosition(relayName))));
      },
    });
    new Gauge({
      name: 'user_events_relay_lag_seconds',
      help: 'Age of the oldest event the relay has not published yet (0 when it is caught up)',
      registers,
      async collect() {
        const { events: next } = await events.read(await events.relayPosition(relayName), 1);
        const oldest = next[0];
        this.set(oldest === undefined ? 0 : Math.max(0, (Date.now() - Date.parse(oldest.time)) / 1000));
      },
    });
  }
  return {
    appended: new Counter({ name: 'user_events_appended_total', help: "Change events appended by this instance's writes, by type", labelNames: ['type'], registers }),
    retained: new Counter({ name: 'user_events_deleted_total', help: 'Change events deleted by retention on this instance', registers }),
    streamEnded: (reason) => ended.inc({ reason }),
  };
}
