// Remote nodes (repeaters, room servers, sensors): login, status with its history, telemetry
// with charts, and a room's chat.
import { get, post, query } from '../api.js';
import { h, replace, formatTime, formatAgo, debounce, typeLabel, shortKey } from '../dom.js';
import { statusCard, telemetryCard } from './node-readings.js';
import { typeGlyph } from './contacts.js';
import { pathText } from './conversation.js';

export function mount(app, container, name, params) {
  let page = null;
  function update(routeName, routeParams) {
    page?.dispose();
    replace(container);
    page = routeName === 'node' && /^[0-9a-f]{64}$/.test(routeParams[0] ?? '') ? nodePage(app, container, routeParams[0]) : nodeList(app, container);
  }
  update(name, params);
  return { update, dispose: () => page?.dispose() };
}

function nodeList(app, container) {
  const list = h('ul', { class: 'contact-list', 'aria-label': 'Remote nodes' });
  container.append(h('section', { class: 'page' },
    h('h2', {}, 'Remote nodes'),
    h('p', { class: 'muted' }, 'Repeaters, room servers and sensors this radio knows. Log in to read their status and telemetry or to join a room.'),
    list));
  async function load() {
    try {
      const [contacts, sessions] = await Promise.all([get(`${app.path('contacts')}?limit=5000`), get(app.path('remote'))]);
      const byKey = new Map(sessions.map((x) => [x.key, x]));
      const nodes = contacts.filter((c) => c.type !== 'chat' && c.type !== 'none');
      if (nodes.length === 0) {
        replace(list, h('li', { class: 'empty' }, 'No repeaters, rooms or sensors heard yet.'));
        return;
      }
      replace(list, nodes.map((c) => {
        const session = byKey.get(c.key);
        const state = session?.connected ? (session.admin ? 'logged in as admin' : 'logged in') : session ? `last login ${formatAgo(session.lastLoginAt)}` : 'not logged in';
        return h('li', {}, h('a', { class: 'contact-item', href: `#/node/${c.key}`, dataset: { type: c.type } },
          h('span', { class: `avatar ${c.type}`, 'aria-hidden': 'true' }, typeGlyph(c.type)),
          h('span', { class: 'chat-main' },
            h('span', { class: 'chat-name' }, c.name || shortKey(c.key)),
            h('span', { class: 'chat-preview' }, `${typeLabel(c.type)} · ${state} · heard ${formatAgo(c.lastAdvert)}`))));
      }));
    } catch (error) {
      if (error.status !== 401) app.report(error);
    }
  }
  const reload = debounce(load, 300);
  const unsubscribe = app.events.subscribe((event) => {
    if (event.type === 'resync' || (event.radio === app.radio && ['remote', 'contact', 'connection'].includes(event.type))) reload();
  });
  load();
  return { dispose: () => { unsubscribe(); reload.cancel(); } };
}

