/**
 * The operator console: sign in, then find, read, edit and follow users, all
 * through the service's public API with the operator's credential. Views are
 * chosen by the URL fragment (`#/users`, `#/users/<uid>`, `#/changes`), which
 * holds no credential and no personal data.
 */
import { createApi, type ApiError } from './api.js';
import { announce, h, replace } from './dom.js';
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
  const who = info.auth_mode === 'none' ? 'No authentication (AUTH_MODE=none)' : `Signed in as ${info.id ?? 'unknown'}`;
  const out = h('button', { type: 'button' }, 'Sign out');
  out.addEventListener('click', () => end('Signed out.'));
  replace(account, h('span', {}, who, h('span', { class: 'scopes' }, ` (${info.scopes.join(', ')})`)), ' ', info.auth_mode === 'none' ? null : out);
  nav.hidden = false;
  announce(who);
  route();
}

/** Shows the view the fragment names and moves focus to its heading, as a page load would. */
function route(): void {
  // `#main` is the skip link's target, not a view.
  if (session === undefined || (location.hash !== '' && !location.hash.startsWith('#/'))) return;
  leaveView?.();
  leaveView = undefined;
  const path = location.hash.replace(/^#/, '') || '/users';
  const user = /^\/users\/([0-9a-f-]{36})$/.exec(path);
  for (const link of nav.querySelectorAll('a')) link.toggleAttribute('aria-current', link.getAttribute('href') === `#${path}`);
  if (user) userView(main, api, session, user[1] as string, () => (location.hash = '#/users'));
  else if (path === '/changes') leaveView = feedView(main, api);
  else searchView(main, api, (uid) => (location.hash = `#/users/${uid}`));
  main.querySelector('h1')?.focus();
}

window.addEventListener('hashchange', route);

// Without authentication the service answers /credential to anyone; otherwise a credential
// kept for this tab (if the operator asked) is tried before the sign-in screen.
signIn(api, keptToken(), false).then(begin, () => end());
