// The federation map: Integrations -> Overlays -> Catalogs as one SVG, each Overlay coloured by
// its health (schedule state and lag where the server has the schedule route).
import { h, fill } from './dom.js';
import { account, all } from './api.js';
import { svg } from './charts.js';
import { schedule } from './overlays.js';

const COLUMN = 240;
const ROW = 56;

export async function render(main) {
  const [integrations, overlays, catalogs] = await Promise.all([
    all(account('integrations')), all(account('overlays')), all(account('catalogs'))]);
  const health = await Promise.all(overlays.map(o => schedule(o.id).catch(e => ({ state: 'error', lastError: e.message }))));
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
        svg('rect', { x, y, width: COLUMN - 60, height: ROW - 16, rx: 6, class: info.css }),
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
    h('p.hint', {}, 'Green: last run succeeded; amber: backoff or paused; red: failing; grey: manual or unknown.'));
}

function overlayHealth(s) {
  if (!s) return { css: 'node manual', detail: 'manual' };
  const lag = s.lagMillis === null || s.lagMillis === undefined ? '' : ' · lag ' + Math.round(s.lagMillis / 1000) + ' s';
  const css = s.lastError ? 'node failing' : s.state === 'backoff' || s.state === 'paused' ? 'node warn'
    : s.lastSuccessAt ? 'node healthy' : 'node manual';
  return { css, detail: s.state + lag };
}

function edge(picture, from, to) {
  if (!from || !to) return;
  const x1 = from.x + COLUMN - 60;
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
