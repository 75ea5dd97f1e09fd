/**
 * A stored change event as a CloudEvents 1.0 JSON document (structured mode):
 * the one rendering the HTTP feed, the Server-Sent Events stream and the NATS
 * relay all send, so a consumer can move between them.
 *
 *   { "specversion": "1.0", "id": "<position>", "source": "<EVENTS_SOURCE>",
 *     "type": "user.created", "subject": "<uid>", "time": "<RFC 3339>",
 *     "datacontenttype": "application/json", "data": { …the user… } }
 *
 * Rendered by concatenation: `data` is stored as the JSON text the API returns
 * (it is never parsed again), and the other members are JSON strings.
 */
import type { StoredEvent } from './event-log.js';

/** The media type of one event in structured mode (CloudEvents JSON format §4). */
export const CLOUDEVENTS_JSON = 'application/cloudevents+json';

/** Renders events for one `source`; the source's JSON text is made once. */
export function cloudEventRenderer(source: string): (event: StoredEvent) => string {
  const prefix = `{"specversion":"1.0","source":${JSON.stringify(source)},"id":"`;
  return (event) =>
    `${prefix}${event.position}","type":"${event.type}","subject":"${event.subject}","time":"${event.time}","datacontenttype":"application/json","data":${event.data}}`;
}
