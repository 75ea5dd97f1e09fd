/**
 * The live tail: every change as it is committed, newest first, pausable. A
 * pause stops the stream and remembers the position; resuming shows what
 * happened meanwhile, then goes on live.
 */
import { describe, type Api } from './api.js';
import { announce, h, isolate, replace } from './dom.js';
import { follow } from './feed-follower.js';
import { dataOf, nameOf, type User, type UserEvent } from './user-names.js';

const SHOWN_MAX = 200;
const VERBS: Record<string, string> = { 'user.created': 'created', 'user.updated': 'changed', 'user.deleted': 'deleted' };

/** Where the feed is now: the Feed-Position of a one-user listing (a cheap read that every store answers at once). */
async function feedEnd(api: Api): Promise<number> {
  const { headers } = await api.request('GET', '/users?limit=1');
  return Number(headers.get('feed-position') ?? 0);
}

function item(event: UserEvent): HTMLElement {
  const data = dataOf(event) as Partial<User> & { erased?: boolean };
  const who = data.username ? nameOf(data as User) : event.subject;
  // Names and ids are isolated (<bdi>): a right-to-left override in a name cannot reorder the words after it.
  const subject = event.type === 'user.deleted' || data.erased ? isolate(who) : h('a', { href: `#/users/${event.subject}` }, isolate(who));
  const by = event.origincredential ? [' by ', isolate(event.origincredential)] : [];
  return h('li', {}, h('time', { datetime: event.time }, event.time.slice(11, 23)), ' ', subject, ` ${VERBS[event.type] ?? event.type}`, ...by, h('span', { class: 'position' }, ` #${event.id}`));
}

/** Renders the tail into `root`; returns the function that stops it (when the operator leaves the view). */
export function feedView(root: HTMLElement, api: Api): () => void {
  const list = h('ol', { id: 'tail', reversed: true });
  // A log region (announced as it grows) holding an ordinary list, so the items keep their list semantics.
  const log = h('div', { role: 'log', 'aria-label': 'Changes, newest first' }, list);
  const state = h('p', { id: 'tail-state', class: 'summary' }, 'Connecting…');
  const pause = h('button', { type: 'button', 'aria-pressed': 'false' }, 'Pause');
  let running: AbortController | undefined;
  let position = 0;
  let stopped = false;
  let paused = false;
  /** Until the feed's end is known there is nothing to follow; a pause before then waits for it too. */
  let ready = false;

  function start(): void {
    if (stopped || paused || !ready) return;
    running?.abort();
    const controller = new AbortController();
    running = controller;
    follow(api, position, controller.signal, {
      event(event) {
        position = Number(event.id);
        list.prepend(item(event));
        while (list.childElementCount > SHOWN_MAX) list.lastElementChild?.remove();
      },
      state(text) {
        state.textContent = text;
      },
    }).catch((error: unknown) => (state.textContent = describe(error)));
  }

  pause.addEventListener('click', () => {
    const pausing = !paused;
    paused = pausing;
    pause.setAttribute('aria-pressed', String(pausing));
    pause.textContent = pausing ? 'Resume' : 'Pause';
    if (pausing) {
      running?.abort();
      state.textContent = ready ? `Paused at #${position}: changes are kept and shown when you resume.` : 'Paused: changes from now on are shown when you resume.';
    } else start();
    announce(pausing ? 'Live changes paused.' : 'Live changes resumed.');
  });

  replace(
    root,
    h('h1', { tabindex: '-1' }, 'Live changes'),
    h('p', { class: 'help' }, 'Every change to the directory as it is committed, from every instance and every door (API, SCIM, imports).'),
    h('div', { class: 'actions' }, pause),
    state,
    log,
  );
  feedEnd(api).then(
    (end) => {
      position = end;
      ready = true;
      start();
    },
    (error: unknown) => (state.textContent = describe(error)),
  );
  return () => {
    stopped = true;
    running?.abort();
  };
}
