import assert from 'node:assert/strict';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { noDelaySockets } from '../../src/store/postgres/no-delay-socket.js';
import { postgresClientOptions } from '../../src/store/postgres/postgres-user-store.js';
import { createTestDatabase, postgresSkipReason, type TestDatabase } from '../helpers/postgres.js';
import { createPrivateCluster, privateClusterSkipReason, type PrivateCluster } from '../helpers/private-postgres.js';

const skip = await postgresSkipReason();
const clusterSkip = privateClusterSkipReason();

/** A TCP server on a free port that counts the connections it accepted. */
async function listening(): Promise<{ port: number; accepted: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { port, accepted: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const connected = (socket: net.Socket) => new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));

describe('the store\'s PostgreSQL sockets (Nagle\'s algorithm off)', () => {
  it('connects to the host and port postgres.js names, and sets them on the socket as postgres.js does (TLS reads host)', async () => {
    const server = await listening();
    try {
      const socket = noDelaySockets()({ host: ['127.0.0.1'], port: [server.port] });
      assert.equal((socket as net.Socket & { host?: string }).host, '127.0.0.1');
      assert.equal((socket as net.Socket & { port?: number }).port, server.port);
      assert.equal(socket.connecting, false, 'the connect waits for the caller to listen first');
      await Promise.resolve();
      assert.equal(socket.connecting, true, 'connecting once the caller\'s promise has resolved: postgres.js\'s connect timeout covers the connect');
      await connected(socket);
      assert.equal(socket.remotePort, server.port);
      // Node keeps a socket's TCP_NODELAY request under this symbol (net.js) and applies it to the
      // connection it makes: what the socket asked for, the one thing JavaScript can read of it.
      const noDelay = Object.getOwnPropertySymbols(socket).find((symbol) => symbol.description === 'kSetNoDelay');
      assert.ok(noDelay, 'this Node.js keeps the TCP_NODELAY request where the test reads it');
      assert.equal((socket as unknown as Record<symbol, unknown>)[noDelay], true, 'Nagle\'s algorithm is off');
      socket.destroy();
    } finally {
      await server.close();
    }
  });

  it('goes round a host list as postgres.js does, one host a connection', async () => {
    const first = await listening();
    const second = await listening();
    try {
      const open = noDelaySockets();
      const target = { host: ['127.0.0.1', '127.0.0.1'], port: [first.port, second.port] };
      const ports: number[] = [];
      for (let i = 0; i < 3; i++) {
        const socket = open(target);
        await connected(socket);
        ports.push(socket.remotePort as number);
        socket.destroy();
      }
      assert.deepEqual(ports, [first.port, second.port, first.port]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('connects to a Unix socket path when postgres.js names one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'no-delay-'));
    const path = join(dir, '.s.PGSQL.5432');
    const server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const socket = noDelaySockets()({ host: ['localhost'], port: [5432], path });
      await connected(socket);
      assert.equal(socket.remoteAddress, undefined, 'a Unix socket has no remote address');
      socket.destroy();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a refused connection as postgres.js reports its own (ECONNREFUSED), not a hang', async () => {
    const server = await listening();
    const { port } = server;
    await server.close();
    const sql = postgres(`postgres://postgres@127.0.0.1:${port}/none`, { ...postgresClientOptions({ url: '' }), max: 1, connect_timeout: 5 });
    try {
      await assert.rejects(sql`SELECT 1`, (error: { code?: string }) => error.code === 'ECONNREFUSED');
    } finally {
      await sql.end({ timeout: 1 });
    }
  });

  it('a connect that fails at once (an unreachable address) reaches postgres.js as an error, and does not end the process', { timeout: 60_000 }, async () => {
    // 255.255.255.255 is refused by the kernel as the connect starts (ENETUNREACH here; EACCES
    // or another code elsewhere): the error is emitted on the next tick, before a listener
    // attached after a promise, which is how postgres.js attaches its own.
    const sql = postgres('postgres://postgres@255.255.255.255:1/none', { ...postgresClientOptions({ url: '' }), max: 1, connect_timeout: 5 });
    try {
      await assert.rejects(sql`SELECT 1`, (error: { code?: string }) => typeof error.code === 'string' && error.code !== 'CONNECT_TIMEOUT');
    } finally {
      await sql.end({ timeout: 1 });
    }
  });

  describe('against the PostgreSQL server', { skip }, () => {
    let db: TestDatabase;
    before(async () => {
      db = await createTestDatabase();
    });
    after(async () => {
      await db.drop();
    });

    it('the store\'s client options speak to the server through these sockets: queries and a COPY work', async () => {
      const sql = postgres(db.url, postgresClientOptions({ url: db.url }));
      try {
        const [row] = await sql.begin(async (tx) => {
          await tx`CREATE TEMP TABLE copied (v text) ON COMMIT DROP`;
          const stream = await tx`COPY copied (v) FROM STDIN`.writable();
          await new Promise<void>((resolve, reject) => stream.on('error', reject).end('a\nb\n', resolve));
          return tx<{ n: number }[]>`SELECT count(*)::int AS n FROM copied`;
        });
        assert.equal(row?.n, 2);
      } finally {
        await sql.end({ timeout: 5 });
      }
    });
  });

  describe('over TLS (sslmode=require), against a cluster of the test\'s own', { skip: clusterSkip }, () => {
    let cluster: PrivateCluster;
    before(async () => {
      cluster = await createPrivateCluster({ tls: true });
    });
    after(() => {
      cluster.destroy();
    });

    it('postgres.js negotiates TLS over these sockets: the server sees the connection encrypted', async () => {
      const url = `${cluster.url}?sslmode=require`;
      const sql = postgres(url, postgresClientOptions({ url }));
      try {
        const [row] = await sql<{ ssl: boolean }[]>`SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()`;
        assert.equal(row?.ssl, true);
      } finally {
        await sql.end({ timeout: 5 });
      }
    });
  });
});
