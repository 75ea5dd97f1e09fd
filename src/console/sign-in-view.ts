/** The sign-in screen: an API key or an OIDC access token, both sent as a bearer token. */
import { describe, type Api } from './api.js';
import { h, replace } from './dom.js';
import { signIn, type Session } from './session.js';

export function signInView(root: HTMLElement, api: Api, onSession: (session: Session) => void, notice?: string): void {
  const error = h('p', { id: 'sign-in-error', class: 'error', role: 'alert' }, notice);
  const secret = h('input', { id: 'credential', name: 'credential', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true, 'aria-describedby': 'credential-help sign-in-error' });
  const keep = h('input', { id: 'keep', name: 'keep', type: 'checkbox' });
  const submit = h('button', { type: 'submit' }, 'Sign in');
  const form = h(
    'form',
    { 'aria-labelledby': 'sign-in-title', novalidate: true },
    h('label', { for: 'credential' }, 'Key or token'),
    secret,
    h('p', { id: 'credential-help', class: 'help' }, 'An API key, or an OIDC access token from your identity provider: both go only in the Authorization header of this console’s requests to this service. It stays in this tab’s memory unless you tick the box below.'),
    h('label', { class: 'choice' }, keep, ' Keep me signed in in this tab (session storage, cleared when the tab closes)'),
    error,
    submit,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = secret.value.trim();
    if (value === '') {
      error.textContent = 'Enter an API key or an access token.';
      secret.focus();
      return;
    }
    submit.disabled = true;
    error.textContent = '';
    signIn(api, value, keep.checked).then(
      (session) => {
        secret.value = '';
        onSession(session);
      },
      (failure: unknown) => {
        submit.disabled = false;
        error.textContent = describe(failure);
        secret.select();
        secret.focus();
      },
    );
  });
  replace(root, h('section', { class: 'sign-in' }, h('h1', { id: 'sign-in-title', tabindex: '-1' }, 'Sign in to the user directory'), form));
  secret.focus();
}
