// The console's shell: sign-in (form or #token=...), navigation, hash routes and error display.
import { h, fill } from './dom.js';
import { ApiError, clearToken, session, setToken, signIn, token } from './api.js';
import { errorBox } from './errors.js';
import * as catalogs from './catalogs.js';
import * as tables from './tables.js';
import * as integrations from './integrations.js';
import * as overlays from './overlays.js';
import * as map from './map.js';
import * as health from './health.js';

// [pattern, view]; a view is (main, ...captures) => Promise.
const ROUTES = [
  [/^\/catalogs$/, catalogs.list],
  [/^\/catalogs\/([^/]+)$/, catalogs.detail],
  [/^\/catalogs\/([^/]+)\/tables\/([^/]+)\/([^/]+)$/, tables.detail],
  [/^\/catalogs\/([^/]+)\/views\/([^/]+)\/([^/]+)$/, tables.view],
  [/^\/integrations$/, integrations.list],
  [/^\/integrations\/([^/]+)$/, integrations.detail],
  [/^\/overlays$/, overlays.list],
  [/^\/overlays\/([^/]+)$/, overlays.detail],
  [/^\/map$/, map.render],
  [/^\/health$/, health.render],
];

const main = () => document.getElementById('main');

function showSignIn(problem) {
  document.getElementById('nav').hidden = true;
  document.getElementById('sign-out').hidden = true;
  fill(document.getElementById('who'));
  const input = h('input#token', { type: 'password', name: 'token', autocomplete: 'off',
    required: true, 'aria-describedby': 'token-hint' });
  const form = h('form.signin', { 'aria-labelledby': 'signin-title' },
    h('h1#signin-title', {}, 'Sign in'),
    h('label.field', {}, h('span.label', {}, 'icegate token'), input),
    h('p.hint#token-hint', {}, 'An admin-API bearer token. It stays in this tab only.'),
    problem ? errorBox(problem) : null,
    h('button#signin', { type: 'submit' }, 'Sign in'));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    try {
      await signIn(input.value.trim());
      location.hash = '#/catalogs';
      await route();
    } catch (e) {
      showSignIn(e.status === 401 ? new ApiError(401, e.code,
        'This token was refused: ' + e.message) : e);
    }
  });
  fill(main(), form);
  input.focus();
}

function showWho() {
  const who = session.who;
  document.getElementById('nav').hidden = false;
  document.getElementById('sign-out').hidden = false;
  fill(document.getElementById('who'), who.accountName + ' · ' + who.role
    + (who.serverAdmin ? ' · server admin' : ''));
  document.body.classList.toggle('reader', !(who.serverAdmin || who.role === 'admin'));
}

/** #token=... signs in (scripted use) and leaves the address bar without it. */
function takeFragmentToken() {
  const fragment = location.hash.match(/^#token=(.+)$/);
  if (!fragment) return;
  setToken(decodeURIComponent(fragment[1]));
  session.who = null;
  history.replaceState(null, '', location.pathname + location.search + '#/catalogs');
}

async function route() {
  takeFragmentToken();
  if (!session.who) {
    if (!token()) return showSignIn();
    try {
      await signIn(token());
    } catch (e) {
      return showSignIn(e);
    }
  }
  showWho();
  const path = location.hash.replace(/^#/, '') || '/catalogs';
  for (const [pattern, view] of ROUTES) {
    const match = pattern.exec(path);
    if (!match) continue;
    const captures = match.slice(1).map(decodeURIComponent);
    for (const a of document.querySelectorAll('#nav a')) {
      a.toggleAttribute('aria-current', path.startsWith(a.getAttribute('href').slice(1)));
    }
    const target = fill(main(), h('p.loading', {}, 'Loading…'));
    try {
      await view(target, ...captures);
    } catch (e) {
      fill(target, errorBox(e));
    }
    return;
  }
  fill(main(), errorBox(new Error('no such page: ' + path)));
}

function start() {
  document.getElementById('sign-out').addEventListener('click', () => {
    clearToken();
    session.who = null;
    history.replaceState(null, '', location.pathname);
    showSignIn();
  });
  window.addEventListener('hashchange', route);
  route();
}

start();
