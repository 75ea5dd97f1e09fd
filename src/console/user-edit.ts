/**
 * The edit form: the changed fields become one merge patch, sent with If-Match.
 * A 412 means someone else changed the user first: nothing was written, and the
 * form shows each changed field's value now next to the operator's, to apply
 * again on the current version or to drop.
 */
import { ApiError, describe, type Api } from './api.js';
import { h, replace } from './dom.js';
import { changesOf, EDITABLE, mergePatches, patchOf, valueAt, type Patch } from './user-fields.js';
import { readUser, patchUser, type Tagged } from './user-requests.js';

export function editForm(api: Api, current: Tagged, saved: (tagged: Tagged, message: string) => void, cancel: () => void): HTMLElement {
  const inputs = new Map<string, HTMLInputElement>();
  const rows = EDITABLE.map((field) => {
    const id = `edit-${field.path.replace('.', '-')}`;
    const input = h('input', { id, name: field.path, type: 'text', autocomplete: 'off', spellcheck: 'false', value: valueAt(current.user, field.path), required: !field.nullable });
    inputs.set(field.path, input);
    return h('div', { class: 'field' }, h('label', { for: id }, field.label), input);
  });
  const extra = h('textarea', { id: 'edit-extra', name: 'extra', rows: 3, spellcheck: 'false', 'aria-describedby': 'edit-extra-help' });
  const error = h('div', { class: 'problem', role: 'alert' });
  const save = h('button', { type: 'submit' }, 'Save');
  const discard = h('button', { type: 'button' }, 'Cancel');
  discard.addEventListener('click', cancel);
  const form = h(
    'form',
    { class: 'edit', 'aria-labelledby': 'edit-heading', novalidate: true },
    h('h2', { id: 'edit-heading' }, 'Edit'),
    h('div', { class: 'grid' }, ...rows),
    h('label', { for: 'edit-extra' }, 'More changes (JSON merge patch, optional)'),
    extra,
    h('p', { id: 'edit-extra-help', class: 'help' }, 'For example {"attributes": {"team": "Identity"}}. null removes a field. Applied together with the fields above.'),
    error,
    h('div', { class: 'actions' }, save, discard),
  );

  function patchFromForm(base: Tagged): Patch | undefined {
    // As typed: a field is sent only when its text differs from the stored value, so an untouched field is never rewritten.
    const edited = new Map([...inputs].map(([path, input]) => [path, input.value]));
    const patch = patchOf(base.user, edited);
    if (extra.value.trim() === '') return patch;
    try {
      const more: unknown = JSON.parse(extra.value);
      if (more === null || typeof more !== 'object' || Array.isArray(more)) throw new Error();
      return mergePatches(patch, more as Patch);
    } catch {
      error.textContent = 'More changes must be a JSON object.';
      extra.focus();
      return undefined;
    }
  }

  function send(base: Tagged, patch: Patch): void {
    save.disabled = true;
    patchUser(api, base, patch).then(
      (tagged) => saved(tagged, tagged.user.version === base.user.version ? 'Nothing changed.' : `Saved: version ${tagged.user.version}.`),
      async (failure: unknown) => {
        save.disabled = false;
        if (failure instanceof ApiError && failure.status === 412) return conflict(patch, await readUser(api, base.user.uid));
        replace(error, describe(failure));
      },
    );
  }

  /** The stale edit, next to the current values: nothing was written. */
  function conflict(patch: Patch, now: Tagged): void {
    const apply = h('button', { type: 'button' }, 'Apply my changes to the current version');
    apply.addEventListener('click', () => send(now, patch));
    const drop = h('button', { type: 'button' }, 'Discard my changes');
    drop.addEventListener('click', () => saved(now, 'Your changes were discarded; this is the current version.'));
    const rows = changesOf(patch).map(([path, mine]) => {
      const theirs = EDITABLE.some((f) => f.path === path) ? valueAt(now.user, path) : JSON.stringify((now.user as Record<string, unknown>)[path] ?? null);
      return h('tr', {}, h('th', { scope: 'row' }, path), h('td', {}, mine || '(empty)'), h('td', {}, theirs || '(empty)'));
    });
    replace(
      error,
      h('h3', {}, 'Conflict: this user changed after you opened it'),
      h('p', {}, `Nothing was saved. The user is now at version ${now.user.version} (you edited version ${current.user.version}).`),
      h('table', { class: 'conflict' }, h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Field'), h('th', { scope: 'col' }, 'Your value'), h('th', { scope: 'col' }, 'Current value'))), h('tbody', {}, ...rows)),
      h('div', { class: 'actions' }, apply, drop),
    );
    apply.focus();
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    error.textContent = '';
    const patch = patchFromForm(current);
    if (patch === undefined) return;
    if (Object.keys(patch).length === 0) return saved(current, 'Nothing to save: no field was changed.');
    send(current, patch);
  });
  return form;
}
