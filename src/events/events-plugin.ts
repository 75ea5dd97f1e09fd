/**
 * The change feed as a plugin (CONTRACT §11): one hub per instance feeding the streams, the
 * feed's routes, its metrics (in the metrics plugin's registry; decorated as `feedMetrics`,
 * whose `appended` the store's timing counts), retention and, with NATS_URL, the relay.
 * Streams never end by themselves: they are ended first when the app closes, so a graceful
 * stop waits for nothing.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Registry } from 'prom-client';
import type { EventsSection } from '../config.js';
import { throttledWarning } from '../observability/throttled-warning.js';
import { cloudEventRenderer } from './cloud-event.js';
import { createEventHub } from './event-hub.js';
import { eventRoutes } from './event-routes.js';
import { createFeedMetrics, type FeedMetrics } from './feed-metrics.js';
import { RELAY_NAME, startNatsRelay } from './nats-relay.js';
import { startRetention } from './retention.js';

declare module 'fastify' {
  interface FastifyInstance {
    feedMetrics: FeedMetrics;
  }
}

async function changeFeed(app: FastifyInstance, { config }: { config: EventsSection }): Promise<void> {
  // The feed is read from the store itself: its reads are not the store's timed operations.
  const events = app.userStore.events;
  const render = cloudEventRenderer(config.events.source);
  const hub = createEventHub({ events, render, heartbeatMs: config.events.heartbeatMs, onError: throttledWarning(() => app.log, 'change feed: reading new events failed; retrying') });
  const relayName = config.events.nats ? RELAY_NAME : undefined;
  const registry = app.hasDecorator('metrics') ? app.metrics.registry : new Registry();
  const feedMetrics = createFeedMetrics({ registry, events, subscribers: () => hub.size, ...(relayName ? { relayName } : {}) });
  app.decorate('feedMetrics', feedMetrics);
  await app.register(eventRoutes, { events, hub, render, config: config.events, onStreamEnd: feedMetrics.streamEnded });
  const stopRetention = startRetention({
    events,
    config: config.events,
    ...(relayName ? { relayName } : {}),
    onError: throttledWarning(() => app.log, 'change feed: retention failed; retrying at its next run'),
    onDeleted: (count) => feedMetrics.retained.inc(count),
  });
  const relay = config.events.nats
    ? startNatsRelay({
        events,
        leadership: app.userStore.leadership(RELAY_NAME),
        nats: config.events.nats,
        name: RELAY_NAME,
        render,
        onError: throttledWarning(() => app.log, 'change feed: publishing to NATS failed; retrying'),
      })
    : undefined;
  app.addHook('preClose', async () => {
    stopRetention();
    hub.close();
    await relay?.stop();
  });
}

export default fp(changeFeed, { name: 'change-feed', dependencies: ['request-path', 'openapi'] });
