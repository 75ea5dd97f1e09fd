/**
 * NATS JetStream for tests: a stream and subject prefix of a test's own on the
 * machine's server (removed afterwards), a private server a test may stop and
 * start again, and a reader of everything a stream holds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { freePort } from './private-postgres.js';

/** The machine's NATS server (JetStream on). */
export const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** Where the private servers come from (Debian's nats-server package). */
const NATS_SERVER = '/usr/sbin/nats-server';

let probe: Promise<string | undefined> | undefined;

/** Why the NATS tests cannot run here (no server at NATS_URL, or no nats-server binary); undefined when they can. In CI, a reason is an error. */
export async function natsSkipReason(): Promise<string | undefined> {
  probe ??= (async () => {
    if (!existsSync(NATS_SERVER)) return `${NATS_SERVER} is not installed`;
    try {
      await (await connect({ servers: NATS_URL, timeout: 3000 })).close();
      return undefined;
    } catch (error) {
      return `NATS at ${NATS_URL} is unreachable (${(error as Error).message})`;
    }
  })();
  const reason = await probe;
  if (reason !== undefined && process.env.CI === 'true') throw new Error(`CI requires NATS: ${reason}`);
  return reason;
}

let counter = 0;

export interface TestStream {
  stream: string;
  subjectPrefix: string;
  /** The settings that point the service at it. */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/** A stream name and subject prefix no other run uses; cleanup deletes the stream if it was made. */
export function uniqueStream(url = NATS_URL): TestStream {
  counter += 1;
  const tag = `t${process.pid}_${counter}_${Date.now()}`;
  const stream = `USER_EVENTS_${tag}`;
  const subjectPrefix = `test.${tag}.events`;
  return {
    stream,
    subjectPrefix,
    env: { EVENTS_NATS_URL: url, EVENTS_NATS_STREAM: stream, EVENTS_NATS_SUBJECT_PREFIX: subjectPrefix },
    async cleanup() {
      const nc = await connect({ servers: url });
      try {
        await (await jetstreamManager(nc)).streams.delete(stream).catch(() => false);
      } finally {
        await nc.close();
      }
    },
  };
}

export interface StreamMessage {
  seq: number;
  subject: string;
  /** The Nats-Msg-Id header: the event's position. */
  id: string;
  contentType: string | undefined;
  event: Record<string, any>;
}

/** Every message the stream holds, in stream order ([] when the stream does not exist). */
export async function streamMessages(stream: string, url = NATS_URL): Promise<StreamMessage[]> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(stream).catch(() => undefined);
    if (info === undefined) return [];
    const messages: StreamMessage[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const message = await jsm.streams.getMessage(stream, { seq });
      if (message === null) continue;
      messages.push({ seq, subject: message.subject, id: message.header.get('Nats-Msg-Id'), contentType: message.header.get('Content-Type') || undefined, event: message.json() });
    }
    return messages;
  } finally {
    await nc.close();
  }
}

/** Purges every message of the stream, as an operator's `nats stream purge` does: its sequence numbers go on from where they were. */
export async function purgeStream(stream: string, url = NATS_URL): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    await (await jetstreamManager(nc)).streams.purge(stream);
  } finally {
    await nc.close();
  }
}

export interface PrivateNats {
  url: string;
  /** Stops the server (SIGTERM) and waits for it to exit; its data stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data, and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  remove(): Promise<void>;
}

/** A NATS server with JetStream of the test's own, on its own port and data folder. */
export async function startPrivateNats(): Promise<PrivateNats> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'nats-'));
  const url = `nats://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], { stdio: 'ignore' });
    // Ready when a client can connect (it retries while the server starts).
    for (let attempt = 0; ; attempt++) {
      try {
        await (await connect({ servers: url })).close();
        return;
      } catch (error) {
        if (attempt > 200 || child.exitCode !== null) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url,
    stop,
    start,
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
