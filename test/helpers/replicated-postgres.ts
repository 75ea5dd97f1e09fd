/**
 * Two PostgreSQL clusters of the test's own, a primary and a synchronous standby
 * streaming from it through a replication slot, each on its own port, so failover
 * tests can kill a primary with SIGKILL and promote the standby without touching
 * the shared server or anyone else's cluster. Only the PIDs of these clusters are
 * ever signalled (read from their postmaster.pid).
 *
 * The synchronous standby is required while one is attached, as Patroni's
 * `synchronous_mode` (not strict) does: after a promotion the new primary runs
 * alone (synchronous_standby_names = '') until the old node is rebuilt as its
 * standby (a fresh pg_basebackup, standby.signal), then requires it again.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { freePort } from './private-postgres.js';

export interface Node {
  readonly name: string;
  readonly port: number;
  readonly url: string;
}

export interface ReplicatedPair {
  readonly nodes: readonly [Node, Node];
  /** `postgres://postgres@127.0.0.1:P1,127.0.0.1:P2/postgres?target_session_attrs=read-write`. */
  readonly url: string;
  primary(): Node;
  standby(): Node;
  /** SIGKILLs the primary's postmaster and every backend of it at once: a crash of its machine. */
  killPrimary(): void;
  /** Promotes the standby (pg_ctl promote) and lets it run alone; it becomes primary(). */
  promote(): Promise<void>;
  /** Starts the killed node from its own data as a writable primary at its old address: a stale writer. */
  startStale(): void;
  /** Stops a stale or killed node and rebuilds it as a synchronous standby of the primary; resolves once it is in sync. */
  rebuildStandby(): Promise<void>;
  /** Runs `query` on `node` through a connection of its own. */
  query<T extends object>(node: Node, query: string): Promise<T[]>;
  destroy(): void;
}

const SETTINGS = [
  'listen_addresses=127.0.0.1',
  'fsync=on',
  'synchronous_commit=on',
  'wal_level=replica',
  'max_wal_senders=10',
  'max_replication_slots=10',
  'hot_standby=on',
  'wal_log_hints=on',
  'max_connections=100',
];

function runAsPostgres(command: string, args: string[]): string {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  return execFileSync(file, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
}

function postmasterPid(data: string): number | undefined {
  try {
    return Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').map(Number).filter((n) => n > 0);
  } catch {
    return [];
  }
}

/** Gone, or a zombie not yet reaped (PID 1 of a container may be slow to reap): no longer running. */
function dead(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') === true;
  } catch {
    return true;
  }
}

