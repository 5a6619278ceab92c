// Catalogs: list, create, properties, and browsing namespaces, tables and views through the
// Iceberg REST routes (the prefix is the Catalog's id).
import { h, fill, table, facts, field, link } from './dom.js';
import { account, all, call, get, icebergNamespace, isAdmin, query } from './api.js';
import { onSubmit, outcome, parseProperties, propertiesInput, writeSection } from './forms.js';
import { errorBox } from './errors.js';

export async function list(main) {
  const catalogs = await all(account('catalogs'));
  const place = outcome('catalog-created');
  const form = h('form#create-catalog', {},
    field('Name', h('input', { name: 'name', required: true })),
    field('Warehouse', h('input', { name: 'warehouse', required: true, placeholder: 's3://bucket/prefix or file:/path' })),
    field('Properties', propertiesInput('properties'), 'one key=value per line'),
    h('button', { type: 'submit' }, 'Create catalog'));
  onSubmit(form, place, async data => {
    const created = await call(account('catalogs'), { method: 'POST', body: {
      name: data.get('name'), warehouse: data.get('warehouse'),
      properties: parseProperties(data.get('properties')) } });
    location.hash = '#/catalogs/' + encodeURIComponent(created.body.id);
  });
  fill(main,
    h('h1', {}, 'Catalogs'),
    table([
      ['Name', c => link('/catalogs/' + encodeURIComponent(c.id), c.name)],
      ['Warehouse', c => c.warehouse],
      ['Properties', c => String(Object.keys(c.properties || {}).length)],
      ['Id', c => h('code', {}, c.id)],
    ], catalogs),
    writeSection(isAdmin(), 'Create a catalog', form, place));
}

export async function detail(main, catalogId) {
  const answer = await call(account('catalogs', catalogId));
  const catalog = answer.body;
  const place = outcome('catalog-saved');
  const form = h('form#catalog-properties', {},
    field('Properties', propertiesInput('properties', catalog.properties), 'one key=value per line'),
    h('button', { type: 'submit' }, 'Save properties'));
  onSubmit(form, place, async data => {
    await call(account('catalogs', catalogId), { method: 'PATCH',
      headers: { 'If-Match': answer.etag }, body: { properties: parseProperties(data.get('properties')) } });
    await detail(main, catalogId);
  });
  const tree = h('div.tree#namespaces');
  fill(main,
    h('p.crumbs', {}, link('/catalogs', 'Catalogs'), ' / ', catalog.name),
    h('h1', {}, 'Catalog ', h('span.name', {}, catalog.name)),
    facts([['Id', h('code', {}, catalog.id)], ['Warehouse', catalog.warehouse],
      ['Iceberg client URI', location.origin + '/iceberg'], ['warehouse=', catalog.name],
      ['Updated', catalog.updatedAt]]),
    h('h2', {}, 'Properties'),
    table([['Key', p => p[0]], ['Value', p => p[1]]], Object.entries(catalog.properties || {})),
    writeSection(isAdmin(), 'Edit properties', form, place),
    h('h2', {}, 'Namespaces'), tree);
  await browse(tree, catalogId, []);
}

function nsPath(catalogId, kind, segments, name) {
  return '/catalogs/' + encodeURIComponent(catalogId) + '/' + kind + '/'
    + encodeURIComponent(segments.join('\u001f')) + '/' + encodeURIComponent(name);
}

/** Lists the namespaces under parent; each opens (a <details>) to its tables, views and children. */
async function browse(into, catalogId, parent) {
  const prefix = '/iceberg/v1/' + encodeURIComponent(catalogId);
  let namespaces;
  try {
    namespaces = await all(prefix + '/namespaces'
      + (parent.length ? '?parent=' + icebergNamespace(parent) : ''), 'namespaces');
  } catch (e) {
    fill(into, errorBox(e));
    return;
  }
  if (!parent.length && namespaces.length === 0) {
    fill(into, h('p.empty', {}, 'No namespaces yet.'));
    return;
  }
  fill(into, h('ul.namespaces', {}, namespaces.map(segments => {
    const body = h('div.ns-body', {}, h('p.loading', {}, 'Loading…'));
    const details = h('details', {}, h('summary', {}, segments[segments.length - 1]), body);
    let loaded = false;
    details.addEventListener('toggle', async () => {
      if (!details.open || loaded) return;
      loaded = true;
      await namespaceContents(body, catalogId, segments);
    });
    return h('li', {}, details);
  })));
}

async function namespaceContents(body, catalogId, segments) {
  const ns = '/iceberg/v1/' + encodeURIComponent(catalogId) + '/namespaces/' + icebergNamespace(segments);
  try {
    // Tables from the admin listing: it also lists the tables hidden from Iceberg clients
    // (failed validation), which is where an admin looks for them.
    const [tables, views] = await Promise.all([
      all(account('catalogs', catalogId, 'tables') + query({ namespace: segments.join('\u001f') })),
      all(ns + '/views', 'identifiers').catch(() => []),
    ]);
    const children = h('div.children');
    fill(body,
      h('ul.objects', {},
        tables.map(t => h('li', {}, h('span.kind', {}, 'table '),
          link(nsPath(catalogId, 'tables', segments, t.name), t.name),
          t.visible === false ? h('span.hidden-table', {}, ' hidden from Iceberg clients') : null)),
        views.map(v => h('li', {}, h('span.kind', {}, 'view '),
          link(nsPath(catalogId, 'views', segments, v.name), v.name))),
        tables.length + views.length === 0 ? h('li.empty', {}, 'no tables or views') : null),
      children);
    await browse(children, catalogId, segments);
  } catch (e) {
    fill(body, errorBox(e));
  }
}

/** The catalog's display name, for breadcrumbs. */
export async function catalogName(catalogId) {
  try {
    return (await get(account('catalogs', catalogId))).name;
  } catch (e) {
    return catalogId;
  }
}
