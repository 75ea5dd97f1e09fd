/**
 * One user: every field, its history, and what the operator's scopes allow:
 * edit (a merge patch sent with If-Match, so a stale edit is refused and shown
 * as a conflict, never written over someone else's change), deactivate or
 * reactivate, delete after a confirmation that names the user.
 */
import { ApiError, describe, type Api } from './api.js';
import { deleteDialog } from './delete-dialog.js';
import { announce, h, isolate, replace } from './dom.js';
import { editForm } from './user-edit.js';
import { display } from './user-fields.js';
import { historySection } from './user-history.js';
import { nameOf, type User } from './user-names.js';
import type { Session } from './session.js';
import { patchUser, readUser, type Tagged } from './user-requests.js';

function details(user: User): HTMLElement {
  const entries = Object.entries(user).map(([key, value]) => {
    const text = display(value);
    return [h('dt', {}, key), h('dd', {}, typeof value === 'object' && value !== null ? h('pre', {}, text) : text === '' ? h('span', { class: 'empty' }, '(none)') : text)];
  });
  return h('dl', { class: 'fields' }, ...entries.flat());
}

export function userView(root: HTMLElement, api: Api, session: Session, uid: string, leave: () => void): void {
  replace(root, h('h1', { tabindex: '-1' }, 'User'), h('p', { 'aria-busy': 'true' }, 'Loading…'));
  readUser(api, uid).then(
    (tagged) => render(tagged),
    (error: unknown) => {
      const missing = error instanceof ApiError && error.status === 404;
      replace(root, h('h1', { tabindex: '-1' }, missing ? 'No such user' : 'User'), h('p', { class: 'error', role: 'alert' }, missing ? `No user has the uid ${uid} (it may have been deleted).` : describe(error)), h('p', {}, h('a', { href: '#/users' }, 'Back to the search')));
      root.querySelector('h1')?.focus();
    },
  );

  function render(current: Tagged, message?: string): void {
    const { user } = current;
    const notice = h('p', { class: 'notice' }, message);
    const actions = h('div', { class: 'actions' });
    const editing = h('div');
    if (session.can('users:write')) {
      const edit = h('button', { type: 'button' }, 'Edit');
      edit.addEventListener('click', () => {
        edit.disabled = true;
        replace(editing, editForm(api, current, (saved, text) => render(saved, text), () => render(current)));
        editing.querySelector('input')?.focus();
      });
      const toggle = h('button', { type: 'button' }, user.active === false ? 'Reactivate' : 'Deactivate');
      toggle.addEventListener('click', () => {
        toggle.disabled = true;
        patchUser(api, current, { active: user.active === false }).then(
          (saved) => render(saved, saved.user.active ? `${nameOf(saved.user)} is active again.` : `${nameOf(saved.user)} is deactivated.`),
          async (error: unknown) => {
            if (error instanceof ApiError && error.status === 412) return render(await readUser(api, uid), 'Someone changed this user since you opened it: nothing was changed. Here is the current version; try again.');
            toggle.disabled = false;
            notice.textContent = describe(error);
          },
        );
      });
      const remove = h('button', { type: 'button', class: 'danger' }, 'Delete…');
      remove.addEventListener('click', () =>
        deleteDialog(api, current, {
          deleted: () => {
            announce(`${nameOf(user)} was deleted.`);
            leave();
          },
          stale: async () => render(await readUser(api, uid), 'Someone changed this user since you opened it: nothing was deleted. Check the current version.'),
          closed: () => remove.focus(),
        }),
      );
      actions.append(edit, toggle, remove);
    }
    replace(
      root,
      h('p', {}, h('a', { href: '#/users' }, '← Back to the search')),
      h('h1', { tabindex: '-1' }, isolate(nameOf(user)), ' ', h('span', { class: user.active === false ? 'badge inactive' : 'badge' }, user.active === false ? 'Deactivated' : 'Active')),
      notice,
      actions,
      editing,
      h('section', { 'aria-labelledby': 'fields-title' }, h('h2', { id: 'fields-title' }, 'Fields'), details(user)),
      historySection(api, user.uid),
    );
    if (message) announce(message);
    root.querySelector('h1')?.focus();
  }
}
