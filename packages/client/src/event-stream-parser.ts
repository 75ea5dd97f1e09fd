/**
 * A Server-Sent Events parser, as the HTML standard interprets an event stream
 * ("Interpreting an event stream", html.spec.whatwg.org/#event-stream-interpretation),
 * so the client needs nothing but the platform. The caller decodes the bytes as
 * UTF-8 (a TextDecoder in stream mode, which also drops a leading BOM) and feeds
 * the text in chunks of any size: a line, or a CRLF, may be split between two chunks.
 */

/** One dispatched event: `id` is the last event id the stream set (it carries over to later events). */
export interface ServerSentEvent {
  id: string;
  /** The `event` field, `message` when the event named none. */
  event: string;
  /** The `data` lines joined with `\n`. */
  data: string;
}

export interface EventStreamParser {
  /** Parses `text`, the next decoded part of the stream; returns the events it completed, in order. */
  feed(text: string): ServerSentEvent[];
}

const LINE_END = /\r\n|\r|\n/g;

/** `onRetry` receives each valid `retry` field: the reconnection delay the server asks for, in ms. */
export function createEventStreamParser(onRetry?: (ms: number) => void): EventStreamParser {
  let pending = '';
  /** The last chunk ended in CR: a LF starting the next one belongs to that line end. */
  let skipLeadingLF = false;
  let lastId = '';
  let type = '';
  let data = '';
  let hasData = false;

  function dispatch(into: ServerSentEvent[]): void {
    // A block without data (only `retry`, `id` or comments) dispatches nothing, but its id stands.
    if (hasData) into.push({ id: lastId, event: type === '' ? 'message' : type, data });
    type = '';
    data = '';
    hasData = false;
  }

  function line(text: string, into: ServerSentEvent[]): void {
    if (text === '') return dispatch(into);
    if (text.startsWith(':')) return; // a comment (the server's heartbeat)
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      data = hasData ? `${data}\n${value}` : value;
      hasData = true;
    } else if (field === 'event') {
      type = value;
    } else if (field === 'id') {
      if (!value.includes('\0')) lastId = value;
    } else if (field === 'retry') {
      if (/^[0-9]+$/.test(value)) onRetry?.(Number(value));
    }
    // Any other field is ignored, as the standard says.
  }

  return {
    feed(text) {
      if (text === '') return [];
      if (skipLeadingLF && text.startsWith('\n')) text = text.slice(1);
      skipLeadingLF = false;
      const buffer = pending + text;
      const events: ServerSentEvent[] = [];
      let start = 0;
      LINE_END.lastIndex = 0;
      for (let end = LINE_END.exec(buffer); end !== null; end = LINE_END.exec(buffer)) {
        line(buffer.slice(start, end.index), events);
        start = LINE_END.lastIndex;
        if (end[0] === '\r' && start === buffer.length) skipLeadingLF = true;
      }
      pending = buffer.slice(start);
      return events;
    },
  };
}
