/**
 * Find a person: search as you type (every word of `q` matches the start of a
 * word of a name, the username or the email), filters, pages through
 * `Link: rel="next"`, and opening a user by uid or by any key. A keystroke
 * cancels the request still running for the previous one, so only the last
 * answer is shown.
 */
import { describe, nextPage, type Api } from './api.js';
import { announce, h, replace } from './dom.js';
import { nameOf, type User } from './user-names.js';

/** Wait this long after a keystroke before asking: typing a word sends one request, not one per letter. */
const TYPING_PAUSE_MS = 80;
const PAGE_SIZE = 20;
const KEYS = ['username', 'email_address', 'legacy_id', 'external_id'];
const UID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Kept while the console is open, so returning from a user shows the same search. */
const state = { q: '', active: '', department: '', sort: '' };

function field(id: string, label: string, control: HTMLElement): HTMLElement {
  return h('div', { class: 'field' }, h('label', { for: id }, label), control);
}

function select(id: string, options: [string, string][], value: string): HTMLSelectElement {
  return h('select', { id, name: id }, ...options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)));
}

export function searchView(root: HTMLElement, api: Api, open: (uid: string) => void): void {
  const q = h('input', { id: 'q', name: 'q', type: 'search', autocomplete: 'off', spellcheck: 'false', value: state.q, 'aria-describedby': 'q-help' });
  const active = select('active', [['', 'Any'], ['true', 'Active'], ['false', 'Deactivated']], state.active);
  const department = h('input', { id: 'department', name: 'department', type: 'text', autocomplete: 'off', value: state.department });
  const sort = select('sort', [['', 'Best match'], ['family_name,given_name', 'Family name'], ['username', 'Username'], ['-updated_at', 'Recently changed'], ['-created_at', 'Recently created']], state.sort);
  const results = h('div', { id: 'results' });
  const summary = h('p', { id: 'results-summary', class: 'summary' });
  const previous = h('button', { type: 'button', disabled: true }, 'Previous page');
  const next = h('button', { type: 'button', disabled: true }, 'Next page');

  const key = h('input', { id: 'open-ref', name: 'ref', type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: 'username:alice', 'aria-describedby': 'open-help' });
  const openError = h('p', { class: 'error', role: 'alert' });
  const openForm = h(
    'form',
    { class: 'open', 'aria-label': 'Open a user' },
    field('open-ref', 'Open by uid or key', key),
    h('button', { type: 'submit' }, 'Open'),
    h('p', { id: 'open-help', class: 'help' }, `A uid, or ${KEYS.map((k) => `${k}:…`).join(', ')}.`),
    openError,
  );
  openForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const ref = key.value.trim();
    const colon = ref.indexOf(':');
    if (UID.test(ref.toLowerCase())) return open(ref.toLowerCase());
    if (colon <= 0 || !KEYS.includes(ref.slice(0, colon))) {
      openError.textContent = `Type a uid or a key such as username:alice (${KEYS.join(', ')}).`;
      return key.focus();
    }
    openError.textContent = '';
    const [keyName, value] = [ref.slice(0, colon), ref.slice(colon + 1)];
    // The value is percent-encoded whole: colons, slashes, '%' and '+' in it stay part of the value.
    // external_id is no lookup key of the API (the IdP's id, not the directory's): it is a search filter naming one user at most.
    const found =
      keyName === 'external_id'
        ? api.request<User[]>('GET', `/users?external_id=${encodeURIComponent(value)}&limit=1`).then(({ body }) => {
            if (body[0] === undefined) throw new Error(`No user has the external id ${value}.`);
            return body[0];
          })
        : api.request<User>('GET', `/users/${keyName}:${encodeURIComponent(value)}`).then(({ body }) => body);
    found.then(
      (user) => open(user.uid),
      (error: unknown) => {
        openError.textContent = describe(error);
        key.focus();
      },
    );
  });

  let running: AbortController | undefined;
  let timer: number | undefined;
  /** The pages walked so far: Previous goes back one, a new search starts over. */
  let trail: string[] = [];

  function firstPage(): string {
    const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (state.q.trim() !== '') params.set('q', state.q.trim());
    if (state.active) params.set('active', state.active);
    if (state.department.trim() !== '') params.set('department', state.department.trim());
    if (state.sort) params.set('sort', state.sort);
    return `/users?${params}`;
  }

  function show(users: User[], more: string | undefined): void {
    const start = (trail.length - 1) * PAGE_SIZE + 1;
    const text = users.length === 0 ? 'No user matches.' : `Users ${start}–${start + users.length - 1}${more ? ', more follow' : ''}.`;
    summary.textContent = text;
    announce(text);
    previous.disabled = trail.length <= 1;
    next.disabled = more === undefined;
    next.dataset.href = more ?? '';
    if (users.length === 0) return replace(results);
    const row = (user: User) =>
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, h('a', { href: `#/users/${user.uid}` }, nameOf(user))),
        h('td', {}, user.username),
        h('td', {}, user.email_address),
        h('td', {}, user.department ?? ''),
        h('td', {}, user.active === false ? 'Deactivated' : 'Active'),
      );
    replace(
      results,
      h(
        'table',
        { class: 'results' },
        h('caption', { class: 'visually-hidden' }, 'Matching users'),
        h('thead', {}, h('tr', {}, ...['Name', 'Username', 'Email', 'Department', 'Status'].map((title) => h('th', { scope: 'col' }, title)))),
        h('tbody', {}, ...users.map(row)),
      ),
    );
  }

  function load(path: string): void {
    running?.abort();
    const controller = new AbortController();
    running = controller;
    results.setAttribute('aria-busy', 'true');
    api.request<User[]>('GET', path, { signal: controller.signal }).then(
      ({ body, headers }) => {
        if (controller !== running) return;
        results.removeAttribute('aria-busy');
        show(body, nextPage(headers));
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        results.removeAttribute('aria-busy');
        summary.textContent = describe(error);
        announce(summary.textContent);
      },
    );
  }

  function search(): void {
    state.q = q.value;
    state.active = active.value;
    state.department = department.value;
    state.sort = sort.value;
    trail = [firstPage()];
    load(trail[0] as string);
  }

  const soon = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(search, TYPING_PAUSE_MS);
  };
  q.addEventListener('input', soon);
  department.addEventListener('input', soon);
  active.addEventListener('change', search);
  sort.addEventListener('change', search);
  next.addEventListener('click', () => {
    const href = next.dataset.href;
    if (!href) return;
    trail.push(href);
    load(href);
  });
  previous.addEventListener('click', () => {
    if (trail.length <= 1) return;
    trail.pop();
    load(trail[trail.length - 1] as string);
  });

  const searchForm = h(
    'form',
    { role: 'search', class: 'search', 'aria-label': 'Search users' },
    field('q', 'Search people', q),
    h('p', { id: 'q-help', class: 'help' }, 'Any words of a name, a username or an email address, as you type. Accents and case do not matter.'),
    h('div', { class: 'filters' }, field('active', 'Status', active), field('department', 'Department', department), field('sort', 'Order', sort)),
  );
  searchForm.addEventListener('submit', (event) => {
    event.preventDefault();
    window.clearTimeout(timer);
    search();
  });

  replace(
    root,
    h('h1', { tabindex: '-1' }, 'Users'),
    searchForm,
    openForm,
    h('section', { 'aria-labelledby': 'results-title' }, h('h2', { id: 'results-title' }, 'Results'), summary, results, h('div', { class: 'pager' }, previous, next)),
  );
  search();
}
