/**
 * A TCP proxy in front of the service whose connections a test can cut, as a
 * network failure or a restarted load balancer would: the client then sees a
 * real broken connection, not a simulated one.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** The service's address, through the proxy. */
  baseUrl: string;
  /** Destroys every open connection (both sides); new ones are accepted as before. */
  cut(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP address');
  const cut = () => open.forEach((socket) => socket.destroy());
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    cut,
    close: () =>
      new Promise<void>((resolve) => {
        cut();
        server.close(() => resolve());
      }),
  };
}
