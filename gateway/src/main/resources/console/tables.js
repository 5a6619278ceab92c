// A table's page: its Iceberg metadata (schema with nested types, partition spec, sort order,
// properties, snapshot history) from the Iceberg routes, and for a materialized table its
// provenance, capture, validation state, error records and visibility override from the admin API.
import { h, fill, table, facts, link, namespaceText, time } from './dom.js';
import { account, call, get, icebergNamespace, isAdmin, query } from './api.js';
import { actionButton, onSubmit, outcome, writeSection } from './forms.js';
import { errorBox } from './errors.js';
import { snapshotChart } from './charts.js';
import { catalogName } from './catalogs.js';

function ibPath(catalogId, kind, segments, name) {
  return '/iceberg/v1/' + encodeURIComponent(catalogId) + '/namespaces/' + icebergNamespace(segments)
    + '/' + kind + '/' + encodeURIComponent(name);
}

function crumbs(catalogId, catalogTitle, segments, name) {
  return h('p.crumbs', {}, link('/catalogs', 'Catalogs'), ' / ',
    link('/catalogs/' + encodeURIComponent(catalogId), catalogTitle), ' / ',
    segments.join('.'), ' / ', name);
}

export async function detail(main, catalogId, nsText, name) {
  const segments = nsText.split('\u001f');
  const title = await catalogName(catalogId);
  const admin = h('section#table-admin', {}, h('p.loading', {}, 'Loading…'));
  const metadata = h('section#table-metadata', {}, h('p.loading', {}, 'Loading…'));
  fill(main, crumbs(catalogId, title, segments, name),
    h('h1', {}, 'Table ', h('span.name#table-name', {}, name)), admin, metadata);
  await Promise.all([
    adminState(admin, catalogId, segments, name),
    get(ibPath(catalogId, 'tables', segments, name))
      .then(loaded => fill(metadata, metadataView(loaded)))
      .catch(e => fill(metadata, h('h2', {}, 'Iceberg metadata'), errorBox(e))),
  ]);
}

export async function view(main, catalogId, nsText, name) {
  const segments = nsText.split('\u001f');
  const loaded = await get(ibPath(catalogId, 'views', segments, name));
  const meta = loaded.metadata;
  const current = meta.versions.find(v => v['version-id'] === meta['current-version-id']) || {};
  const schema = meta.schemas.find(s => s['schema-id'] === current['schema-id']) || meta.schemas[0];
  fill(main, crumbs(catalogId, await catalogName(catalogId), segments, name),
    h('h1', {}, 'View ', h('span.name', {}, name)),
    h('h2', {}, 'SQL'),
    (current.representations || []).map(r => h('figure', {},
      h('figcaption', {}, r.dialect || r.type), h('pre.sql', {}, r.sql))),
    h('h2', {}, 'Schema'), schemaTable(schema),
    h('h2', {}, 'Properties'), propertiesTable(meta.properties));
}

function metadataView(loaded) {
  const meta = loaded.metadata;
  const schema = meta.schemas.find(s => s['schema-id'] === meta['current-schema-id']) || meta.schemas[0];
  const spec = (meta['partition-specs'] || []).find(s => s['spec-id'] === meta['default-spec-id']);
  const order = (meta['sort-orders'] || []).find(s => s['order-id'] === meta['default-sort-order-id']);
  const names = fieldNames(schema);
  const snapshots = meta.snapshots || [];
  return [
    h('h2', {}, 'Schema'), schemaTable(schema),
    h('h2', {}, 'Partition spec'),
    spec && spec.fields.length ? table([['Field', f => f.name], ['Transform', f => f.transform],
      ['Source', f => names.get(f['source-id']) || String(f['source-id'])]], spec.fields)
      : h('p', {}, 'unpartitioned'),
    h('h2', {}, 'Sort order'),
    order && order.fields.length ? table([['Source', f => names.get(f['source-id']) || String(f['source-id'])],
      ['Transform', f => f.transform], ['Direction', f => f.direction],
      ['Nulls', f => f['null-order']]], order.fields) : h('p', {}, 'unsorted'),
    h('h2', {}, 'Properties'), propertiesTable(meta.properties),
    h('h2', {}, 'Snapshot history'),
    snapshots.length ? [snapshotChart(snapshots), table([
      ['Snapshot', s => String(s['snapshot-id'])], ['When', s => time(s['timestamp-ms'])],
      ['Operation', s => (s.summary || {}).operation || ''],
      ['Records', s => (s.summary || {})['total-records'] || ''],
      ['Data files', s => (s.summary || {})['total-data-files'] || '']], snapshots.slice().reverse())]
      : h('p', {}, 'no snapshots'),
    h('p.meta', {}, 'Metadata location: ', h('code', {}, loaded['metadata-location'] || '')),
  ];
}

function propertiesTable(properties) {
  return table([['Key', p => p[0]], ['Value', p => p[1]]], Object.entries(properties || {}));
}

function fieldNames(schema) {
  const names = new Map();
  const walk = (type, prefix) => {
    if (type && type.type === 'struct') {
      type.fields.forEach(f => { names.set(f.id, prefix + f.name); walk(f.type, prefix + f.name + '.'); });
    } else if (type && type.type === 'list') walk(type.element, prefix);
    else if (type && type.type === 'map') { walk(type.key, prefix); walk(type.value, prefix); }
  };
  walk(schema, '');
  return names;
}

