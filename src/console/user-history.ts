/**
 * A user's history from the change feed (`GET /events?subject=<uid>`): when,
 * what changed (the fields that differ from the event before), who (the
 * credential and the door the change came through).
 */
import { describe, nextPage, type Api } from './api.js';
import { h, isolate, replace } from './dom.js';
import { dataOf, type UserEvent } from './user-names.js';

const HIDDEN = new Set(['version', 'updated_at', 'created_at', 'uid']);
const VERBS: Record<UserEvent['type'], string> = { 'user.created': 'Created', 'user.updated': 'Changed', 'user.deleted': 'Deleted' };

/** The fields whose values differ between two versions of a user (order of the later one). */
function changedFields(before: Record<string, unknown> | undefined, after: Record<string, unknown>): string[] {
  if (before === undefined || before.erased || after.erased) return [];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => !HIDDEN.has(key) && JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

/** Who made a change, with the credential's and client's ids isolated (they come from tokens). */
function whoOf(event: UserEvent): (string | HTMLElement)[] {
  const door = event.origininterface ? ` via ${event.origininterface === 'rest' ? 'the API' : event.origininterface === 'scim' ? 'SCIM' : 'an import'}` : '';
  const client = event.originclient ? [' (client ', isolate(event.originclient), ')'] : [];
  return event.origincredential ? [isolate(event.origincredential), ...client, door] : [door.trim() || 'unknown'];
}

export function historySection(api: Api, uid: string): HTMLElement {
  const body = h('div', { 'aria-live': 'polite', 'aria-busy': 'true' }, h('p', {}, 'Reading the change feed…'));
  const section = h('section', { 'aria-labelledby': 'history-title', class: 'history' }, h('h2', { id: 'history-title' }, 'History'), body);
  const events: UserEvent[] = [];

  async function readAll(): Promise<void> {
    // A user's events are few; the pages are walked until one is not full.
    let path: string | undefined = `/events?subject=${uid}&limit=1000`;
    while (path !== undefined) {
      const { body: page, headers }: { body: UserEvent[]; headers: Headers } = await api.request<UserEvent[]>('GET', path);
      events.push(...page);
      path = page.length === 1000 ? nextPage(headers) : undefined;
    }
  }

  readAll().then(
    () => {
      body.removeAttribute('aria-busy');
      if (events.length === 0) return replace(body, h('p', {}, 'No change of this user is left in the feed (retention may have removed older events).'));
      const rows = events.map((event, index) => {
        const previous = events[index - 1];
        const fields = event.type === 'user.updated' ? changedFields(previous && dataOf(previous), dataOf(event)) : [];
        const what = dataOf(event).erased ? `${VERBS[event.type]} (data erased since the deletion)` : fields.length > 0 ? `${VERBS[event.type]}: ${fields.join(', ')}` : VERBS[event.type];
        return h('tr', {}, h('td', {}, h('time', { datetime: event.time }, event.time.replace('T', ' ').replace('Z', ' UTC'))), h('td', {}, what), h('td', {}, String(event.data.version)), h('td', {}, ...whoOf(event)));
      });
      replace(
        body,
        h(
          'table',
          {},
          h('caption', { class: 'visually-hidden' }, 'Changes of this user, newest first'),
          h('thead', {}, h('tr', {}, ...['When', 'What', 'Version', 'By'].map((title) => h('th', { scope: 'col' }, title)))),
          h('tbody', {}, ...rows.reverse()),
        ),
      );
    },
    (error: unknown) => {
      body.removeAttribute('aria-busy');
      replace(body, h('p', { class: 'error' }, describe(error)));
    },
  );
  return section;
}
