/**
 * A graceful stop waits for the requests in flight, not for clients. Once no
 * request the server has received is still unanswered, every remaining
 * connection is closed: idle keep-alive ones, ones sending a request head that
 * never completes, and ones still trickling in a body the service refused before
 * reading. Without this, one slow client could hold the stop until
 * SHUTDOWN_TIMEOUT_MS and make it exit 1 with an error line.
 */
import type { FastifyInstance } from 'fastify';

export function drainConnectionsOnClose(app: FastifyInstance): void {
  const server = app.server;
  let inFlight = 0;
  let closing = false;
  const closeIfIdle = () => {
    if (closing && inFlight === 0) server.closeAllConnections();
  };
  server.on('request', (_req, res) => {
    inFlight++;
    res.once('close', () => {
      inFlight--;
      closeIfIdle();
    });
  });
  app.addHook('preClose', async () => {
    closing = true;
    closeIfIdle();
  });
}
