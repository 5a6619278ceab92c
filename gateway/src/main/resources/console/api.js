// The console's only way to the server: the public admin API (/admin/v1) and the Iceberg REST
// routes (/iceberg/v1), with the signed-in token. The token lives in this tab's sessionStorage
// only; nothing else the user types (secrets in forms) is kept.

const KEY = 'icegate.token';

export function token() {
  return sessionStorage.getItem(KEY);
}

export function setToken(value) {
  sessionStorage.setItem(KEY, value);
}

export function clearToken() {
  sessionStorage.removeItem(KEY);
}

/** An error answer: status, stable code and message from problem+json or an Iceberg ErrorResponse. */
export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details || [];
  }
}

async function errorOf(response) {
  let body = null;
  try {
    body = await response.json();
  } catch (e) {
    // not JSON: the status alone
  }
  if (body && body.code && body.detail !== undefined) {
    return new ApiError(response.status, String(body.code), String(body.detail), body.details);
  }
  if (body && body.error) {
    return new ApiError(response.status, String(body.error.type || body.error.code),
      String(body.error.message));
  }
  return new ApiError(response.status, 'HTTP_' + response.status,
    response.statusText || 'the server answered ' + response.status);
}

/**
 * Calls the server. options: method, body (JSON-encoded), headers. Answers {status, etag, body,
 * headers}; throws ApiError on a non-2xx answer.
 */
export async function call(path, options = {}) {
  const headers = Object.assign({ Accept: 'application/json' }, options.headers || {});
  const t = token();
  if (t) headers.Authorization = 'Bearer ' + t;
  let body;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response;
  try {
    response = await fetch(path, { method: options.method || 'GET', headers, body,
      cache: 'no-store', credentials: 'omit' });
  } catch (e) {
    throw new ApiError(0, 'NETWORK', 'the server could not be reached: ' + e.message);
  }
  if (!response.ok) throw await errorOf(response);
  const type = response.headers.get('Content-Type') || '';
  const parsed = response.status === 204 ? null
    : type.includes('json') ? await response.json() : await response.text();
  return { status: response.status, etag: response.headers.get('ETag'), body: parsed,
    headers: response.headers };
}

/** GET, answering the body only. */
export async function get(path) {
  return (await call(path)).body;
}

/** A query string of the non-empty members of params. */
export function query(params) {
  const parts = Object.entries(params).filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(v));
  return parts.length ? '?' + parts.join('&') : '';
}

/** The path of an account's admin collection, e.g. account('catalogs'). */
export function account(...segments) {
  return '/admin/v1/accounts/' + encodeURIComponent(session.who.accountId)
    + segments.map(s => '/' + encodeURIComponent(s)).join('');
}

/** The Iceberg namespace path parameter: segments joined with the unit separator. */
export function icebergNamespace(segments) {
  return encodeURIComponent(segments.join('\u001f'));
}

/** Who is signed in ({accountId, accountName, role, serverAdmin}), set by signIn. */
export const session = { who: null };

export function isAdmin() {
  return session.who && (session.who.serverAdmin || session.who.role === 'admin');
}

/** Checks value with GET /admin/v1/token; keeps it only when the server accepts it. */
export async function signIn(value) {
  setToken(value);
  try {
    session.who = await get('/admin/v1/token');
  } catch (e) {
    clearToken();
    session.who = null;
    throw e;
  }
  return session.who;
}

/** Pages through a list route (items + nextPageToken) up to limit items. */
export async function all(path, member = 'items', limit = 1000) {
  const out = [];
  let pageToken = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const body = await get(path + (pageToken ? sep + 'pageToken=' + encodeURIComponent(pageToken) : ''));
    out.push(...(body[member] || []));
    pageToken = body.nextPageToken || body['next-page-token'] || null;
  } while (pageToken && out.length < limit);
  return out;
}
