/**
 * Raw HTTP/1.1 over a socket, for requests no HTTP client sends as written: broken
 * request lines, `OPTIONS *`, `CONNECT`, absolute-form targets, split or slow heads.
 */
import { connect } from 'node:net';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends raw bytes, `pauseMs` apart, and returns everything the server answers until it
 * closes the connection, and how many of the chunks were sent before it did.
 */
export function rawExchangeCounted(port: number, chunks: string[], pauseMs = 0): Promise<{ answer: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    let closed = false;
    socket.on('data', (data) => (answer += data.toString('utf8')));
    socket.on('end', () => (closed = true));
    socket.on('close', () => ((closed = true), resolve({ answer, sent })));
    // Writing into a connection the server has just closed is the expected end of a slow exchange.
    socket.on('error', (error: NodeJS.ErrnoException) => (['EPIPE', 'ECONNRESET'].includes(error.code ?? '') ? undefined : reject(error)));
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (closed) return;
        socket.write(chunk);
        sent += 1;
        if (pauseMs) await sleep(pauseMs);
      }
    });
  });
}

/** Sends raw bytes and returns everything the server answers until it closes the connection. */
export async function rawExchange(port: number, chunks: string[], pauseMs = 0): Promise<string> {
  return (await rawExchangeCounted(port, chunks, pauseMs)).answer;
}

/** The status, lower-cased head and parsed JSON body of a raw answer holding one response. */
export function rawResponse(raw: string): { status: number; headers: string; body: any } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  let parsed: unknown;
  try {
    parsed = body === '' ? undefined : JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: parsed };
}
