/**
 * The operator console: sign in, then find, read, edit and follow users, all
 * through the service's public API with the operator's credential. Views are
 * chosen by the URL fragment (`#/users`, `#/users/<uid>`, `#/changes`), which
 * holds no credential and no personal data.
 */
import { createApi, type ApiError } from './api.js';
import { announce, h, isolate, replace } from './dom.js';
import { feedView } from './feed-view.js';
import { searchView } from './search-view.js';
import { currentToken, keptToken, signIn, signOut, type Session } from './session.js';
import { signInView } from './sign-in-view.js';
import { userView } from './user-view.js';

const main = document.getElementById('main') as HTMLElement;
const account = document.getElementById('account') as HTMLElement;
const nav = document.getElementById('nav') as HTMLElement;

let session: Session | undefined;
let leaveView: (() => void) | undefined;

const api = createApi(currentToken, (error: ApiError) => {
  // The credential was refused (revoked, expired): back to the sign-in screen, saying why.
  if (session === undefined) return;
  end(`Signed out: ${error.problem.detail ?? 'the service refused the credential'}`);
});

function end(notice?: string): void {
  signOut();
  session = undefined;
  leaveView?.();
  leaveView = undefined;
  replace(account);
  nav.hidden = true;
  signInView(main, api, begin, notice);
}

function begin(started: Session): void {
  session = started;
  const { info } = started;
  const who = info.auth_mode === 'none' ? h('span', {}, 'No authentication (AUTH_MODE=none)') : h('span', {}, 'Signed in as ', isolate(info.id ?? 'unknown'));
  const out = h('button', { type: 'button' }, 'Sign out');
  out.addEventListener('click', () => end('Signed out.'));
  replace(account, h('span', {}, who, h('span', { class: 'scopes' }, ` (${info.scopes.join(', ')})`)), ' ', info.auth_mode === 'none' ? null : out);
  nav.hidden = false;
  announce(who.textContent ?? '');
  route();
}

/**
 * Shows the view the fragment names and moves focus to its heading, as a page load would.
 * Each view draws into a container of its own: an answer that arrives after the operator
 * has moved on lands in a container no longer on the page, so it can never show one user
 * (and its buttons) under another's address.
 */
function route(): void {
  if (session === undefined) return;
  leaveView?.();
  leaveView = undefined;
  const path = location.hash.startsWith('#/') ? location.hash.slice(1) : '/users';
  const user = /^\/users\/([0-9a-fA-F-]{36})$/.exec(path);
  for (const link of nav.querySelectorAll('a')) link.toggleAttribute('aria-current', link.getAttribute('href') === `#${path}`);
  const view = document.createElement('div');
  main.replaceChildren(view);
  if (user) userView(view, api, session, (user[1] as string).toLowerCase(), () => (location.hash = '#/users'));
  else if (path === '/changes') leaveView = feedView(view, api);
  else searchView(view, api, (uid) => (location.hash = `#/users/${uid}`));
  view.querySelector('h1')?.focus();
}

// The skip link moves focus without touching the fragment, which names the view.
document.querySelector('a.skip')?.addEventListener('click', (event) => {
  event.preventDefault();
  main.focus();
});

window.addEventListener('hashchange', route);

/**
 * The service's AUTH_MODE, as its page names it (console-page.ts). Without authentication
 * /credential answers anyone; with it, only a credential kept for this tab (if the operator
 * asked) is tried, so a fresh load asks nothing that fails before the sign-in screen. A page
 * that names no mode this console knows is probed, as it used to be.
 */
const authMode = document.querySelector('meta[name="auth-mode"]')?.getAttribute('content');
const kept = keptToken();
if ((authMode === 'api-key' || authMode === 'jwt') && kept === undefined) end();
else signIn(api, kept, false).then(begin, () => end());
