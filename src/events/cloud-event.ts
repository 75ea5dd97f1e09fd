/**
 * A stored change event as a CloudEvents 1.0 JSON document (structured mode):
 * the one rendering the HTTP feed, the Server-Sent Events stream and the NATS
 * relay all send, so a consumer can move between them.
 *
 *   { "specversion": "1.0", "id": "<position>", "source": "<EVENTS_SOURCE>",
 *     "type": "user.created", "subject": "<uid>", "time": "<RFC 3339>",
 *     "origininterface": "rest", "origincredential": "<key id>",
 *     "datacontenttype": "application/json", "data": { …the user… } }
 *
 * Rendered by concatenation: `data` is stored as the JSON text the API returns
 * (it is never parsed again), and the other members are JSON strings.
 */
import type { StoredEvent } from './event-log.js';
import type { EventOrigin } from './event-origin.js';

/** The media type of one event in structured mode (CloudEvents JSON format §4). */
export const CLOUDEVENTS_JSON = 'application/cloudevents+json';

/** The origin as CloudEvents extension attributes (lower-case names of at most 20 characters, spec §3.1.1), each followed by a comma. */
function originAttributes(origin: EventOrigin | undefined): string {
  if (origin === undefined) return '';
  let text = `"origininterface":"${origin.interface}",`;
  if (origin.credential !== undefined) text += `"origincredential":${JSON.stringify(origin.credential)},`;
  if (origin.client !== undefined) text += `"originclient":${JSON.stringify(origin.client)},`;
  return text;
}

/** Renders events for one `source`; the source's JSON text is made once. */
export function cloudEventRenderer(source: string): (event: StoredEvent) => string {
  const prefix = `{"specversion":"1.0","source":${JSON.stringify(source)},"id":"`;
  return (event) =>
    `${prefix}${event.position}","type":"${event.type}","subject":"${event.subject}","time":"${event.time}",${originAttributes(event.origin)}"datacontenttype":"application/json","data":${event.data}}`;
}
