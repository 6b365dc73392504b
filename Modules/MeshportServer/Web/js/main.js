// The Meshport web UI: the shell (radio picker, connection indicator, sync progress, tabs) and
// the router that mounts one view at a time. Views live in views/, one file each.
import { get, post, radioPath, setUnauthorizedHandler, ApiError } from './api.js';
import { EventStream } from './events.js';
import { h, replace, debounce, shortKey } from './dom.js';
import * as chats from './views/chats.js';
import * as contacts from './views/contacts.js';
import * as map from './views/map.js';
import * as nodes from './views/nodes.js';
import * as packets from './views/packets.js';
import * as region from './views/region.js';
import * as search from './views/search.js';
import * as settings from './views/settings.js';

const $ = (id) => document.getElementById(id);

// Routes: the hash's first segment picks the view; the rest are its parameters.
const ROUTES = {
  chats: { view: chats, tab: 'chats' },
  chat: { view: chats, tab: 'chats' },
  contacts: { view: contacts, tab: 'contacts' },
  map: { view: map, tab: 'map' },
  nodes: { view: nodes, tab: 'nodes' },
  node: { view: nodes, tab: 'nodes' },
  packets: { view: packets, tab: 'packets' },
  region: { view: region, tab: 'region' },
  search: { view: search, tab: 'search' },
  settings: { view: settings, tab: 'settings' },
};

