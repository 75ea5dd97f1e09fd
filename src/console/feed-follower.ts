/**
 * Following the change feed from a browser with the operator's credential:
 * `fetch` with `Accept: text/event-stream` and the Authorization header,
 * reading the streamed body as Server-Sent Events (an EventSource cannot send
 * a header, and the credential never goes into a URL). After a break it
 * reconnects with Last-Event-ID, so no event is missed or shown twice.
 */
import { createEventStreamParser } from '../../packages/client/src/event-stream-parser.js';
import { ApiError, type Api } from './api.js';
import type { UserEvent } from './user-names.js';

export interface FollowHandlers {
  event(event: UserEvent): void;
  /** The connection state, for the operator: live, reconnecting, or a restart after a gap. */
  state(text: string): void;
}

const MAX_WAIT_MS = 30_000;

/** Follows the feed after `position` until `signal` aborts; returns the last position seen. */
export async function follow(api: Api, position: number, signal: AbortSignal, on: FollowHandlers): Promise<number> {
  let retryMs = 1000;
  let failures = 0;
  while (!signal.aborted) {
    try {
      const response = await api.stream(`/events?after=${position}`, { accept: 'text/event-stream', 'last-event-id': String(position) }, signal);
      on.state('Live');
      failures = 0;
      const parser = createEventStreamParser((ms) => (retryMs = ms));
      const decoder = new TextDecoder();
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const message of parser.feed(decoder.decode(value, { stream: true }))) {
          const event = JSON.parse(message.data) as UserEvent;
          position = Number(event.id);
          on.event(event);
        }
      }
    } catch (error) {
      if (signal.aborted) break;
      if (error instanceof ApiError && error.status === 410) {
        // Retention passed the position (a long pause): say so, and go on from the feed's end.
        const latest = Number(error.headers.get('feed-position') ?? (await api.request('GET', '/users?limit=1')).headers.get('feed-position') ?? 0);
        on.state(`Events after ${position} are no longer kept; following from ${latest}. Some changes were not shown.`);
        position = latest;
        continue;
      }
      if (error instanceof ApiError && error.status === 401) throw error;
      failures += 1;
    }
    if (signal.aborted) break;
    const wait = Math.min(MAX_WAIT_MS, retryMs * 2 ** Math.min(failures, 5));
    on.state(`Reconnecting in ${Math.round(wait / 1000)} s…`);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
  return position;
}
