// Overlays: list, create with include/exclude picked from the Integration's discovery, reconcile
// with live progress (the asynchronous operation, polled), its report with held objects, its
// refresh demand and schedule state where the server has the schedule route, pause and resume.
import { h, fill, table, facts, field, link, namespaceText } from './dom.js';
import { account, all, call, get, isAdmin } from './api.js';
import { onSubmit, outcome, writeSection } from './forms.js';
import { errorBox } from './errors.js';
import { discover } from './integrations.js';
import { demandText, overlayDemand, overlayScheduleText, overlayScheduleView, pauseButton, schedule,
  scheduleCell } from './schedules.js';

const POLL_MILLIS = 400;

export async function list(main) {
  const [overlays, integrations, catalogs] = await Promise.all([
    all(account('overlays')), all(account('integrations')), all(account('catalogs'))]);
  const names = new Map([...integrations, ...catalogs].map(r => [r.id, r.displayName || r.name]));
  fill(main, h('h1', {}, 'Overlays'),
    table([
      ['Name', o => link('/overlays/' + encodeURIComponent(o.id), o.displayName)],
      ['Integration', o => link('/integrations/' + encodeURIComponent(o.integrationId), names.get(o.integrationId) || o.integrationId)],
      ['Catalog', o => link('/catalogs/' + encodeURIComponent(o.catalogId), names.get(o.catalogId) || o.catalogId)],
      ['Include', o => selection(o.includeNamespaces, 'everything')],
      ['Exclude', o => selection(o.excludeNamespaces, 'nothing')],
      ['Refresh', o => demandText(o)],
      ['Schedule', o => scheduleCell('overlays', o.id, overlayScheduleText)],
    ], overlays),
    isAdmin() ? createForm(integrations, catalogs) : null);
}

function selection(paths, none) {
  return paths && paths.length ? paths.map(namespaceText).join(', ') : none;
}

function createForm(integrations, catalogs) {
  const place = outcome('overlay-created');
  const picks = new Map(); // namespace text -> {segments, choice}
  const picker = segments => {
    const key = namespaceText(segments);
    const select = h('select', { 'aria-label': 'selection of ' + key, class: 'pick' },
      h('option', { value: '' }, '—'), h('option', { value: 'include' }, 'include'),
      h('option', { value: 'exclude' }, 'exclude'));
    select.addEventListener('change', () => picks.set(key, { segments, choice: select.value }));
    return select;
  };
  const integration = h('select#overlay-integration', { name: 'integrationId', required: true },
    h('option', { value: '' }, 'choose…'),
    integrations.map(i => h('option', { value: i.id }, i.displayName)));
  const tree = h('div.picker#picker', {}, h('p.hint', {}, 'Choose an integration to pick namespaces.'));
  integration.addEventListener('change', () => {
    picks.clear();
    if (integration.value) discover(tree, integration.value, [], picker);
  });
  const form = h('form#create-overlay', {},
    field('Display name', h('input', { name: 'displayName', required: true })),
    field('Integration', integration),
    field('Catalog', h('select', { name: 'catalogId', required: true },
      catalogs.map(c => h('option', { value: c.id }, c.name)))),
    h('fieldset', {}, h('legend', {}, 'Namespaces (none included: everything)'), tree),
    h('button', { type: 'submit' }, 'Create overlay'));
  onSubmit(form, place, async data => {
    const chosen = kind => [...picks.values()].filter(p => p.choice === kind).map(p => p.segments);
    const created = await call(account('overlays'), { method: 'POST', body: {
      displayName: data.get('displayName'), integrationId: data.get('integrationId'),
      catalogId: data.get('catalogId'), includeNamespaces: chosen('include'),
      excludeNamespaces: chosen('exclude') } });
    location.hash = '#/overlays/' + encodeURIComponent(created.body.id);
  });
  return writeSection(true, 'Create an overlay', form, place);
}