const app = {
  radio: localStorage.getItem('meshport.radio') ?? '0',
  radios: new Map(),
  contacts: new Map(),
  events: new EventStream(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/events`),
  path: (...parts) => radioPath(app.radio, ...parts),
  // A contact's name, or its key's first 12 hex digits while unknown.
  name: (key) => app.contacts.get(key)?.name || shortKey(key),
  navigate: (hash) => {
    if (location.hash === hash) route();
    else location.hash = hash;
  },
  toast,
  refreshUnread: () => refreshUnread(),
  loadContacts: () => loadContacts(),
  get ready() {
    return app.radios.get(app.radio)?.state === 'ready';
  },
};

let current = null;

function route() {
  const [name = 'chats', ...params] = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const entry = ROUTES[name] ?? ROUTES.chats;
  for (const tab of document.querySelectorAll('nav.tabs a')) tab.classList.toggle('active', tab.dataset.tab === entry.tab);
  if (current?.view === entry.view && current.instance.update) {
    current.instance.update(name, params);
    return;
  }
  current?.instance.dispose?.();
  const container = replace($('view'));
  container.dataset.view = entry.tab;
  current = { view: entry.view, instance: entry.view.mount(app, container, name, params) };
}

function remount() {
  current?.instance.dispose?.();
  current = null;
  route();
}

// --- radios, connection and sync ---

async function loadRadios() {
  const list = await get('/api/radios');
  app.radios = new Map(list.map((r) => [r.id, r]));
  if (!app.radios.has(app.radio) && list.length) app.radio = list[0].id;
  renderRadioPicker();
  renderConnection();
}

// The Region tab shows only on a server that reads a region history (serve --history).
async function probeRegion() {
  const server = await get('/api/server');
  $('region-tab').hidden = !server.regionHistory;
}

function renderRadioPicker() {
  const picker = $('radio-picker');
  const list = [...app.radios.values()];
  picker.hidden = list.length < 2;
  replace(picker, list.map((r) => h('option', { value: r.id, selected: r.id === app.radio }, r.name || r.url)));
  $('radio-name').textContent = list.length === 1 ? (list[0].name || list[0].url) : '';
}

const STATE_LABELS = {
  ready: 'connected',
  initializing: 'syncing',
  connecting: 'connecting',
  reconnecting: 'reconnecting',
  disconnected: 'disconnected',
};

function renderConnection() {
  const indicator = $('connection');
  const radio = app.radios.get(app.radio);
  let state;
  let label;
  let detail;
  if (app.events.state !== 'open') {
    state = 'offline';
    label = app.events.state === 'connecting' ? 'connecting to server' : 'server unreachable';
    detail = 'the live connection to the Meshport server is down; retrying';
  } else if (!radio) {
    state = 'offline';
    label = 'no radio';
  } else {
    state = radio.state;
    label = STATE_LABELS[radio.state] ?? radio.state;
    detail = [radio.url, radio.lastError].filter(Boolean).join(': ');
  }
  indicator.dataset.state = state;
  $('connection-label').textContent = label;
  indicator.title = detail ?? '';
  if (radio?.state === 'ready') hideSyncSoon();
}

const SYNC_LABELS = {
  selfInfo: 'reading the radio',
  deviceInfo: 'reading the device',
  clock: 'setting the clock',
  contacts: 'contacts',
  channels: 'channels',
  messages: 'messages',
};

function showSync(sync) {
  // Once ready, the session still reports each message it drains: that is not a sync to show.
  if (app.radios.get(app.radio)?.state === 'ready') return;
  const box = $('sync');
  box.hidden = false;
  const bar = $('sync-bar');
  let text = `Syncing ${SYNC_LABELS[sync.step] ?? sync.step}`;
  if (sync.total) {
    bar.max = sync.total;
    bar.value = sync.received ?? 0;
    text += ` ${sync.received ?? 0}/${sync.total}`;
  } else {
    bar.removeAttribute('value');
    if (sync.received !== undefined) text += ` (${sync.received})`;
  }
  $('sync-label').textContent = text;
  hideSyncSoon();
}

const hideSyncSoon = debounce(() => {
  if (app.radios.get(app.radio)?.state === 'ready') $('sync').hidden = true;
  else hideSyncSoon();
}, 1500);

function onEvent(event) {
  switch (event.type) {
    case 'hello':
      app.radios = new Map(event.radios.map((r) => [r.id, r]));
      renderRadioPicker();
      renderConnection();
      break;
    case 'connection': {
      const radio = app.radios.get(event.radio);
      if (radio) {
        radio.state = event.state;
        radio.ready = event.state === 'ready';
      }
      if (event.radio === app.radio) {
        renderConnection();
        if (event.state === 'ready') {
          loadContacts();
          refreshUnread();
        }
      }
      break;
    }
    case 'sync':
      if (event.radio === app.radio) showSync(event.sync);
      break;
    case 'message':
      if (event.radio === app.radio) refreshUnread();
      break;
    case 'contact':
      if (event.radio !== app.radio) break;
      if (event.contact) app.contacts.set(event.contact.key, event.contact);
      else if (event.change === 'removed') app.contacts.delete(event.key);
      break;
    case 'problem':
      if (event.radio === app.radio && event.text) toast(event.text, 'warning');
      break;
    case 'resync':
      loadRadios().catch(report);
      loadContacts();
      refreshUnread();
      break;
  }
}

// --- contacts (names for everything else) and the unread badge ---

async function loadContacts() {
  try {
    const list = await get(`${app.path('contacts')}?limit=5000`);
    app.contacts = new Map(list.map((c) => [c.key, c]));
  } catch (error) {
    if (error.code !== 'radio_not_ready') report(error);
  }
}

const refreshUnread = debounce(async () => {
  try {
    const list = await get(app.path('conversations'));
    const badge = $('unread-total');
    badge.textContent = list.totalUnread;
    badge.hidden = !list.totalUnread;
    document.title = list.totalUnread ? `(${list.totalUnread}) Meshport` : 'Meshport';
  } catch (error) {
    if (error.status !== 401) report(error);
  }
}, 250);

// --- toasts and login ---

function toast(text, kind = 'info') {
  const box = $('toasts');
  const item = h('div', { class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
  box.append(item);
  setTimeout(() => item.remove(), kind === 'error' ? 8000 : 4000);
}

function report(error) {
  toast(error instanceof ApiError ? error.message : String(error), 'error');
}
app.report = report;

let loginShown = false;
function showLogin() {
  if (loginShown) return;
  loginShown = true;
  current?.instance.dispose?.();
  current = null;
  const input = h('input', { type: 'password', name: 'token', autocomplete: 'current-password', required: true, placeholder: 'token' });
  const message = h('p', { class: 'error', role: 'alert' });
  const form = h('form', { class: 'login card', id: 'login' },
    h('h2', {}, 'This server needs its token'),
    h('p', {}, 'Paste the token from the file given to meshport serve --token-file.'),
    input, h('button', { type: 'submit' }, 'Sign in'), message);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      await post('/api/session', { token: input.value.trim() });
      location.reload();
    } catch (error) {
      message.textContent = error.message;
    }
  });
  replace($('view'), form);
  input.focus();
}

// --- start ---

async function start() {
  setUnauthorizedHandler(showLogin);
  $('radio-picker').addEventListener('change', (e) => {
    app.radio = e.target.value;
    localStorage.setItem('meshport.radio', app.radio);
    renderConnection();
    loadContacts().then(remount);
    refreshUnread();
  });
  app.events.subscribe(onEvent);
  app.events.onState(renderConnection);
  try {
    await loadRadios();
    await probeRegion();
  } catch (error) {
    if (error.status === 401) return;
    report(error);
  }
  app.events.start();
  await loadContacts();
  refreshUnread();
  window.addEventListener('hashchange', route);
  route();
}

start();
