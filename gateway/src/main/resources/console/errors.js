// An error as the console shows it: the stable code and the message, as text.
import { h } from './dom.js';
import { ApiError } from './api.js';

export function errorBox(error) {
  const api = error instanceof ApiError;
  return h('div.error', { role: 'alert' },
    h('strong.code', {}, api ? error.code : 'Error'),
    api && error.status ? h('span.status', {}, ' (HTTP ' + error.status + ')') : null,
    h('p.message', {}, error.message),
    api && error.details.length ? h('ul', {}, error.details.map(d => h('li', {}, String(d)))) : null);
}