function killTree(pid: number): void {
  const victims = [pid, ...childrenOf(pid)];
  for (const victim of victims) {
    try {
      process.kill(victim, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 30_000;
  while (!victims.every(dead)) {
    if (Date.now() > deadline) throw new Error(`PostgreSQL processes ${victims.join(', ')} survived SIGKILL`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
}

export async function createReplicatedPair(): Promise<ReplicatedPair> {
  const root = mkdtempSync(join(tmpdir(), 'user-service-failover-'));
  chmodSync(root, 0o755);
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(root, uid, gid);
  }
  const ports = [await freePort(), await freePort()];
  const nodes = (['a', 'b'] as const).map((name, i) => ({ name, port: ports[i]!, url: `postgres://postgres@127.0.0.1:${ports[i]}/postgres`, data: join(root, name) }));
  type Full = (typeof nodes)[number];
  const [a, b] = nodes as [Full, Full];
  let primary = a;
  let standby = b;
  let killed: Full | undefined;

  const options = (node: Full, extra: string[] = []) => [`-p ${node.port}`, `-k ${root}`, ...[...SETTINGS, ...extra].map((s) => `-c ${s}`)].join(' ');
  const start = (node: Full, extra: string[] = []) => {
    const log = join(root, `${node.name}.log`);
    try {
      runAsPostgres('pg_ctl', ['-D', node.data, '-o', options(node, extra), '-l', log, '-w', '-t', '120', 'start']);
    } catch (error) {
      const tail = (() => {
        try {
          return readFileSync(log, 'utf8').split('\n').slice(-8).join('\n');
        } catch {
          return '';
        }
      })();
      throw new Error(`node ${node.name} did not start: ${(error as Error).message.split('\n')[0]}\n${tail}`);
    }
  };
  const stop = (node: Full) => {
    try {
      runAsPostgres('pg_ctl', ['-D', node.data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // not running
    }
  };

  async function query<T extends object>(node: Node, text: string): Promise<T[]> {
    const sql = postgres(node.url, { max: 1, connect_timeout: 10, onnotice: () => {}, idle_timeout: 1 });
    try {
      return (await sql.unsafe(text)) as unknown as T[];
    } finally {
      await sql.end({ timeout: 1 });
    }
  }

  async function poll(node: Node, text: string, what: string): Promise<void> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const rows = await query<{ ok: boolean }>(node, text).catch(() => []);
      if (rows[0]?.ok === true) return;
      if (Date.now() > deadline) throw new Error(`${what} did not happen within 120 s (node ${node.name})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function setSynchronous(node: Node, names: string): Promise<void> {
    await query(node, `ALTER SYSTEM SET synchronous_standby_names = '${names}'`);
    await query(node, 'SELECT pg_reload_conf()');
  }

  /** A fresh copy of the primary, with a slot of its own and standby.signal (-R). */
  async function attach(node: Full): Promise<void> {
    const slot = `standby_${node.name}`;
    await query(primary, `SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '${slot}'`);
    rmSync(node.data, { recursive: true, force: true });
    runAsPostgres('pg_basebackup', ['-D', node.data, '-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-R', '-C', '-S', slot, '-X', 'stream', '-c', 'fast']);
    start(node);
    await poll(primary, `SELECT count(*) = 1 AS ok FROM pg_stat_replication WHERE application_name = 'walreceiver' AND state = 'streaming'`, 'streaming');
    await setSynchronous(primary, '*');
    await poll(primary, `SELECT count(*) = 1 AS ok FROM pg_stat_replication WHERE sync_state = 'sync'`, 'synchronous replication');
    standby = node;
  }

  runAsPostgres('initdb', ['-D', a.data, '-A', 'trust', '-U', 'postgres', '--no-instructions', '-E', 'UTF8', '--locale=C']);
  start(a);
  await attach(b);

  const pair: ReplicatedPair = {
    nodes: [a, b],
    url: `postgres://postgres@127.0.0.1:${a.port},127.0.0.1:${b.port}/postgres?target_session_attrs=read-write`,
    primary: () => primary,
    standby: () => standby,
    killPrimary() {
      const pid = postmasterPid(primary.data);
      if (pid === undefined) throw new Error(`node ${primary.name} is not running`);
      killTree(pid);
      killed = primary;
    },
    async promote() {
      if (killed === undefined) throw new Error('promote() needs a killed primary');
      runAsPostgres('pg_ctl', ['-D', standby.data, '-w', '-t', '120', 'promote']);
      primary = standby;
      // Alone now: without this, every commit would wait for a standby that is not there.
      await setSynchronous(primary, '');
    },
    startStale() {
      if (killed === undefined) throw new Error('startStale() needs a killed node');
      // Its own data, no standby.signal: writable, on the timeline it had when it died. Its
      // postmaster is dead (killTree waited), perhaps not yet reaped: its lock files are stale.
      rmSync(join(killed.data, 'postmaster.pid'), { force: true });
      rmSync(join(root, `.s.PGSQL.${killed.port}.lock`), { force: true });
      rmSync(join(root, `.s.PGSQL.${killed.port}`), { force: true });
      start(killed, ["synchronous_standby_names=''"]);
    },
    async rebuildStandby() {
      if (killed === undefined) throw new Error('rebuildStandby() needs a killed node');
      stop(killed);
      await attach(killed);
      killed = undefined;
    },
    query,
    destroy() {
      for (const node of nodes) {
        stop(node);
        const pid = postmasterPid(node.data);
        if (pid !== undefined) killTree(pid);
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
  return pair;
}
