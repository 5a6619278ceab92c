// Integrations: list, create with a form per authentication type, update with If-Match, rotate
// credentials, validate, pause and resume, the schedule (effective plan and state), and browse
// discovery. Secrets typed here are sent once and the form is
// cleared: the page never shows or keeps them.
import { h, fill, table, facts, field, link, namespaceText } from './dom.js';
import { account, all, call, get, isAdmin, query } from './api.js';
import { actionButton, onSubmit, outcome, parseProperties, propertiesInput, writeSection } from './forms.js';
import { errorBox } from './errors.js';
import { integrationScheduleText, integrationScheduleView, pauseButton, schedule, scheduleCell,
  staleVersion } from './schedules.js';

const TYPES = ['ICEBERG_REST', 'UNITY', 'DELTA_SHARING'];

/** Authentication members per type: [member, label, secret?, optional?]. */
const AUTH = {
  bearer: [['token', 'Token', true]],
  'oauth2-client-credentials': [['tokenUri', 'Token URI', false, true], ['clientId', 'Client id'],
    ['clientSecret', 'Client secret', true], ['scope', 'Scope', false, true]],
  'aws-sigv4': [['region', 'Region'], ['signingName', 'Signing name'], ['accessKeyId', 'Access key id'],
    ['secretAccessKey', 'Secret access key', true], ['sessionToken', 'Session token', true, true]],
  'aws-access-keys': [['accessKeyId', 'Access key id'], ['secretAccessKey', 'Secret access key', true],
    ['sessionToken', 'Session token', true, true]],
  'aws-assume-role': [['roleArn', 'Role ARN'], ['externalId', 'External id', false, true],
    ['sessionName', 'Session name', false, true], ['region', 'Region']],
};

/** A fieldset choosing the authentication type and showing that type's members. */
export function authenticationFields() {
  const members = h('div.auth-members');
  const select = h('select#auth-type', { name: 'authType' },
    Object.keys(AUTH).map(t => h('option', { value: t }, t)));
  const show = () => fill(members, AUTH[select.value].map(([name, label, secret, optional]) =>
    field(label + (optional ? ' (optional)' : ''), h('input', { name: 'auth.' + name,
      type: secret ? 'password' : 'text', autocomplete: 'off', required: !optional }),
    secret ? 'write-only: sent once, never shown again' : null)));
  select.addEventListener('change', show);
  show();
  return h('fieldset', {}, h('legend', {}, 'Authentication'), field('Type', select), members);
}

/** Empties a form's secret fields before their one request: the page never keeps them. */
function clearSecrets(form) {
  form.querySelectorAll('input[type=password]').forEach(input => { input.value = ''; });
}

function authenticationOf(data) {
  const auth = { type: data.get('authType') };
  for (const [name] of AUTH[auth.type]) {
    const value = data.get('auth.' + name);
    if (value) auth[name] = value;
  }
  return auth;
}

export async function list(main) {
  const integrations = await all(account('integrations'));
  const place = outcome('integration-created');
  const form = h('form#create-integration', {},
    field('Display name', h('input', { name: 'displayName', required: true })),
    field('Type', h('select', { name: 'type' }, TYPES.map(t => h('option', { value: t }, t)))),
    field('URI', h('input', { name: 'uri', required: true, type: 'url' })),
    field('Properties', propertiesInput('properties'), 'one key=value per line'),
    authenticationFields(),
    h('button', { type: 'submit' }, 'Create integration'));
  onSubmit(form, place, async data => {
    const body = { displayName: data.get('displayName'), type: data.get('type'), uri: data.get('uri'),
      properties: parseProperties(data.get('properties')), authentication: authenticationOf(data) };
    clearSecrets(form);
    const created = await call(account('integrations'), { method: 'POST', body });
    location.hash = '#/integrations/' + encodeURIComponent(created.body.id);
  });
  fill(main, h('h1', {}, 'Integrations'),
    table([
      ['Name', i => link('/integrations/' + encodeURIComponent(i.id), i.displayName)],
      ['Type', i => i.type], ['URI', i => i.uri], ['Authentication', i => i.authentication.type],
      ['Paused', i => i.paused ? 'yes' : 'no'],
      ['Schedule', i => scheduleCell('integrations', i.id, integrationScheduleText)],
    ], integrations),
    writeSection(isAdmin(), 'Create an integration', form, place));
}

