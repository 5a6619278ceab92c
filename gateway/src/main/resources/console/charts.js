// SVG pictures built with createElementNS and textContent only.
const NS = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes and children (text children become text nodes). */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    el.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * Snapshot history: for each snapshot (oldest first) its total records and total data files
 * from the summary, as two rows of bars each scaled to its own maximum.
 */
export function snapshotChart(snapshots) {
  const points = snapshots.slice().sort((a, b) => a['timestamp-ms'] - b['timestamp-ms']).map(s => ({
    id: String(s['snapshot-id']),
    when: new Date(s['timestamp-ms']).toISOString(),
    operation: (s.summary && s.summary.operation) || '',
    records: Number((s.summary && s.summary['total-records']) || 0),
    files: Number((s.summary && s.summary['total-data-files']) || 0),
  }));
  const width = 640;
  const band = 90;
  const left = 90;
  const slot = (width - left - 10) / Math.max(points.length, 1);
  const bar = Math.max(2, Math.min(40, slot * 0.7));
  const rows = [['records', 'total records', 'bar-records'], ['files', 'total data files', 'bar-files']];
  const title = 'Snapshot history: ' + points.length + ' snapshot(s), records and data files per snapshot';
  const chart = svg('svg', { viewBox: `0 0 ${width} ${rows.length * (band + 20) + 20}`,
    role: 'img', 'aria-label': title, class: 'chart', id: 'snapshot-chart' }, svg('title', {}, title));
  rows.forEach(([key, label, css], row) => {
    const top = 10 + row * (band + 20);
    const max = Math.max(1, ...points.map(p => p[key]));
    chart.appendChild(svg('text', { x: 0, y: top + 12, class: 'axis' }, label));
    chart.appendChild(svg('text', { x: 0, y: top + 28, class: 'axis small' }, 'max ' + max));
    chart.appendChild(svg('line', { x1: left, x2: width - 10, y1: top + band, y2: top + band, class: 'baseline' }));
    points.forEach((p, i) => {
      const height = Math.round((p[key] / max) * (band - 4));
      chart.appendChild(svg('rect', { x: left + i * slot + (slot - bar) / 2, y: top + band - height,
        width: bar, height: Math.max(height, 1), class: css },
      svg('title', {}, `snapshot ${p.id} (${p.operation}, ${p.when}): ${p[key]} ${label}`)));
    });
  });
  return chart;
}
