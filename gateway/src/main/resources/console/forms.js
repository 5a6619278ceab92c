// Form pieces shared by the views: property editors, a result area, and running an action with
// its error shown in place.
import { h, fill } from './dom.js';
import { errorBox } from './errors.js';

/** A textarea of key=value lines. */
export function propertiesInput(name, properties) {
  return h('textarea', { name, rows: 4, spellcheck: 'false',
    value: Object.entries(properties || {}).map(([k, v]) => k + '=' + v).join('\n') });
}

/** The key=value lines of a textarea as an object (blank lines skipped). */
export function parseProperties(text) {
  const out = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const at = line.indexOf('=');
    if (at < 1) throw new Error('a property line needs key=value: ' + line);
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

/** A live region where an action's outcome is shown. */
export function outcome(id) {
  return h('div.outcome', { id, role: 'status', 'aria-live': 'polite' });
}

/**
 * Runs action on submit of form, with its submit button disabled meanwhile; an error is shown in
 * place (code and message), a result by show.
 */
export function onSubmit(form, place, action) {
  form.addEventListener('submit', async event => {
    event.preventDefault();
    const buttons = form.querySelectorAll('button');
    buttons.forEach(b => { b.disabled = true; });
    fill(place, h('p.loading', {}, 'Working…'));
    try {
      const shown = await action(new FormData(form));
      fill(place, shown || '');
    } catch (e) {
      fill(place, errorBox(e));
    } finally {
      buttons.forEach(b => { b.disabled = false; });
    }
  });
  return form;
}

/** A button that runs action, showing its outcome or error in place. */
export function actionButton(label, place, action, attrs = {}) {
  const button = h('button', Object.assign({ type: 'button' }, attrs), label);
  button.addEventListener('click', async () => {
    button.disabled = true;
    fill(place, h('p.loading', {}, 'Working…'));
    try {
      fill(place, (await action()) || '');
    } catch (e) {
      fill(place, errorBox(e));
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

/** A fieldset of the write actions: only for admins (readers see none; the server refuses anyway). */
export function writeSection(isAdmin, title, ...content) {
  if (!isAdmin) return null;
  return h('section.write', { 'aria-label': title }, h('h2', {}, title), content);
}
