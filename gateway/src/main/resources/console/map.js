// The federation map: Integrations -> Overlays -> Catalogs as one SVG, each Overlay coloured by
// its health (schedule state and lag where the server has the schedule route).
import { h, fill } from './dom.js';
import { account, all, get } from './api.js';
import { svg } from './charts.js';
import { schedule } from './schedules.js';

const COLUMN = 300;
const ROW = 56;

export async function render(main) {
  const [integrations, overlays, catalogs] = await Promise.all([
    all(account('integrations')), all(account('overlays')), all(account('catalogs'))]);
  const health = await Promise.all(overlays.map(async o => ({
    schedule: await schedule('overlays', o.id).catch(e => ({ state: 'error', lastError: e.message })),
    run: await lastRun(o.id),
  })));
  const rows = Math.max(integrations.length, overlays.length, catalogs.length, 1);
  const width = COLUMN * 3 + 40;
  const height = rows * ROW + 50;
  const title = `Federation map: ${integrations.length} integrations, ${overlays.length} overlays, ${catalogs.length} catalogs`;
  const picture = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': title,
    class: 'map', id: 'federation-map' }, svg('title', {}, title));
  const at = new Map();
  const column = (items, x, label, name, href, extra) => {
    picture.appendChild(svg('text', { x, y: 20, class: 'heading' }, label));
    items.forEach((item, i) => {
      const y = 35 + i * ROW;
      at.set(item.id, { x, y });
      const info = extra ? extra(item, i) : { css: 'node', detail: '' };
      const anchor = svg('a', { href: href(item) },
        svg('rect', { x, y, width: COLUMN - 50, height: ROW - 16, rx: 6, class: info.css }),
        svg('text', { x: x + 8, y: y + 17, class: 'label' }, truncate(name(item))),
        svg('text', { x: x + 8, y: y + 32, class: 'detail' }, info.detail),
        svg('title', {}, name(item) + (info.detail ? ' — ' + info.detail : '')));
      picture.appendChild(anchor);
    });
  };
  column(integrations, 10, 'Integrations', i => i.displayName, i => '#/integrations/' + encodeURIComponent(i.id),
    i => ({ css: 'node', detail: i.type }));
  column(overlays, 10 + COLUMN, 'Overlays', o => o.displayName, o => '#/overlays/' + encodeURIComponent(o.id),
    (o, i) => overlayHealth(health[i]));
  column(catalogs, 10 + 2 * COLUMN, 'Catalogs', c => c.name, c => '#/catalogs/' + encodeURIComponent(c.id));
  for (const o of overlays) {
    edge(picture, at.get(o.integrationId), at.get(o.id));
    edge(picture, at.get(o.id), at.get(o.catalogId));
  }
  fill(main, h('h1', {}, 'Federation map'), picture,
    h('p.hint', {}, 'Green: last run succeeded; amber: failed tables, backoff or paused; red: failing; '
      + 'grey: manual or unknown. Last runs are those started from this tab.'));
}

/** The operation of the last reconcile started from this tab, or null. */
async function lastRun(id) {
  const operation = sessionStorage.getItem('icegate.operation.' + id);
  if (!operation) return null;
  try {
    return await get(account('operations', operation));
  } catch (e) {
    return null;
  }
}

/**
 * An Overlay's box: the schedule's state and lag where the server has the schedule route, the
 * last run's state and failed tables (validation or capture) where this tab started one.
 */
function overlayHealth({ schedule: s, run }) {
  const report = run && run.report;
  const failedTables = report ? (report.validationFailed || 0) + (report.captureFailed || 0) : 0;
  const parts = [s ? s.state : 'manual'];
  if (s && s.lagMillis !== null && s.lagMillis !== undefined) parts.push('lag ' + Math.round(s.lagMillis / 1000) + ' s');
  if (run) parts.push(run.state.toLowerCase());
  if (failedTables) parts.push(failedTables + ' failed table' + (failedTables > 1 ? 's' : ''));
  const failing = (s && s.lastError) || (run && run.state === 'FAILED');
  const warn = failedTables > 0 || (s && (s.state === 'backoff' || s.state === 'paused'));
  const healthy = (s && s.lastSuccessAt) || (run && run.state === 'SUCCEEDED');
  const css = failing ? 'node failing' : warn ? 'node warn' : healthy ? 'node healthy' : 'node manual';
  return { css, detail: parts.join(' · ') };
}

function edge(picture, from, to) {
  if (!from || !to) return;
  const x1 = from.x + COLUMN - 50;
  const y1 = from.y + (ROW - 16) / 2;
  const y2 = to.y + (ROW - 16) / 2;
  const mid = (x1 + to.x) / 2;
  picture.insertBefore(svg('path', { d: `M${x1},${y1} C${mid},${y1} ${mid},${y2} ${to.x},${y2}`, class: 'edge' }),
    picture.children[1] || null);
}

function truncate(text) {
  const s = String(text);
  return s.length > 24 ? s.slice(0, 23) + '…' : s;
}