function nodePage(app, container, key) {
  const head = h('header', { class: 'conversation-head' },
    h('a', { class: 'back', href: '#/nodes', 'aria-label': 'Back to nodes' }, '‹'),
    h('div', {}, h('h2', {}, app.name(key)), h('p', { class: 'subtitle' })),
    h('a', { class: 'button secondary', href: `#/packets/${key}` }, 'Packets heard'));
  const loginCard = h('section', { class: 'card', 'aria-label': 'Login' });
  const status = statusCard(app, key);
  const telemetry = telemetryCard(app, key);
  const roomCard = h('section', { class: 'card room', 'aria-label': 'Room' });
  container.append(h('section', { class: 'page node-page' }, head, loginCard, status.el, telemetry.el, roomCard));
  let contact = null;
  let session = null;
  const cleanups = [];

  async function load() {
    try {
      contact = await get(app.path('contacts', key));
      const sessions = await get(app.path('remote'));
      session = sessions.find((x) => x.key === key) ?? null;
      replace(head.querySelector('h2'), contact.name || shortKey(key));
      head.querySelector('.subtitle').textContent = `${typeLabel(contact.type)} · ${pathText(contact)}`;
      renderLogin();
      status.el.hidden = contact.type !== 'repeater' && contact.type !== 'room';
      if (!status.el.hidden) status.load();
      telemetry.load();
      roomCard.hidden = contact.type !== 'room';
      if (!roomCard.hidden) loadPosts();
    } catch (error) {
      app.report(error);
    }
  }

  // --- login ---
  // Kept across renders: a login's outcome stays visible when the remote event redraws the card.
  const message = h('p', { class: 'result', role: 'status' });
  function renderLogin() {
    if (session?.connected) {
      replace(loginCard, h('h3', {}, 'Login'),
        h('p', {}, `Logged in${session.admin ? ' as admin' : ''} (${session.role}, permission ${session.permission}) since ${formatTime(session.lastLoginAt)}.`),
        h('button', { type: 'button', class: 'secondary', onclick: () => act(message, () => post(app.path('remote', key, 'logout')), 'Logged out.') }, 'Log out'),
        message);
      return;
    }
    const password = h('input', { type: 'password', name: 'password', autocomplete: 'off', placeholder: 'Password (empty: the remembered one)', 'aria-label': 'Password' });
    const remember = h('input', { type: 'checkbox', name: 'remember' });
    const form = h('form', { class: 'inline' }, password, h('label', { class: 'check' }, remember, 'Remember'), h('button', { type: 'submit' }, 'Log in'));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const body = password.value ? { password: password.value, remember: remember.checked } : {};
      act(message, () => post(app.path('remote', key, 'login'), body), 'Logged in.', form);
    });
    replace(loginCard, h('h3', {}, 'Login'), form, message);
  }

  async function act(message, call, done, form) {
    message.textContent = 'Waiting for the node…';
    message.className = 'result pending';
    form?.querySelector('button')?.setAttribute('disabled', '');
    try {
      await call();
      message.textContent = done;
      message.className = 'result ok';
      const sessions = await get(app.path('remote'));
      session = sessions.find((x) => x.key === key) ?? null;
      renderLogin();
    } catch (error) {
      message.textContent = error.message;
      message.className = 'result error';
    } finally {
      form?.querySelector('button')?.removeAttribute('disabled');
    }
  }

  // --- room chat ---
  const posts = h('ol', { class: 'messages' });
  async function loadPosts() {
    const input = h('input', { type: 'text', name: 'post', placeholder: 'Post to the room', 'aria-label': 'Post to the room' });
    const form = h('form', { class: 'composer' }, input, h('button', { type: 'submit' }, 'Post'));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      try {
        await post(app.path('contacts', key, 'messages'), { text });
        input.value = '';
        addPost({ author: 'you', text, timestamp: new Date().toISOString(), mine: true });
      } catch (error) {
        app.report(error);
      }
    });
    replace(roomCard, h('h3', {}, 'Room'), h('div', { class: 'scroller room-posts' }, posts), form);
    try {
      const page = await get(`${app.path('remote', key, 'posts')}${query({ limit: 100 })}`);
      replace(posts);
      if (page.posts.length === 0) posts.append(h('li', { class: 'empty' }, session?.connected ? 'No posts yet.' : 'Log in to receive the room\'s posts.'));
      for (const p of [...page.posts].reverse()) addPost(p);
    } catch (error) {
      app.report(error);
    }
  }
  function addPost(p) {
    posts.querySelector('.empty')?.remove();
    const author = p.mine ? 'You' : authorName(app, p.author);
    posts.append(h('li', { class: `msg ${p.mine ? 'out' : 'in'}` }, h('div', { class: 'bubble' },
      h('span', { class: 'sender' }, author), h('p', { class: 'text' }, p.text),
      h('span', { class: 'meta' }, h('time', { datetime: p.timestamp }, formatTime(p.timestamp))))));
    posts.parentElement.scrollTop = posts.parentElement.scrollHeight;
  }

  const unsubscribe = app.events.subscribe((event) => {
    if (event.type === 'resync') {
      load();
      return;
    }
    if (event.radio !== app.radio) return;
    if (event.type === 'remote' && event.key === key) {
      if (event.remote === 'status') status.show(event.status);
      else if (event.remote === 'telemetry') telemetry.show({ readings: event.readings });
      else get(app.path('remote')).then((sessions) => {
        session = sessions.find((x) => x.key === key) ?? null;
        renderLogin();
      }, app.report);
    }
    if (event.type === 'roomPost' && event.room === key) addPost({ author: event.author, text: event.text, timestamp: new Date().toISOString() });
  });
  cleanups.push(unsubscribe);
  load();
  return { dispose: () => cleanups.forEach((f) => f()) };
}

function authorName(app, prefix) {
  if (!prefix) return 'unknown';
  for (const c of app.contacts.values()) if (c.key.startsWith(prefix)) return c.name || prefix;
  return prefix;
}
