/**
 * The configuration settings, as command-line options: `--database-url X` is
 * `DATABASE_URL=X`, one to one. The meaning and checks of each live in
 * src/config.ts; this list only names them for parsing and --help. A command
 * accepts, shows in --help and reads only the settings it uses.
 */
export const SETTINGS: readonly [env: string, help: string][] = [
  ['HOST', 'address to listen on (default 127.0.0.1)'],
  ['PORT', 'TCP port (default 8080; 0 picks one)'],
  ['DATABASE_URL', 'sqlite:PATH, sqlite::memory: or postgres://… (default sqlite:./data/users.db)'],
  ['SQLITE_SYNCHRONOUS', 'FULL (default) or NORMAL'],
  ['SQLITE_SECURE_DELETE', 'ON (default: deleted data is overwritten with zeros), FAST or OFF'],
  ['SQLITE_CREATE_DIRECTORY', 'true to create the missing folder of a sqlite: path (default false: refused, as a likely typo; the default ./data is always made)'],
  ['PG_POOL_MAX', 'PostgreSQL connections per instance (default 10)'],
  ['PG_STATEMENT_TIMEOUT_MS', 'PostgreSQL statement timeout (default 5000; at least 100)'],
  ['PG_CONNECT_TIMEOUT_MS', 'PostgreSQL connect timeout (default 5000)'],
  ['CHANGE_FEED', 'on (default) or off: off only to measure the feed\'s cost; writes made off are never in the feed'],
  ['LOG_LEVEL', 'fatal, error, warn, info (default), debug, trace or silent'],
  ['BODY_LIMIT', 'largest request body in bytes (default 65536)'],
  ['MAX_HEADER_BYTES', 'largest request head in bytes (default 16384)'],
  ['REQUEST_TIMEOUT_MS', 'time to receive a request (default 30000)'],
  ['HEADERS_TIMEOUT_MS', 'time to receive the headers (default 10000)'],
  ['KEEP_ALIVE_TIMEOUT_MS', 'idle keep-alive time (default 5000)'],
  ['SHUTDOWN_TIMEOUT_MS', 'grace for requests in flight on SIGTERM (default 10000)'],
  ['OVERLOAD_MAX_EVENT_LOOP_DELAY_MS', 'shed load beyond this event-loop delay (default 1000; 0 off)'],
  ['AUTH_MODE', 'none (default), api-key or jwt'],
  ['ALLOW_UNAUTHENTICATED', 'true to serve AUTH_MODE=none on a non-loopback HOST'],
  ['API_KEYS_FILE', 'JSON file of { id, sha256, scopes } (api-key mode)'],
  ['JWT_ISSUER', 'required iss (jwt mode)'],
  ['JWT_AUDIENCE', 'required aud (jwt mode)'],
  ['JWT_JWKS_URL', 'key set URL (jwt mode)'],
  ['JWT_JWKS_FILE', 'key set file (jwt mode)'],
  ['JWT_ALGORITHMS', 'allowed algorithms (default RS256,ES256,EdDSA)'],
  ['JWT_CLOCK_TOLERANCE_S', 'clock skew allowed (default 30)'],
  ['RATE_LIMIT_MAX', 'requests per window per client (off by default)'],
  ['RATE_LIMIT_WINDOW_S', 'rate-limit window in seconds'],
  ['REDIS_URL', 'shared rate-limit counters'],
  ['TRUST_PROXY', 'proxies whose X-Forwarded-For is believed'],
  ['IDEMPOTENCY_TTL_S', 'how long an Idempotency-Key is kept (default 86400)'],
  ['EVENTS_SOURCE', 'CloudEvents source of change events (default /users)'],
  ['EVENTS_RETENTION_DAYS', 'delete change events older than this (default 7; 0 never)'],
  ['EVENTS_RETENTION_COUNT', 'keep at most this many change events (default 0: no limit)'],
  ['EVENTS_RETENTION_CHECK_S', 'how often retention runs (default 60)'],
  ['EVENTS_HEARTBEAT_S', 'comment line on an idle event stream every N s (default 15)'],
  ['EVENTS_MAX_SUBSCRIBERS', 'event streams per instance (default 1000)'],
  ['EVENTS_SUBSCRIBER_BUFFER_BYTES', 'bytes a slow event-stream subscriber may fall behind before it is cut off (default 1048576)'],
  ['EVENTS_NATS_URL', 'publish change events to NATS JetStream at these nats:// URLs (off by default)'],
  ['EVENTS_NATS_STREAM', 'JetStream stream (default USER_EVENTS)'],
  ['EVENTS_NATS_SUBJECT_PREFIX', 'subjects are PREFIX.user.created etc. (default users.events)'],
  ['BACKUP_DIR', 'write scheduled snapshots of the SQLite store into this existing folder (off by default)'],
  ['BACKUP_INTERVAL_S', 'time between scheduled snapshots (default 3600)'],
  ['BACKUP_KEEP', 'complete snapshots kept; older ones go once a new one is complete (default 7)'],
];

/** What the commands that only open the store (migrate, import) use. */
export const STORE_SETTINGS: readonly string[] = ['DATABASE_URL', 'SQLITE_SYNCHRONOUS', 'SQLITE_SECURE_DELETE', 'SQLITE_CREATE_DIRECTORY', 'PG_POOL_MAX', 'PG_STATEMENT_TIMEOUT_MS', 'PG_CONNECT_TIMEOUT_MS', 'CHANGE_FEED'];

/** What export uses: it opens an existing database only and creates nothing, so it has nothing to create a folder for. */
export const EXISTING_STORE_SETTINGS: readonly string[] = STORE_SETTINGS.filter((name) => name !== 'SQLITE_CREATE_DIRECTORY');

/**
 * Flags that stand for a setting's value (`--create` is `--sqlite-create-directory true`).
 * A command takes such a flag exactly when it takes the setting; the last of the two given wins.
 */
export const SETTING_FLAGS: ReadonlyMap<string, readonly [env: string, value: string]> = new Map([['--create', ['SQLITE_CREATE_DIRECTORY', 'true'] as const]]);

export const ALL_SETTINGS: readonly string[] = SETTINGS.map(([env]) => env);

export const optionName = (env: string) => `--${env.toLowerCase().replace(/_/g, '-')}`;

/** The help lines of `names`, in the order of SETTINGS, each followed by the flags that stand for it. */
export function settingsHelp(names: readonly string[]): string {
  const shown = SETTINGS.filter(([env]) => names.includes(env));
  const width = Math.max(...shown.map(([env]) => optionName(env).length));
  return shown
    .flatMap(([env, help]) => [
      `  ${optionName(env).padEnd(width)}  ${help} [${env}]`,
      ...[...SETTING_FLAGS]
        .filter(([, [setting]]) => setting === env)
        .map(([flag, [, value]]) => `  ${flag.padEnd(width)}  the same as ${optionName(env)} ${value}`),
    ])
    .join('\n');
}

/** Only the variables named in `names`: a command's configuration is never refused for a setting it does not use. */
export function pickSettings(env: Record<string, string | undefined>, names: readonly string[]): Record<string, string | undefined> {
  return Object.fromEntries(names.filter((name) => env[name] !== undefined).map((name) => [name, env[name]]));
}
