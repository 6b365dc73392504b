// Chats: conversations with unread badges beside the open conversation (one pane at phone width).
import { get } from '../api.js';
import { h, replace, formatTime, debounce } from '../dom.js';
import { Conversation, sameConversation } from './conversation.js';

export function mount(app, container, name, params) {
  const list = h('ul', { class: 'chat-list', 'aria-label': 'Chats' });
  const pane = h('section', { class: 'chat-pane' });
  const split = h('div', { class: 'split' },
    h('aside', { class: 'list-pane' },
      h('div', { class: 'list-head' }, h('h2', {}, 'Chats'), h('a', { class: 'button small', href: '#/contacts' }, 'New chat')),
      list),
    pane);
  container.append(split);
  let open = null;
  let items = [];

  const refresh = debounce(() => load(), 200);

  async function load() {
    try {
      const [conversations, channels] = await Promise.all([get(app.path('conversations')), get(app.path('channels'))]);
      items = merge(app, conversations.conversations, channels);
      render();
    } catch (error) {
      if (error.code === 'radio_not_ready' && items.length === 0) {
        replace(list, h('li', { class: 'empty' }, 'The radio is not connected yet; chats appear once it is.'));
      } else if (error.status !== 401) {
        app.report(error);
      }
    }
  }

  function render() {
    if (items.length === 0) {
      replace(list, h('li', { class: 'empty' }, 'No conversations yet. Start one from Contacts.'));
      return;
    }
    replace(list, items.map((item) => {
      const selected = open && sameConversation(open.ref, item.ref);
      const last = item.lastMessage;
      const preview = last ? `${last.direction === 'out' ? 'You: ' : last.conversation.kind === 'channel' && last.sender ? `${last.sender}: ` : ''}${last.text}` : 'no messages yet';
      return h('li', {},
        h('a', { class: `chat-item${selected ? ' selected' : ''}`, href: hrefOf(item.ref), 'aria-current': selected ? 'page' : undefined, dataset: { unread: item.unread } },
          h('span', { class: `avatar ${item.ref.kind}`, 'aria-hidden': 'true' }, item.ref.kind === 'channel' ? '#' : initial(item.name)),
          h('span', { class: 'chat-main' },
            h('span', { class: 'chat-name' }, item.name),
            h('span', { class: 'chat-preview' }, preview)),
          h('span', { class: 'chat-side' },
            h('time', {}, last ? formatTime(item.lastMessageAt) : ''),
            item.unread ? h('span', { class: 'badge', title: `${item.unread} unread` }, item.unread) : null)));
    }));
  }

  function update(routeName, routeParams) {
    open?.dispose();
    open = null;
    const ref = refFromRoute(routeName, routeParams);
    if (ref) {
      open = new Conversation(app, ref);
      open.onRead = refresh;
      replace(pane, open.el);
      open.input.focus();
    } else {
      replace(pane, h('div', { class: 'placeholder' }, h('p', {}, 'Pick a chat, or start one from Contacts.')));
    }
    split.classList.toggle('open', Boolean(ref));
    render();
  }

  const unsubscribe = app.events.subscribe((event) => {
    if (event.type === 'resync' || (event.radio === app.radio && ['message', 'messageStatus', 'connection'].includes(event.type))) refresh();
  });

  update(name, params);
  load();
  return {
    update,
    dispose() {
      unsubscribe();
      refresh.cancel();
      open?.dispose();
    },
  };
}

function refFromRoute(name, params) {
  if (name !== 'chat') return null;
  const [kind, id] = params;
  if (kind === 'direct' && /^[0-9a-f]{64}$/.test(id ?? '')) return { kind, key: id };
  if (kind === 'channel' && /^[0-9]+$/.test(id ?? '')) return { kind, channel: Number(id) };
  return null;
}

export function hrefOf(ref) {
  return ref.kind === 'direct' ? `#/chat/direct/${ref.key}` : `#/chat/channel/${ref.channel}`;
}

// Conversations with messages, then the channels that have none yet.
function merge(app, conversations, channels) {
  const items = conversations.map((c) => ({
    ref: c.conversation,
    name: c.name || (c.conversation.kind === 'direct' ? app.name(c.conversation.key) : `Channel ${c.conversation.channel}`),
    unread: c.unread,
    lastMessage: c.lastMessage,
    lastMessageAt: c.lastMessageAt,
  }));
  for (const channel of channels) {
    if (channel.kind === 'empty') continue;
    if (items.some((i) => i.ref.kind === 'channel' && i.ref.channel === channel.index)) continue;
    items.push({ ref: { kind: 'channel', channel: channel.index }, name: channel.name, unread: 0 });
  }
  return items;
}

function initial(name) {
  return (name || '?').trim().charAt(0).toUpperCase() || '?';
}
