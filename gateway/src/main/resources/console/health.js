// Health: the server's /readyz and the key figures of /metrics (Prometheus text format).
import { h, fill, table } from './dom.js';
import { errorBox } from './errors.js';

/** Metric families worth a glance; every other sample is under "All samples". */
const KEY = ['icegate_http_requests_total', 'icegate_store_committed_writes_total',
  'icegate_store_conflicts_total', 'icegate_store_too_old_total', 'icegate_store_commit_unknown_total',
  'icegate_overlay_refresh_lag_seconds'];

async function text(path) {
  const response = await fetch(path, { cache: 'no-store', credentials: 'omit' });
  return { status: response.status, body: await response.text() };
}

/** The samples of a Prometheus text exposition: {name, labels, value}. */
export function samples(exposition) {
  const out = [];
  for (const line of exposition.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (m) out.push({ name: m[1], labels: m[2] || '', value: Number(m[3]) });
  }
  return out;
}

export async function render(main) {
  let ready;
  let metrics;
  try {
    [ready, metrics] = await Promise.all([text('/readyz'), text('/metrics')]);
  } catch (e) {
    fill(main, h('h1', {}, 'Health'), errorBox(e));
    return;
  }
  const all = samples(metrics.body);
  const totals = KEY.map(name => {
    const of = all.filter(s => s.name === name);
    return { name, count: of.length, sum: of.reduce((a, s) => a + s.value, 0) };
  }).filter(t => t.count > 0);
  const filter = h('input#metric-filter', { type: 'search', placeholder: 'filter by name' });
  const rows = h('div');
  const show = () => fill(rows, table([['Name', s => s.name], ['Labels', s => s.labels],
    ['Value', s => String(s.value)]], all.filter(s => s.name.includes(filter.value)).slice(0, 500)));
  filter.addEventListener('input', show);
  show();
  fill(main, h('h1', {}, 'Health'),
    h('p', { class: ready.status === 200 ? 'ok' : 'failed', id: 'readyz' },
      'Readiness (/readyz): ', ready.body.trim() || String(ready.status)),
    h('h2', {}, 'Key figures'),
    table([['Metric', t => t.name], ['Series', t => String(t.count)], ['Sum', t => String(t.sum)]], totals),
    h('h2', {}, 'All samples'), h('label.field', {}, h('span.label', {}, 'Filter'), filter), rows);
}
