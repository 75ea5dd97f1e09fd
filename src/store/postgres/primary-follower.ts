/**
 * A postgres.js client that follows the primary of a replicated cluster
 * (DATABASE_URL naming several hosts): it connects only to the writable one, and
 * after an error that may mean the primary died, was demoted or turned read-only
 * (recover()), it looks for the primary again and moves every later query there,
 * without a restart.
 *
 * Contracts:
 * - `sql` always sends to the primary known now. A query started on a former
 *   primary fails there (its client is ended at the move); it is never re-sent
 *   elsewhere by this module.
 * - One search at a time per process, however many requests fail at once, retried
 *   with a growing, jittered pause (100 ms doubling to 1 s): no herd of reconnects.
 *   The new primary's pool opens its connections as queries need them.
 * - Fencing: of several writable hosts, the one on the highest timeline of the
 *   cluster (same system identifier) is the primary; a host on a timeline below
 *   the highest this process has seen is a stale writer (an old primary restarted
 *   from the data it had when it died) and is never written to. A process started
 *   while only a stale writer is reachable cannot know it: the operator fences old
 *   primaries (docs/deployment.md, "Failover").
 * - With one host there is nothing to follow: `sql` is a plain client and
 *   recover() answers at once that nothing changed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { hostUrls } from './postgres-hosts.js';
import type { FailoverStats } from '../user-store.js';
import { probeHost, type HostState } from './primary-probe.js';

type Primary = Extract<HostState, { role: 'primary' }>;

export interface PrimaryFollower {
  /** Sends to the primary known now (see the contracts above). */
  readonly sql: postgres.Sql;
  /** The single-host URL of the primary known now: for sessions of their own (leadership). */
  url(): string;
  /** Whether the URL names several hosts, so that there is a primary to follow. */
  readonly replicated: boolean;
  /**
   * After an error that may mean the primary is gone: makes sure a search runs and waits
   * for it up to the connect timeout. True when a primary is known afterwards.
   */
  recover(): Promise<boolean>;
  /** Hears every move to another primary, after `sql` points at it. */
  onChange(listener: () => void): void;
  stats(): FailoverStats;
  close(): Promise<void>;
}

export interface FollowerOptions {
  connectTimeoutMs: number;
  /** Hears each move and each stale writer refused (for logs). */
  onEvent?: (event: { kind: 'primary-changed' | 'stale-writer'; host: string; timeline: number | undefined }) => void;
}

const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 1000;

/** The writable hosts of the cluster `system` (any, when undefined), highest timeline first, and the errors of those unreachable. */
async function probeAll(urls: readonly string[], names: readonly string[], connectTimeoutMs: number, system: string | undefined) {
  const states = await Promise.all(urls.map((hostUrl, i) => probeHost(hostUrl, names[i] as string, connectTimeoutMs)));
  const errors = states.flatMap((state) => (state.role === 'unreachable' ? [state.error] : []));
  const writable = states.filter((state): state is Primary => state.role === 'primary' && (system === undefined || state.system === undefined || state.system === system));
  writable.sort((x, y) => (y.timeline ?? 0) - (x.timeline ?? 0));
  return { writable, errors };
}

/** What a start finds when no host is the primary: a host's own error when none answered, else that none is writable. */
function noPrimary(names: readonly string[], errors: unknown[]): unknown {
  return errors.length === names.length ? errors[0] : new Error(`no host of ${names.join(', ')} is a writable primary`);
}

/** The single-host URL of the primary of `url`'s hosts, for a one-off session (migrate); `url` itself when it names one host. */
export async function primaryUrl(url: string, connectTimeoutMs: number): Promise<string> {
  const { urls, names } = hostUrls(url);
  if (urls.length === 1) return url;
  const { writable, errors } = await probeAll(urls, names, connectTimeoutMs, undefined);
  if (writable[0] === undefined) throw noPrimary(names, errors);
  return writable[0].url;
}

