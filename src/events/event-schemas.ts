/**
 * Schemas of the change feed (CONTRACT §11): the query of GET /events, one
 * change event as CloudEvents 1.0 JSON, and the route's every answer. The
 * events themselves are rendered as text (cloud-event.ts); these schemas
 * describe them for the OpenAPI document and the tests that validate against it.
 */
import { Type, type Static } from 'typebox';
import { LINKED_PARAMETER_MAX } from '../http/link-query.js';
import { H, operationErrors, response, successHeaders, type HeaderSpec } from '../http/openapi/responses.js';
import { Timestamp, Uid, UserResourceRef, Version } from '../users/user-schemas.js';

export const EVENTS_LIMIT_MAX = 1000;
export const EVENTS_LIMIT_DEFAULT = 100;

/** GET /events query. Unknown, repeated and empty parameters are rejected, as in search. */
export const EventsQuery = Type.Object(
  {
    after: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'Answer the events after this position (default 0: from the oldest kept). Take it from a read of users (`Feed-Position`), the last event you applied, or the `Link: rel="next"` URL. Plain decimal. `Last-Event-ID` overrides it on a stream.',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: EVENTS_LIMIT_MAX,
        description: `Most events in the JSON answer, 1–${EVENTS_LIMIT_MAX}; default ${EVENTS_LIMIT_DEFAULT}. Plain decimal. Not used by a stream.`,
      }),
    ),
    subject: Type.Optional({
      ...Uid,
      // A bare UUID: the `uuid` format alone also takes a `urn:uuid:` prefix, which is no uid.
      pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
      description:
        'Only the events of the user with this uid (its history: created, every change, deleted; erased data once deleted). JSON pages only: a stream refuses it. `Link: rel="next"` starts after the last event of the page, or at `Feed-Position` when the page is not full (no more of its events up to there).',
    }),
    exclude_origin: Type.Optional(
      Type.String({
        minLength: 1,
        // A next-page link repeats it (http/link-query.ts).
        maxLength: LINKED_PARAMETER_MAX,
        description:
          'Leave out the events of one origin: `credential:<id>` (a credential\'s id: an API key\'s id, or a token\'s subject) or `interface:rest`, `interface:scim` or `interface:import`. A consumer that also writes users leaves out its own writes with its own credential\'s id. Events written before origins were kept are never left out. Paging is unchanged: `Link: rel="next"` starts after the last event read, left out or not.',
        examples: ['credential:hr-sync', 'interface:import'],
      }),
    ),
  },
  { additionalProperties: false },
);
export type EventsQuery = Static<typeof EventsQuery>;

const envelope = {
  specversion: Type.Literal('1.0'),
  id: Type.String({ pattern: '^[1-9][0-9]*$', description: 'The event\'s position, in decimal: compare as an integer.' }),
  source: Type.String({ description: 'EVENTS_SOURCE (default `/users`).' }),
  subject: { ...Uid, description: 'The uid of the user the event is about.' },
  time: { ...Timestamp, description: 'When the write committed its change: the user\'s `updated_at` (`created_at` for a create, the deletion time for a delete).' },
  origininterface: Type.Optional(Type.Union([Type.Literal('rest'), Type.Literal('scim'), Type.Literal('import')], { description: 'The door the change came through (CloudEvents extension attribute). Absent on events written before origins were kept.' })),
  origincredential: Type.Optional(Type.String({ description: 'The id of the credential that made the change: an API key\'s id, or a token\'s subject (never a secret). Absent without authentication and for imports.' })),
  originclient: Type.Optional(Type.String({ description: 'The OAuth client the token that made the change was issued to (`azp` or `client_id`), when it is not the subject.' })),
  datacontenttype: Type.Literal('application/json'),
};

/** The data of an event whose user has been deleted since: its personal fields erased (docs/security.md, "Erasure"). */
const ErasedUser = Type.Object(
  { uid: Uid, version: { ...Version, description: 'The version the event carried.' }, erased: Type.Literal(true) },
  { additionalProperties: false, description: 'The user was deleted after this event: every personal field is erased; position, type, subject, time and version are kept.' },
);

/** One change event: CloudEvents 1.0, JSON format (structured mode). */
export const UserEvent = Type.Union(
  [
    Type.Object(
      { ...envelope, type: Type.Union([Type.Literal('user.created'), Type.Literal('user.updated')]), data: Type.Union([UserResourceRef, ErasedUser]) },
      { additionalProperties: false, description: 'A user created or changed: `data` is the user as the API returns it, or, once the user has been deleted, its uid and version with `erased: true`.' },
    ),
    Type.Object(
      {
        ...envelope,
        type: Type.Literal('user.deleted'),
        data: Type.Object({ uid: Uid, version: { ...Version, description: 'The version the user had when deleted.' } }, { additionalProperties: false }),
      },
      { additionalProperties: false, description: 'A user deleted: `data` is its uid and last version.' },
    ),
  ],
  { $id: 'UserEvent' },
);

export const UserEventRef = Type.Ref('UserEvent');

/**
 * On every read of users and of the feed: the change-feed position the answer
 * reflects, so a mirror can list, then follow GET /events after it (docs/events.md).
 */
export const FEED_POSITION = 'feed-position';

/** The position a read reflects (GET /users, GET /users/{ref}, GET /events). */
export const FEED_POSITION_HEADER: HeaderSpec = {
  name: 'Feed-Position',
  description:
    'The change-feed position this answer reflects: every event at or below it is in it (later ones may be too). To mirror, list, then follow GET /events?after= the position of your first read, applying events by version.',
  schema: Type.String({ pattern: '^(0|[1-9][0-9]*)$' }),
  required: true,
};

const EVENT_STREAM_DESCRIPTION = [
  'With `Accept: text/event-stream`: Server-Sent Events, live, until the client leaves.',
  'Each event is `id: <position>` and `data: <the CloudEvent as one JSON line>`; a comment line (`: heartbeat`) comes every EVENTS_HEARTBEAT_S when idle.',
  'Reconnect with `Last-Event-ID: <last id applied>` to resume right after it.',
  'A subscriber that falls more than EVENTS_SUBSCRIBER_BUFFER_BYTES behind is disconnected; it reconnects and resumes.',
].join(' ');

/** Request headers GET /events reads (declared in the document through the route's config). */
export const LAST_EVENT_ID = {
  'last-event-id': Type.String({ description: 'On a stream: the id of the last event applied; overrides `after`. Plain decimal.', examples: ['1042'] }),
};

const HEADERS_OF_PAGE = [H.cacheControl, H.link, FEED_POSITION_HEADER, H.vary];

export const eventsSchema = {
  operationId: 'listEvents',
  summary: 'Read or follow the change feed',
  description:
    'Every committed write, in commit order, as CloudEvents. As JSON: a page of events after `after`, with `Link: rel="next"` to the next page (always sent: poll it). As Server-Sent Events (`Accept: text/event-stream`): live. A position older than retention keeps is a 410: resync from a listing.',
  tags: ['events'],
  querystring: EventsQuery,
  response: {
    200: response({
      description: `Events after the position, in position order (maybe none). ${EVENT_STREAM_DESCRIPTION}`,
      headers: successHeaders('protected', HEADERS_OF_PAGE),
      body: { schema: Type.Array(UserEventRef, { description: 'A CloudEvents JSON batch, in position order.' }) },
      alternatives: [{ mediaType: 'text/event-stream', schema: Type.String({ description: 'Server-Sent Events (see above).' }) }],
    }),
    ...operationErrors({ kind: 'protected', statuses: [410] }),
  },
};
