// The server's REST API (Docs/openapi.json). Every failure becomes an ApiError carrying the
// server's code and message ({"error": {"code", "message"}}), or says the server is unreachable.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// Called with the error when the server wants the token (401); set by main.js.
let onUnauthorized = () => {};
export function setUnauthorizedHandler(handler) {
  onUnauthorized = handler;
}

export async function request(method, path, body) {
  const init = { method, headers: {}, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(0, 'unreachable', `the Meshport server does not answer (${error.message})`);
  }
  const text = await response.text();
  let json = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      throw new ApiError(response.status, 'bad_response', `${method} ${path}: the answer is not JSON (HTTP ${response.status})`);
    }
  }
  if (!response.ok) {
    const error = json?.error
      ? new ApiError(response.status, json.error.code, json.error.message)
      : new ApiError(response.status, 'http_error', `${method} ${path}: HTTP ${response.status}`);
    if (response.status === 401) onUnauthorized(error);
    throw error;
  }
  return json;
}

export const get = (path) => request('GET', path);
export const post = (path, body = {}) => request('POST', path, body);
export const put = (path, body) => request('PUT', path, body);
export const del = (path) => request('DELETE', path);

// Paths of one radio's routes: radioPath('0', 'contacts', key) -> /api/radios/0/contacts/KEY
export function radioPath(radio, ...parts) {
  return ['/api/radios', ...[radio, ...parts].map((p) => encodeURIComponent(String(p)))].join('/');
}

export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, v);
  const text = q.toString();
  return text ? `?${text}` : '';
}