export async function followPrimary(url: string, clientOptions: postgres.Options<Record<string, never>>, options: FollowerOptions): Promise<PrimaryFollower> {
  const { urls, names } = hostUrls(url);
  if (urls.length === 1) {
    const sql = postgres(url, clientOptions);
    return {
      sql,
      url: () => url,
      replicated: false,
      recover: async () => true,
      onChange: () => {},
      stats: () => ({ primaryChanges: 0, searches: 0, secondsWithoutPrimary: 0, withoutPrimary: false, staleWritersRefused: 0 }),
      close: () => sql.end({ timeout: 5 }),
    };
  }

  const listeners: (() => void)[] = [];
  const stats = { primaryChanges: 0, searches: 0, missingMs: 0, staleWritersRefused: 0 };
  let system: string | undefined;
  let highestTimeline = 0;
  let missingSince: number | undefined;
  let searching: Promise<void> | undefined;
  let closed = false;

  /** Probes every host at once; the writable one on the highest timeline of this cluster, if any. */
  async function locate(): Promise<{ primary?: Primary; errors: unknown[] }> {
    stats.searches++;
    const { writable, errors } = await probeAll(urls, names, options.connectTimeoutMs, system);
    const [best] = writable;
    for (const stale of writable.slice(1)) refuse(stale);
    if (best === undefined) return { errors };
    if (best.timeline !== undefined && best.timeline < highestTimeline) {
      refuse(best);
      return { errors };
    }
    system ??= best.system;
    highestTimeline = Math.max(highestTimeline, best.timeline ?? 0);
    return { primary: best, errors };
  }

  function refuse(stale: Primary): void {
    stats.staleWritersRefused++;
    options.onEvent?.({ kind: 'stale-writer', host: stale.name, timeline: stale.timeline });
  }

  const first = await locate();
  if (first.primary === undefined) throw noPrimary(names, first.errors);
  let primary: Primary = first.primary;
  let client = postgres(primary.url, clientOptions);

  function adopt(found: Primary): void {
    if (found.url === primary.url) return;
    const former = client;
    primary = found;
    client = postgres(found.url, clientOptions);
    stats.primaryChanges++;
    options.onEvent?.({ kind: 'primary-changed', host: found.name, timeline: found.timeline });
    for (const listener of listeners) listener();
    // Its queries fail (the host is gone or not writable); a moment for those that can still finish.
    void former.end({ timeout: 1 }).catch(() => {});
  }

  async function search(): Promise<void> {
    const started = Date.now();
    missingSince = started;
    try {
      for (let attempt = 0; !closed; attempt++) {
        const { primary: found } = await locate();
        if (found !== undefined) return adopt(found);
        const pause = Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** attempt);
        await sleep(pause / 2 + Math.random() * (pause / 2), undefined, { ref: false });
      }
    } finally {
      stats.missingMs += Date.now() - started;
      missingSince = undefined;
    }
  }

  const sql = new Proxy(client, {
    apply: (_target, _this, args: unknown[]) => (client as unknown as (...a: unknown[]) => unknown)(...args),
    get: (_target, property) => Reflect.get(client, property),
  });

  return {
    sql,
    url: () => primary.url,
    replicated: true,
    async recover() {
      if (closed) return false;
      searching ??= search().finally(() => {
        searching = undefined;
      });
      const current = searching;
      const timer = sleep(options.connectTimeoutMs, 'timeout' as const, { ref: false });
      const outcome = await Promise.race([current.then(() => 'found' as const), timer]);
      return outcome === 'found' && !closed;
    },
    onChange: (listener) => void listeners.push(listener),
    stats: () => ({
      primaryChanges: stats.primaryChanges,
      searches: stats.searches,
      secondsWithoutPrimary: (stats.missingMs + (missingSince === undefined ? 0 : Date.now() - missingSince)) / 1000,
      withoutPrimary: missingSince !== undefined,
      staleWritersRefused: stats.staleWritersRefused,
    }),
    async close() {
      closed = true;
      await client.end({ timeout: 5 });
    },
  };
}
