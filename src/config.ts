/**
 * Configuration: read once from the environment into a frozen, typed Config, here and
 * nowhere else (nothing else reads process.env). Each room has its typed section
 * (config/*-section.ts: the server, the store, authentication and the rate limit, CORS,
 * compression, the log, admission, the user resource, the change feed, backups), and its
 * plugin takes only that section; Config is all of them side by side. A bad value throws
 * ConfigError naming the setting; the entry point prints its one line and exits non-zero.
 */
import { authConfig, rateLimitConfig, type AuthSection } from './config/auth-section.js';
import { backupConfig, type BackupSection } from './config/backup-section.js';
import { eventsConfig, type EventsSection } from './config/events-section.js';
import { compressionSection, corsConfig, publicUrlConfig, requestTimeouts, trustProxy, type CompressionSection, type CorsSection, type HttpSection } from './config/http-section.js';
import { integer, type Env } from './config/read-env.js';
import { admissionSection, logSection, usersSection, type AdmissionSection, type LogSection, type UsersSection } from './config/request-sections.js';
import { storeConfig, type StoreSection } from './config/store-section.js';

export { ConfigError, isLoopback } from './config/read-env.js';
export { SCOPES, type ApiKeyEntry, type AuthConfig, type AuthSection, type RateLimitConfig, type Scope } from './config/auth-section.js';
export type { BackupConfig, BackupSection } from './config/backup-section.js';
export type { EventsConfig, EventsSection, NatsRelayConfig } from './config/events-section.js';
export type { CompressionSection, CorsSection, HttpSection } from './config/http-section.js';
export { LOG_LEVELS, type AdmissionSection, type LogLevel, type LogSection, type UsersSection } from './config/request-sections.js';
export { DEFAULT_DATABASE_URL, MIN_PG_STATEMENT_TIMEOUT_MS, type StoreConfig, type StoreSection } from './config/store-section.js';

export type Config = HttpSection & StoreSection & LogSection & AuthSection & AdmissionSection & UsersSection & EventsSection & CorsSection & CompressionSection & BackupSection;

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const host = env.HOST || '127.0.0.1';
  const auth = authConfig(env, host);
  const rateLimit = rateLimitConfig(env);
  const cors = corsConfig(env, auth);
  const publicUrl = publicUrlConfig(env);
  const timeouts = requestTimeouts(env);
  const store = Object.freeze(storeConfig(env));
  const backup = backupConfig(env, store);
  return Object.freeze({
    host,
    port: integer(env, 'PORT', 8080, 0, 65535),
    store,
    ...logSection(env),
    bodyLimit: integer(env, 'BODY_LIMIT', 64 * 1024, 1024, 64 * 1024 * 1024),
    ...timeouts,
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000, 1, 3_600_000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 1, 3_600_000),
    auth: Object.freeze(auth),
    ...(rateLimit ? { rateLimit: Object.freeze(rateLimit) } : {}),
    trustProxy: Object.freeze(trustProxy(env)),
    maxHeaderBytes: integer(env, 'MAX_HEADER_BYTES', 16 * 1024, 1024, 1024 * 1024),
    ...admissionSection(env),
    ...usersSection(env),
    events: Object.freeze(eventsConfig(env)),
    ...compressionSection(env),
    ...(cors ? { cors } : {}),
    ...(publicUrl ? { publicUrl } : {}),
    ...(backup ? { backup: Object.freeze(backup) } : {}),
    backupStepDelayMs: integer(env, 'TEST_BACKUP_STEP_DELAY_MS', 0, 0, 600_000),
  });
}
