/**
 * Deleting a user: a modal dialog that names the user and asks for its username
 * typed out before the Delete button works; the DELETE carries If-Match, so a
 * user changed in the meantime is not deleted unseen.
 */
import { ApiError, describe, type Api } from './api.js';
import { h, isolate } from './dom.js';
import { nameOf } from './user-names.js';
import type { Tagged } from './user-requests.js';

export interface DeleteOutcome {
  deleted(): void;
  stale(): void;
  closed(): void;
}

export function deleteDialog(api: Api, current: Tagged, outcome: DeleteOutcome): void {
  const { user } = current;
  const typed = h('input', { id: 'confirm-username', type: 'text', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'delete-what' });
  const confirm = h('button', { type: 'submit', class: 'danger', disabled: true }, `Delete ${user.username}`);
  const cancel = h('button', { type: 'button' }, 'Cancel');
  const error = h('p', { class: 'error', role: 'alert' });
  const dialog = h(
    'dialog',
    { 'aria-labelledby': 'delete-title', 'aria-describedby': 'delete-what' },
    h(
      'form',
      { method: 'dialog' },
      h('h2', { id: 'delete-title' }, 'Delete ', isolate(nameOf(user)), '?'),
      // Every value from the record is isolated: a right-to-left override in a name cannot reorder this sentence.
      h('p', { id: 'delete-what' }, 'This deletes ', isolate(nameOf(user)), ' (username ', isolate(user.username), ', ', isolate(user.email_address), ') for good: its keys become free and its data is erased from the change feed. To confirm, type the username ', isolate(user.username), '.'),
      h('label', { for: 'confirm-username' }, 'Username'),
      typed,
      error,
      h('div', { class: 'actions' }, confirm, cancel),
    ),
  );
  typed.addEventListener('input', () => (confirm.disabled = typed.value !== user.username));
  cancel.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    dialog.remove();
    outcome.closed();
  });
  dialog.querySelector('form')?.addEventListener('submit', (event) => {
    event.preventDefault();
    if (typed.value !== user.username) return;
    confirm.disabled = true;
    api.request('DELETE', `/users/${user.uid}`, { headers: { 'if-match': current.etag } }).then(
      () => {
        dialog.remove();
        outcome.deleted();
      },
      (failure: unknown) => {
        if (failure instanceof ApiError && failure.status === 412) {
          dialog.remove();
          return outcome.stale();
        }
        confirm.disabled = false;
        error.textContent = describe(failure);
      },
    );
  });
  document.body.append(dialog);
  dialog.showModal();
  typed.focus();
}