export async function detail(main, id) {
  const answer = await call(account('integrations', id));
  const i = answer.body;
  const admin = isAdmin();
  const place = outcome('integration-outcome');
  const validation = h('div#validation');
  const update = h('form#update-integration', {},
    field('Display name', h('input', { name: 'displayName', value: i.displayName, required: true })),
    field('URI', h('input', { name: 'uri', value: i.uri, required: true })),
    field('Properties', propertiesInput('properties', i.properties)),
    h('button', { type: 'submit' }, 'Save'));
  onSubmit(update, place, async data => {
    try {
      await call(account('integrations', id), { method: 'PATCH', headers: { 'If-Match': answer.etag },
        body: { displayName: data.get('displayName'), uri: data.get('uri'),
          properties: parseProperties(data.get('properties')) } });
    } catch (e) {
      if (e.status !== 412) throw e;
      await detail(main, id);
      fill(document.getElementById('integration-outcome'), errorBox(staleVersion('integration', e)));
      return null;
    }
    await detail(main, id);
    return null;
  });
  const rotate = h('form#rotate', {}, authenticationFields(), h('button', { type: 'submit' }, 'Rotate credentials'));
  onSubmit(rotate, place, async data => {
    const auth = authenticationOf(data);
    clearSecrets(rotate);
    await call(account('integrations', id, 'authentication'), { method: 'PUT',
      headers: { 'If-Match': answer.etag }, body: auth });
    await detail(main, id);
  });
  const discovery = h('div#discovery');
  const scheduleView = h('div#schedule');
  fill(main,
    h('p.crumbs', {}, link('/integrations', 'Integrations'), ' / ', i.displayName),
    h('h1', {}, 'Integration ', h('span.name', {}, i.displayName)),
    facts([['Id', h('code', {}, i.id)], ['Type', i.type], ['URI', i.uri],
      ['Authentication', i.authentication.type],
      ['Credentials', i.credentialsConfigured ? 'configured (generation ' + i.credentialGeneration + ')' : 'none'],
      ['Paused', h('span#paused', {}, i.paused ? 'yes' : 'no')],
      ['Generation', String(i.generation)], ['Updated', i.updatedAt]]),
    scheduleView,
    h('h2', {}, 'Properties'),
    table([['Key', p => p[0]], ['Value', p => p[1]]], Object.entries(i.properties || {})),
    admin ? h('section.write', {}, h('h2', {}, 'Validate'),
      actionButton('Validate', validation, () => validate(id), { id: 'validate' }), validation) : null,
    writeSection(admin, 'Refresh', pauseButton('integration', account('integrations', id), answer,
      () => detail(main, id), 'pause-outcome'), outcome('pause-outcome')),
    writeSection(admin, 'Update', update, rotate, place),
    h('h2', {}, 'Discovery'), discovery);
  await Promise.all([discover(discovery, id, []),
    Promise.all([schedule('integrations', id), all(account('overlays'))])
      .then(([s, overlays]) => fill(scheduleView, s ? integrationScheduleView(s,
        new Map(overlays.map(o => [o.id, o.displayName]))) : ''))
      .catch(e => fill(scheduleView, errorBox(e)))]);
}

async function validate(id) {
  const result = (await call(account('integrations', id, 'validate'), { method: 'POST' })).body;
  return [h('p', { class: result.ok ? 'ok' : 'failed', id: 'validation-ok' },
    result.ok ? 'All checks passed.' : 'Some checks did not pass.'),
  table([['Check', c => c.check], ['Status', c => h('span', { class: 'status-' + c.status }, c.status)],
    ['Code', c => c.code || ''], ['Message', c => c.message || '']], result.checks)];
}

/** Upstream namespaces under parent and the objects in parent, each list paged with "More". */
export async function discover(into, id, parent, picker) {
  const nsList = h('ul.namespaces');
  const objList = h('ul.objects');
  fill(into, nsList, parent.length ? objList : null);
  await pages(nsList, account('integrations', id, 'namespaces'),
    { parent: parent.length ? parent.join('\u001f') : null }, 'namespaces', segments => {
      const body = h('div.ns-body');
      const details = h('details', {}, h('summary', {}, namespaceText(segments)), body);
      let loaded = false;
      details.addEventListener('toggle', () => {
        if (details.open && !loaded) { loaded = true; discover(body, id, segments, picker); }
      });
      // The picker stays beside the namespace, visible whether or not it is open.
      return h('li', { class: picker ? 'picked' : null }, picker ? picker(segments) : null, details);
    });
  if (parent.length) {
    await pages(objList, account('integrations', id, 'objects'), { namespace: parent.join('\u001f') },
      'objects', o => h('li', {}, h('span.kind', {}, o.kind + ' '), o.name));
  }
}

async function pages(into, path, params, member, item, pageToken) {
  try {
    const page = await get(path + query(Object.assign({}, params, { pageSize: 50, pageToken })));
    into.querySelectorAll('li.more').forEach(li => li.remove());
    page[member].forEach(x => into.appendChild(item(x)));
    if (page.nextPageToken) {
      into.appendChild(h('li.more', {}, h('button', { type: 'button',
        onclick: () => pages(into, path, params, member, item, page.nextPageToken) }, 'More')));
    } else if (!pageToken && page[member].length === 0) {
      into.appendChild(h('li.empty', {}, 'no ' + member));
    }
  } catch (e) {
    into.appendChild(h('li', {}, errorBox(e)));
  }
}
