/**
 * The change feed's section of the configuration (CONTRACT §11, docs/events.md): EVENTS_*.
 */
import { ConfigError, integer, type Env } from './read-env.js';

/** The change feed (CONTRACT §11, docs/events.md). */
export interface EventsConfig {
  /** CloudEvents `source` of every event (a URI-reference). */
  source: string;
  /** Events older than this are deleted; 0 keeps them whatever their age. */
  retentionMs: number;
  /** At most this many of the newest events are kept; 0 for no limit. */
  retentionCount: number;
  /** How often retention runs, in ms. */
  retentionCheckMs: number;
  /** How often an idle Server-Sent Events stream gets a comment line, in ms. */
  heartbeatMs: number;
  /** Most Server-Sent Events streams one instance serves; one more is a 503. */
  maxSubscribers: number;
  /** Bytes a stream may have waiting for a slow subscriber before it is disconnected. */
  subscriberBufferBytes: number;
  /** Publishing to NATS JetStream, when EVENTS_NATS_URL is set. */
  nats?: NatsRelayConfig;
}

export interface NatsRelayConfig {
  /** Server URLs, comma-separated as in EVENTS_NATS_URL (nats://host:port). */
  servers: string[];
  /** The JetStream stream (made when missing, capturing `${subjectPrefix}.>`). */
  stream: string;
  /** Each event is published on `${subjectPrefix}.${type}`, e.g. users.events.user.created. */
  subjectPrefix: string;
}

/** NATS names: a stream name has no spaces, dots, `*`, `>`, slashes; subject tokens are dot-separated and non-empty. */
const STREAM_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const SUBJECT_PREFIX = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

function natsRelayConfig(env: Env): NatsRelayConfig | undefined {
  const raw = env.EVENTS_NATS_URL;
  if (!raw) return undefined;
  const servers = raw.split(',').map((s) => s.trim());
  for (const server of servers) {
    let url: URL;
    try {
      url = new URL(server);
    } catch {
      throw new ConfigError('EVENTS_NATS_URL', `${JSON.stringify(server)} is not a URL (nats://host:port)`);
    }
    if (!['nats:', 'tls:'].includes(url.protocol)) throw new ConfigError('EVENTS_NATS_URL', 'must be nats:// or tls:// URLs, comma-separated');
  }
  const stream = env.EVENTS_NATS_STREAM || 'USER_EVENTS';
  if (!STREAM_NAME.test(stream)) throw new ConfigError('EVENTS_NATS_STREAM', 'must be 1-64 letters, digits, - or _');
  const subjectPrefix = env.EVENTS_NATS_SUBJECT_PREFIX || 'users.events';
  if (!SUBJECT_PREFIX.test(subjectPrefix)) throw new ConfigError('EVENTS_NATS_SUBJECT_PREFIX', 'must be dot-separated tokens of letters, digits, - or _ (no wildcards)');
  return { servers, stream, subjectPrefix };
}

export function eventsConfig(env: Env): EventsConfig {
  const source = env.EVENTS_SOURCE || '/users';
  if (/[\s"\\]/.test(source) || source.length > 2048) throw new ConfigError('EVENTS_SOURCE', 'must be a URI-reference without spaces, quotes or backslashes');
  const nats = natsRelayConfig(env);
  return {
    source,
    retentionMs: integer(env, 'EVENTS_RETENTION_DAYS', 7, 0, 36_500) * 86_400_000,
    retentionCount: integer(env, 'EVENTS_RETENTION_COUNT', 0, 0, 1_000_000_000),
    retentionCheckMs: integer(env, 'EVENTS_RETENTION_CHECK_S', 60, 1, 86_400) * 1000,
    heartbeatMs: integer(env, 'EVENTS_HEARTBEAT_S', 15, 1, 3600) * 1000,
    maxSubscribers: integer(env, 'EVENTS_MAX_SUBSCRIBERS', 1000, 0, 100_000),
    subscriberBufferBytes: integer(env, 'EVENTS_SUBSCRIBER_BUFFER_BYTES', 1024 * 1024, 16 * 1024, 1024 * 1024 * 1024),
    ...(nats ? { nats } : {}),
  };
}

export interface EventsSection {
  events: EventsConfig;
}
