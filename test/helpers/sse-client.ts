/**
 * A Server-Sent Events client for tests, over a raw HTTP request: it parses the
 * stream with eventsource-parser, keeps every event and comment it receives,
 * and can stop reading (a slow consumer) without closing. The status and
 * headers are checked against the server's OpenAPI document, as every other
 * test response is.
 */
import http from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { documentFor, responseProblems } from './openapi-validator.js';
import { fetchDocument } from './http-client.js';

export interface SseEvent {
  id: number;
  /** The CloudEvent, parsed. */
  event: Record<string, any>;
}

export interface SseConnection {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body when the server answered with something other than a stream (a problem). */
  text: string;
  events: SseEvent[];
  comments: string[];
  /** Resolves once `n` events arrived; rejects if the stream ends first. */
  waitForEvents(n: number): Promise<SseEvent[]>;
  /** Resolves once a comment line (a heartbeat) arrived. */
  waitForComment(): Promise<string>;
  /** Resolves when the server ended or cut the stream. */
  ended: Promise<void>;
  /** Stops reading: the server's writes pile up. */
  pause(): void;
  resume(): void;
  /** Closes the connection from the client side. */
  close(): void;
}

export async function openEventStream(baseUrl: string, path = '/events', headers: Record<string, string> = {}): Promise<SseConnection> {
  const checks = await documentFor(baseUrl, () => fetchDocument(baseUrl));
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: 'GET', path, headers: { accept: 'text/event-stream', ...headers }, agent: false }, (res) => {
      const events: SseEvent[] = [];
      const comments: string[] = [];
      const waiters = new Set<() => void>();
      let finished = false;
      const notify = () => {
        for (const waiter of [...waiters]) waiter();
      };
      const ended = new Promise<void>((done) => {
        const finish = () => {
          finished = true;
          notify();
          done();
        };
        res.once('end', finish);
        res.once('close', finish);
        res.once('error', finish);
      });
      const parser = createParser({
        onEvent(message: EventSourceMessage) {
          events.push({ id: Number(message.id), event: JSON.parse(message.data) });
          notify();
        },
        onComment(comment) {
          comments.push(comment);
          notify();
        },
      });
      let text = '';
      const streaming = res.statusCode === 200 && String(res.headers['content-type']).startsWith('text/event-stream');
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (streaming ? parser.feed(chunk) : (text += chunk)));
      const until = <T>(ready: () => T | undefined, what: string) =>
        new Promise<T>((done, fail) => {
          const check = () => {
            const value = ready();
            if (value !== undefined) {
              waiters.delete(check);
              done(value);
            } else if (finished) {
              waiters.delete(check);
              fail(new Error(`the stream ended before ${what} (had ${events.length} events)`));
            }
          };
          waiters.add(check);
          check();
        });
      const connection: SseConnection = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        get text() {
          return text;
        },
        events,
        comments,
        waitForEvents: (n) => until(() => (events.length >= n ? events.slice(0, n) : undefined), `${n} events`),
        waitForComment: () => until(() => comments[0], 'a comment'),
        ended,
        pause: () => res.pause(),
        resume: () => res.resume(),
        close: () => req.destroy(),
      };
      if (!streaming) {
        // A refusal: read it whole, check it like any other response.
        void ended.then(() => {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          const problems = responseProblems(checks, 'GET', path, { status: connection.status, headers: res.headers, text, body });
          if (problems.length > 0) reject(new Error(`the response breaks the OpenAPI document: ${problems.join('\n')}`));
          else resolve(connection);
        });
        return;
      }
      const problems = responseProblems(checks, 'GET', path, { status: connection.status, headers: res.headers, text: '(a stream)', body: '' });
      if (problems.length > 0) {
        // Rejected, not thrown: a throw inside this callback would only surface as a parser error.
        req.destroy();
        reject(new Error(`the stream's status and headers break the OpenAPI document: ${problems.join('\n')}`));
      } else resolve(connection);
    });
    req.on('error', reject);
    req.end();
  });
}
