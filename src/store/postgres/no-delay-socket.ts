/**
 * The sockets of the store's PostgreSQL clients, with Nagle's algorithm off
 * (TCP_NODELAY), given to postgres.js as its `socket` option.
 *
 * Why: postgres.js opens its sockets with Nagle's algorithm on. A message the
 * client writes while an earlier one is still unacknowledged waits for that
 * acknowledgement, and a server with nothing to answer yet delays it (40 ms on
 * Linux). Every `COPY … FROM STDIN` ends that way (its last CopyData segment and
 * the 5-byte CopyDone follow a write the server does not answer), so each COPY of
 * an import batch stood still for about 44 ms: an HR-shaped import of 20,000 people
 * ran at 2,737 a second with Nagle and 6,378 without (docs/performance.md, "Import").
 *
 * postgres.js calls the function for each connection it opens and, given a socket,
 * skips its own connect. The connect starts in a microtask queued here, so after
 * postgres.js (which receives the socket through a promise) has listened for the
 * socket's `error` and `close`: a connect that fails at once (ENETUNREACH, EINVAL) emits
 * its error on the next tick, and started here it reached no listener and ended the
 * process (test/store/no-delay-socket.test.ts). postgres.js's first write waits for a
 * later turn of the event loop, when the socket is connecting and holds writes until it
 * is connected; its connect timeout and error handling then apply as to its own sockets.
 * `host` and `port` are set on it as postgres.js sets them on its own (TLS takes the
 * server name from `host`). TCP_NODELAY is asked with setNoDelay() before the connect
 * (`connect()`'s own `noDelay` option is not read: only the constructor's is). The store's clients name one host each
 * (postgres-hosts.ts splits a host list); for a list, connections go round it as
 * postgres.js's own would.
 */
import net from 'node:net';

/** What postgres.js passes the `socket` option: its parsed options. */
export interface SocketTarget {
  host: readonly string[];
  port: readonly number[];
  path?: string | false | undefined;
}

/** A `socket` option for one postgres.js client. */
export function noDelaySockets(): (target: SocketTarget) => net.Socket {
  let next = 0;
  return (target) => {
    const socket = new net.Socket();
    const { path } = target;
    if (path) {
      queueMicrotask(() => socket.connect({ path }));
      return socket;
    }
    const index = next++ % Math.max(1, target.host.length);
    const host = target.host[index] ?? 'localhost';
    const port = target.port[index] ?? target.port[0] ?? 5432;
    // Set before the connect, Node applies it as the connection is made (net.Socket keeps it until it has a handle).
    socket.setNoDelay(true);
    queueMicrotask(() => socket.connect({ host, port }));
    return Object.assign(socket, { host, port });
  };
}
