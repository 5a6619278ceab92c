// Building DOM nodes. Every string goes in as text (textContent or a text node), never as markup:
// names, properties and error messages come from upstream catalogs and users.

/**
 * h('tag.class#id', {attr: value, onclick: fn}, ...children): an element. Children are nodes,
 * strings (text nodes), arrays of either, or null/false (skipped).
 */
export function h(spec, attrs, ...children) {
  const [tagAndClasses, id] = spec.split('#');
  const [tag, ...classes] = tagAndClasses.split('.');
  const el = document.createElement(tag || 'div');
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(' ');
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else if (name === 'value') el.value = value;
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replaces the children of el. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A table of rows: columns is [[header, row => cell], ...]. */
export function table(columns, rows, caption) {
  return h('table', {},
    caption ? h('caption', {}, caption) : null,
    h('thead', {}, h('tr', {}, columns.map(([title]) => h('th', { scope: 'col' }, title)))),
    h('tbody', {}, rows.length === 0
      ? h('tr', {}, h('td.empty', { colspan: columns.length }, 'nothing here'))
      : rows.map(row => h('tr', {}, columns.map(([, cell]) => h('td', {}, cell(row)))))));
}

/** A definition list of [term, value] pairs. */
export function facts(pairs) {
  return h('dl.facts', {}, pairs.filter(p => p).map(([k, v]) => [h('dt', {}, k),
    h('dd', {}, v === null || v === undefined || v === '' ? '—' : v)]));
}

/** A labelled form field; returns the label wrapping the input. */
export function field(label, input, hint) {
  return h('label.field', {}, h('span.label', {}, label), input,
    hint ? h('span.hint', {}, hint) : null);
}

/** A link to a console route (#/...). */
export function link(route, text) {
  return h('a', { href: '#' + route }, text);
}

export function namespaceText(ns) {
  return Array.isArray(ns) ? ns.join('.') : String(ns);
}

export function time(value) {
  if (value === null || value === undefined) return '—';
  const date = typeof value === 'number' ? new Date(value) : new Date(String(value));
  return isNaN(date) ? String(value) : date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}
