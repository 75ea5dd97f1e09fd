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
 * skips its own connect: the socket is returned still connecting (writes wait in it),
 * so postgres.js's connect timeout and its error handling apply as they do to its own
 * sockets. `host` and `port` are set on it as postgres.js sets them on its own (TLS
 * takes the server name from `host`). The store's clients name one host each
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
    if (target.path) return net.connect({ path: target.path });
    const index = next++ % Math.max(1, target.host.length);
    const host = target.host[index] ?? 'localhost';
    const port = target.port[index] ?? target.port[0] ?? 5432;
    return Object.assign(net.connect({ host, port, noDelay: true }), { host, port });
  };
}
