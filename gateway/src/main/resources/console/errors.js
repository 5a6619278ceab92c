// An error as the console shows it: the stable code and the message, as text.
import { h } from './dom.js';
import { ApiError } from './api.js';

/**
 * The error box. With an id it shows a stored error (a schedule's last error): the same box, but
 * not a live alert, since nothing just failed.
 */
export function errorBox(error, id) {
  const api = error instanceof ApiError;
  return h('div.error', { role: id ? null : 'alert', id: id || null },
    h('strong.code', {}, api ? error.code : 'Error'),
    api && error.status ? h('span.status', {}, ' (HTTP ' + error.status + ')') : null,
    h('p.message', {}, error.message),
    api && error.details.length ? h('ul', {}, error.details.map(d => h('li', {}, String(d)))) : null);
}
