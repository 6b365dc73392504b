// Contacts: search by name or key prefix, filter by type and favourites; a contact's details
// (key, path, last advert, position) with what can be done with it.
import { get, query } from '../api.js';
import { h, replace, formatAgo, formatHops, debounce, typeLabel, shortKey } from '../dom.js';
import { pathText } from './conversation.js';

const PAGE = 200;

export function mount(app, container, name, params) {
  const search = h('input', { type: 'search', name: 'q', placeholder: 'Name or key', 'aria-label': 'Search contacts', autocomplete: 'off' });
  const type = h('select', { name: 'type', 'aria-label': 'Type' },
    h('option', { value: '' }, 'All types'),
    ['chat', 'repeater', 'room', 'sensor'].map((t) => h('option', { value: t }, typeLabel(t))));
  const favourites = h('input', { type: 'checkbox', name: 'favourites' });
  const count = h('p', { class: 'count' });
  const list = h('ul', { class: 'contact-list', 'aria-label': 'Contacts' });
  const detail = h('section', { class: 'contact-detail' });
  const split = h('div', { class: 'split' },
    h('aside', { class: 'list-pane' },
      h('div', { class: 'list-head' }, h('h2', {}, 'Contacts')),
      h('div', { class: 'filters' }, search, type, h('label', { class: 'check' }, favourites, 'Favourites')),
      count, list),
    detail);
  container.append(split);
  let contacts = [];
  let selected = null;

  const reload = debounce(() => load(), 200);

  async function load() {
    try {
      contacts = await get(`${app.path('contacts')}${query({ q: search.value.trim(), type: type.value, limit: 5000 })}`);
      render();
    } catch (error) {
      if (error.status !== 401) app.report(error);
    }
  }

  // A store may hold thousands of nodes: the list draws a page of them, the rest on request
  // (search narrows it), so a redraw after each advert stays cheap.
  let limit = PAGE;

  function render() {
    const matching = favourites.checked ? contacts.filter((c) => c.favourite) : contacts;
    const shown = matching.slice(0, limit);
    count.textContent = `${matching.length} contact${matching.length === 1 ? '' : 's'}`;
    if (matching.length === 0) {
      replace(list, h('li', { class: 'empty' }, search.value || type.value || favourites.checked ? 'No contact matches.' : 'No contacts yet: they appear as the radio hears adverts.'));
      return;
    }
    const more = matching.length > shown.length
      ? h('li', {}, h('button', { type: 'button', class: 'link more', onclick: () => { limit += PAGE; render(); } },
        `Show ${Math.min(PAGE, matching.length - shown.length)} more of ${matching.length - shown.length}`))
      : null;
    replace(list, shown.map((c) => h('li', {},
      h('a', { class: `contact-item${c.key === selected ? ' selected' : ''}`, href: `#/contacts/${c.key}`, dataset: { type: c.type } },
        h('span', { class: `avatar ${c.type}`, 'aria-hidden': 'true' }, typeGlyph(c.type)),
        h('span', { class: 'chat-main' },
          h('span', { class: 'chat-name' }, c.favourite ? '★ ' : '', c.name || shortKey(c.key)),
          h('span', { class: 'chat-preview' }, `${typeLabel(c.type)} · ${c.path?.flood ? 'flood' : formatHops(c.path?.hops ?? 0)} · heard ${formatAgo(c.lastAdvert)}`)),
        c.unread ? h('span', { class: 'badge' }, c.unread) : null))), more);
  }

  async function showDetail(key) {
    selected = key;
    split.classList.toggle('open', Boolean(key));
    render();
    if (!key) {
      replace(detail, h('div', { class: 'placeholder' }, h('p', {}, 'Pick a contact to see its details.')));
      return;
    }
    try {
      const c = await get(app.path('contacts', key));
      if (selected !== key) return;
      const hasPosition = c.latitude !== undefined && c.longitude !== undefined && (c.latitude !== 0 || c.longitude !== 0);
      replace(detail, h('article', { class: 'card contact-card' },
        h('header', { class: 'conversation-head' },
          h('a', { class: 'back', href: '#/contacts', 'aria-label': 'Back to contacts' }, '‹'),
          h('h2', {}, c.name || shortKey(c.key))),
        h('dl', { class: 'facts' },
          h('dt', {}, 'Type'), h('dd', {}, typeLabel(c.type)),
          h('dt', {}, 'Public key'), h('dd', { class: 'key' }, c.key),
          h('dt', {}, 'Path'), h('dd', {}, pathText(c)),
          h('dt', {}, 'Last advert'), h('dd', {}, c.lastAdvert ? `${new Date(c.lastAdvert).toLocaleString()} (${formatAgo(c.lastAdvert)})` : 'never'),
          h('dt', {}, 'Position'), h('dd', {}, hasPosition ? `${c.latitude.toFixed(5)}, ${c.longitude.toFixed(5)}` : 'not shared'),
          h('dt', {}, 'Messages'), h('dd', {}, `${c.messages}${c.unread ? ` (${c.unread} unread)` : ''}`),
          h('dt', {}, 'On the radio'), h('dd', {}, c.onRadio ? 'yes' : 'no: heard, not added')),
        h('div', { class: 'actions' },
          c.type === 'chat' || c.type === 'room' ? h('a', { class: 'button', href: `#/chat/direct/${c.key}` }, 'Message') : null,
          c.type !== 'chat' ? h('a', { class: 'button', href: `#/node/${c.key}` }, 'Open node') : null,
          hasPosition ? h('a', { class: 'button secondary', href: `#/map/${c.key}` }, 'Show on map') : null,
          h('a', { class: 'button secondary', href: `#/packets/${c.key}` }, 'Packets heard'))));
    } catch (error) {
      app.report(error);
    }
  }

  const restart = (then) => () => {
    limit = PAGE;
    then();
  };
  search.addEventListener('input', restart(reload));
  type.addEventListener('change', restart(load));
  favourites.addEventListener('change', restart(render));
  const unsubscribe = app.events.subscribe((event) => {
    if (event.type === 'resync' || (event.radio === app.radio && (event.type === 'contact' || event.type === 'connection'))) reload();
  });
  load();
  showDetail(params[0]);
  return {
    update(_, routeParams) {
      showDetail(routeParams[0]);
    },
    dispose() {
      unsubscribe();
      reload.cancel();
    },
  };
}

export function typeGlyph(type) {
  return { chat: '◉', repeater: '⇅', room: '▦', sensor: '◈' }[type] ?? '?';
}