/** The schema as rows, nested struct/list/map members indented under their parent. */
function schemaTable(schema) {
  const rows = [];
  const walk = (fields, depth) => fields.forEach(f => {
    rows.push({ depth, id: f.id, name: f.name, type: typeText(f.type), required: f.required, doc: f.doc });
    nested(f.type, depth + 1);
  });
  const nested = (type, depth) => {
    if (!type || typeof type === 'string') return;
    if (type.type === 'struct') walk(type.fields, depth);
    if (type.type === 'list') {
      rows.push({ depth, id: type['element-id'], name: 'element', type: typeText(type.element), required: type['element-required'] });
      nested(type.element, depth + 1);
    }
    if (type.type === 'map') {
      rows.push({ depth, id: type['key-id'], name: 'key', type: typeText(type.key), required: true });
      nested(type.key, depth + 1);
      rows.push({ depth, id: type['value-id'], name: 'value', type: typeText(type.value), required: type['value-required'] });
      nested(type.value, depth + 1);
    }
  };
  walk(schema.fields, 0);
  return h('div.schema#schema', {}, table([
    ['Id', r => String(r.id)],
    ['Field', r => h('span', { class: 'depth-' + Math.min(r.depth, 6) }, r.name)],
    ['Type', r => h('code', {}, r.type)],
    ['Required', r => (r.required ? 'required' : 'optional')],
    ['Doc', r => r.doc || ''],
  ], rows));
}

function typeText(type) {
  if (typeof type === 'string') return type;
  if (type.type === 'struct') return 'struct<' + type.fields.length + ' fields>';
  if (type.type === 'list') return 'list<' + typeText(type.element) + '>';
  if (type.type === 'map') return 'map<' + typeText(type.key) + ', ' + typeText(type.value) + '>';
  return JSON.stringify(type);
}

async function adminState(into, catalogId, segments, name) {
  try {
    const found = await get(account('catalogs', catalogId, 'tables')
      + query({ namespace: segments.join('\u001f'), name }));
    if (!found.items || !found.items.length) {
      fill(into);
      return;
    }
    const tableId = found.items[0].id;
    const answer = await call(account('catalogs', catalogId, 'tables', tableId));
    fill(into, stateView(into, catalogId, tableId, answer));
  } catch (e) {
    fill(into, errorBox(e));
  }
}

function stateView(into, catalogId, tableId, answer) {
  const t = answer.body;
  const provenance = t.provenance;
  const validation = t.validation;
  const reload = () => adminStateById(into, catalogId, tableId);
  const place = outcome('override-outcome');
  const note = h('input#override-note', { name: 'note', placeholder: 'why it is served anyway' });
  const overrideForm = h('form#set-override', {},
    h('label.field', {}, h('span.label', {}, 'Note'), note),
    h('button#override-set', { type: 'submit' }, 'Set visibility override'));
  onSubmit(overrideForm, place, async data => {
    await call(account('catalogs', catalogId, 'tables', tableId, 'visibility-override'),
      { method: 'PUT', headers: { 'If-Match': answer.etag }, body: { note: data.get('note') || null } });
    await reload();
  });
  const clear = actionButton('Clear visibility override', place, async () => {
    await call(account('catalogs', catalogId, 'tables', tableId, 'visibility-override'), { method: 'DELETE' });
    await reload();
  }, { id: 'override-clear' });
  const errorsPlace = h('div#validation-errors');
  const out = [
    h('h2', {}, 'State'),
    facts([
      ['Visible', h('span#visible', {}, t.visible ? 'yes' : 'no')],
      ['Why', t.visibilityReason ? String(t.visibilityReason) : null],
      ['Managed', t.managed ? 'materialized by an Overlay' : 'native'],
      provenance && ['Integration', link('/integrations/' + encodeURIComponent(provenance.integrationId), provenance.integrationId)],
      provenance && ['Overlay', link('/overlays/' + encodeURIComponent(provenance.overlayId), provenance.overlayId)],
      provenance && ['Upstream', namespaceText(provenance.upstreamNamespace || []) + '.' + provenance.upstreamName],
      provenance && ['Format', provenance.tableFormat],
      t.capture && ['Captured', time(t.capture.capturedAt)],
      validation && ['Validation', h('span#validation-state', {}, validation.state
        + ' (' + validation.errorCount + ' error records)')],
      ['Visibility override', h('span#override-state', {}, t.visibilityOverride
        ? 'set ' + time(t.visibilityOverride.setAt) + (t.visibilityOverride.note ? ': ' + t.visibilityOverride.note : '')
        : 'none')],
      t.held && ['Held', t.held.code + ': ' + t.held.message + ' (since ' + time(t.held.since) + ')'],
    ]),
    validation ? [h('h3', {}, 'Validation errors'), errorsPlace] : null,
    // Offered where it matters: a table hidden by validation, or one already overridden.
    t.managed && (!t.visible || t.visibilityOverride) ? writeSection(isAdmin(), 'Visibility override',
      t.visibilityOverride ? clear : overrideForm, place) : null,
  ];
  if (validation) validationErrors(errorsPlace, catalogId, tableId, null);
  return out;
}

async function adminStateById(into, catalogId, tableId) {
  try {
    fill(into, stateView(into, catalogId, tableId, await call(account('catalogs', catalogId, 'tables', tableId))));
  } catch (e) {
    fill(into, errorBox(e));
  }
}

/** One page of validation error records with a "Next page" button. */
async function validationErrors(into, catalogId, tableId, pageToken) {
  try {
    const page = await get(account('catalogs', catalogId, 'tables', tableId, 'validation-errors')
      + query({ pageSize: 20, pageToken }));
    const keys = [...new Set(page.items.flatMap(item => Object.keys(item)))];
    fill(into, table(keys.map(k => [k, item => {
      const v = item[k];
      return v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    }]), page.items),
    page.nextPageToken ? h('button', { type: 'button', onclick: () =>
      validationErrors(into, catalogId, tableId, page.nextPageToken) }, 'Next page') : null);
  } catch (e) {
    fill(into, errorBox(e));
  }
}