export async function detail(main, id) {
  const answer = await call(account('overlays', id));
  const o = answer.body;
  const [integration, catalog] = await Promise.all([
    get(account('integrations', o.integrationId)).then(i => i.displayName).catch(() => o.integrationId),
    get(account('catalogs', o.catalogId)).then(c => c.name).catch(() => o.catalogId)]);
  const progress = h('div#reconcile-progress', { role: 'status', 'aria-live': 'polite' });
  const report = h('div#last-report');
  const scheduleView = h('div#schedule');
  const reconcile = h('button#reconcile', { type: 'button' }, 'Reconcile now');
  reconcile.addEventListener('click', async () => {
    reconcile.disabled = true;
    try {
      await run(id, progress, report);
    } finally {
      reconcile.disabled = false;
    }
  });
  fill(main,
    h('p.crumbs', {}, link('/overlays', 'Overlays'), ' / ', o.displayName),
    h('h1', {}, 'Overlay ', h('span.name', {}, o.displayName)),
    facts([['Id', h('code', {}, o.id)],
      ['Integration', link('/integrations/' + encodeURIComponent(o.integrationId), integration)],
      ['Catalog', link('/catalogs/' + encodeURIComponent(o.catalogId), catalog)],
      ['Include', selection(o.includeNamespaces, 'everything')],
      ['Exclude', selection(o.excludeNamespaces, 'nothing')],
      ...overlayDemand(o),
      ['Generation', String(o.generation)], ['Updated', o.updatedAt]]),
    scheduleView,
    writeSection(isAdmin(), 'Refresh', pauseButton('overlay', account('overlays', id), answer,
      () => detail(main, id), 'pause-outcome'), outcome('pause-outcome')),
    writeSection(isAdmin(), 'Reconcile', reconcile, progress),
    h('h2', {}, 'Last report'), report);
  const last = sessionStorage.getItem('icegate.operation.' + id);
  if (last) {
    get(account('operations', last)).then(op => showOperation(progress, report, op))
      .catch(() => fill(report, h('p', {}, 'No report in this tab yet.')));
  } else {
    fill(report, h('p', {}, 'No reconcile run from this tab yet.'));
  }
  await schedule('overlays', id).then(s => fill(scheduleView, s ? overlayScheduleView(s) : ''))
    .catch(e => fill(scheduleView, errorBox(e)));
}

/** Starts an asynchronous reconcile and polls its operation until it ends. */
async function run(id, progress, report) {
  let op;
  try {
    op = (await call(account('overlays', id, 'reconcile'), { method: 'POST',
      headers: { Prefer: 'respond-async' } })).body;
  } catch (e) {
    fill(progress, errorBox(e));
    return;
  }
  sessionStorage.setItem('icegate.operation.' + id, op.id);
  while (op.state === 'RUNNING') {
    showOperation(progress, report, op);
    await new Promise(resolve => setTimeout(resolve, POLL_MILLIS));
    try {
      op = await get(account('operations', op.id));
    } catch (e) {
      fill(progress, errorBox(e));
      return;
    }
  }
  showOperation(progress, report, op);
}

function showOperation(progress, report, op) {
  const counts = op.counts || {};
  fill(progress, h('p', {}, h('span#operation-state', {}, op.state), ' · phase ',
    h('span#operation-phase', {}, op.phase || ''),
    ' · ', Object.entries(counts).map(([k, v]) => k + ' ' + v).join(', ')),
  op.state === 'RUNNING' ? h('progress', { 'aria-label': 'reconcile running' }) : null,
  op.problem ? h('div.error', { role: 'alert' }, h('strong.code', {}, String(op.problem.code || '')),
    h('p.message', {}, String(op.problem.detail || ''))) : null);
  if (op.report) fill(report, reportView(op.report));
}

function reportView(r) {
  const numbers = Object.entries(r).filter(([, v]) => typeof v === 'number');
  return [
    table([['Count', e => e[0]], ['Value', e => String(e[1])]], numbers),
    h('h3', {}, 'Held objects'),
    table([['Kind', x => x.kind], ['Path', x => namespaceText(x.path)], ['Code', x => x.code],
      ['Message', x => x.message]], r.held || []),
    h('h3', {}, 'Warnings'),
    (r.warnings || []).length ? h('ul', {}, r.warnings.map(w => h('li', {}, typeof w === 'string' ? w : JSON.stringify(w))))
      : h('p', {}, 'none'),
  ];
}
