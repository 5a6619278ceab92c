// Refresh demand and schedule state (issue 28) of Overlays and Integrations: what the schedule
// routes answer, shown as they answer it. The browser computes no state of its own (a pause, a
// backoff or the next run are the server's to say: several gateways may share the store, and only
// the server knows its floor and backoff), and pause/resume is a PATCH with If-Match as every edit.
import { h, fill, facts, link, namespaceText, time } from './dom.js';
import { ApiError, account, call, get } from './api.js';
import { errorBox } from './errors.js';

/** The schedule of an Overlay or Integration ('overlays' or 'integrations'), or null when the server has no schedule route. */
export async function schedule(kind, id) {
  try {
    return await get(account(kind, id, 'schedule'));
  } catch (e) {
    if (e.status === 404 || e.status === 405) return null;
    throw e;
  }
}

/** How an Overlay asks to be refreshed, compactly: interval, retention, pause. */
export function demandText(o) {
  const parts = [o.refreshInterval ? 'every ' + o.refreshInterval : 'on request'];
  if (o.retention) parts.push('keep ' + o.retention);
  if (o.paused) parts.push('paused');
  return parts.join(' · ');
}

/** The facts of an Overlay's own refresh settings, as stored. */
export function overlayDemand(o) {
  return [['Refresh interval', o.refreshInterval || 'none (on request only)'],
    ['Retention', o.retention || 'none (the current capture only)'],
    ['Paused', h('span#paused', {}, o.paused ? 'yes' : 'no')]];
}

function lag(millis) {
  return millis === null || millis === undefined ? null : Math.round(millis / 1000) + ' s';
}

/** A stored failure (a problem object, as the API answers errors) shown as the console shows errors. */
function problem(p) {
  if (!p) return null;
  return errorBox(new ApiError(p.status, String(p.code), String(p.detail || ''),
    (p.details || []).map(d => typeof d === 'string' ? d : JSON.stringify(d))), 'last-error');
}

/** An Overlay's schedule route answer. */
export function overlayScheduleView(s) {
  return [h('h2', {}, 'Schedule'), facts([
    ['State', h('span#schedule-state', { class: 'state-' + s.state }, s.state)],
    ['Last success', h('span#last-success', {}, time(s.lastSuccessAt))],
    ['Last attempt', time(s.lastAttemptAt)], ['Next run', h('span#next-run', {}, time(s.nextRunAt))],
    ['Lag', lag(s.lagMillis)], ['Last error', problem(s.lastError)]])];
}

/**
 * An Integration's schedule route answer: its effective plan and scheduler state. names maps
 * Overlay ids to display names (an id without one is shown as it is).
 */
export function integrationScheduleView(s, names = new Map()) {
  return [h('h2', {}, 'Schedule'), facts([
    ['Interval', h('span#schedule-interval', {}, s.interval || 'none (no Overlay asks for a refresh)')],
    ['Retention', h('span#schedule-retention', {}, s.retention || 'none (the current capture only)')],
    ['Scope', s.includeNamespaces && s.includeNamespaces.length
      ? s.includeNamespaces.map(namespaceText).join(', ') : 'the whole tree'],
    ['Overlays with demand', (s.overlays || []).length ? s.overlays.map((id, i) =>
      [i ? ', ' : '', link('/overlays/' + encodeURIComponent(id), names.get(id) || id)]) : 'none'],
    ['Paused', s.paused ? 'yes' : 'no'],
    ['Next run', h('span#next-run', {}, time(s.nextRunAt))],
    ['Last success', h('span#last-success', {}, time(s.lastSuccessAt))],
    // The route answers lastError only while the Integration backs off.
    ['Backing off', s.lastError ? problem(s.lastError) : 'no']])];
}

/** A list cell filled with the schedule's word once the route answers (the list shows at once). */
export function scheduleCell(kind, id, text) {
  const cell = h('span.schedule-cell', { 'data-id': id }, '…');
  schedule(kind, id).then(s => fill(cell, s ? text(s) : '—'))
    .catch(e => fill(cell, h('span.failed', { title: e.message }, e.code)));
  return cell;
}

/** The compact schedule of an Overlay in its list: state, lag. */
export function overlayScheduleText(s) {
  return [h('span', { class: 'state-' + s.state }, s.state),
    s.lagMillis !== null && s.lagMillis !== undefined ? ' · lag ' + lag(s.lagMillis) : ''];
}

/** The compact schedule of an Integration in its list: interval, pause, backoff. */
export function integrationScheduleText(s) {
  return [s.interval ? 'every ' + s.interval : 'on request', s.paused ? ' · paused' : '',
    s.lastError ? h('span.state-backoff', {}, ' · backing off (' + s.lastError.code + ')') : ''];
}

/**
 * Pause or Resume of a resource read as `answer` (its ETag is the If-Match); `reload` renders the
 * page again. A 412 is explained and the page shows the current version, as the other edits do.
 */
export function pauseButton(what, path, answer, reload, placeId) {
  const paused = answer.body.paused === true;
  const button = h('button#pause-toggle', { type: 'button' }, paused ? 'Resume' : 'Pause');
  // The page is built anew after the change: its outcome place and button are found again.
  const show = async (content, rebuild) => {
    if (rebuild) {
      try {
        await reload();
      } catch (e) {
        content = errorBox(e);
      }
    }
    fill(document.getElementById(placeId), content);
    const toggle = document.getElementById('pause-toggle');
    if (toggle) { toggle.disabled = false; toggle.focus(); }
  };
  button.addEventListener('click', async () => {
    button.disabled = true;
    fill(document.getElementById(placeId), h('p.loading', {}, 'Working…'));
    try {
      await call(path, { method: 'PATCH', headers: { 'If-Match': answer.etag },
        body: { paused: !paused } });
    } catch (e) {
      await (e.status === 412 ? show(errorBox(staleVersion(what, e)), true) : show(errorBox(e), false));
      return;
    }
    await show(h('p', {}, paused ? 'Resumed.' : 'Paused.'), true);
  });
  return button;
}

/** The 412 of an edit over another writer's change, said plainly. */
export function staleVersion(what, e) {
  return new ApiError(412, e.code, 'Someone changed this ' + what + ' since you opened it '
    + '(If-Match did not match). The page now shows the current version; make your change again.');
}
