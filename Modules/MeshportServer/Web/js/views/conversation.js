// One conversation (a DM thread or a channel): messages oldest to newest with "load older"
// paging, delivery status that follows messageStatus events, and the composer.
import { get, post, query } from '../api.js';
import { h, replace, formatTime, formatDuration, formatHops, debounce, shortKey } from '../dom.js';

const PAGE = 50;

// ref: {kind: 'direct', key} or {kind: 'channel', channel}.
export function sameConversation(a, b) {
  return a.kind === b.kind && (a.kind === 'direct' ? a.key === b.key : a.channel === b.channel);
}

export function statusText(m) {
  switch (m.status) {
    case 'pending': return 'waiting to send';
    case 'sending': return m.attempt > 1 ? `sending (attempt ${m.attempt})` : 'sending';
    case 'sent': return m.conversation.kind === 'channel' ? 'sent' : 'sent, waiting for delivery';
    case 'delivered': {
      const parts = ['delivered'];
      if (m.roundTripMs) parts.push(`round trip ${formatDuration(m.roundTripMs)}`);
      return parts.join(', ');
    }
    case 'failed': return m.failureReason ? `failed: ${m.failureReason}` : 'failed';
    default: return '';
  }
}

export class Conversation {
  constructor(app, ref) {
    this.app = app;
    this.ref = ref;
    this.messages = new Map();
    this.older = null;
    this.list = h('ol', { class: 'messages', 'aria-live': 'polite' });
    this.olderButton = h('button', { class: 'link older', type: 'button', hidden: true, onclick: () => this.loadOlder() }, 'Load older messages');
    this.scroller = h('div', { class: 'scroller' }, this.olderButton, this.list);
    this.input = h('textarea', { rows: 1, name: 'text', placeholder: this.placeholder(), 'aria-label': 'Message', enterkeyhint: 'send' });
    this.sendButton = h('button', { type: 'submit' }, 'Send');
    this.form = h('form', { class: 'composer' }, this.input, this.sendButton);
    this.title = h('h2', {}, this.name());
    this.subtitle = h('p', { class: 'subtitle' });
    this.el = h('article', { class: 'conversation', dataset: { kind: ref.kind } },
      h('header', { class: 'conversation-head' },
        h('a', { class: 'back', href: '#/chats', 'aria-label': 'Back to chats' }, '‹'),
        h('div', {}, this.title, this.subtitle)),
      this.scroller, this.form);
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.send();
    });
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.send();
      }
    });
    this.markRead = debounce(() => this.sendRead(), 300);
    this.unsubscribe = app.events.subscribe((event) => this.onEvent(event));
    this.load();
  }

  base() {
    return this.ref.kind === 'direct' ? this.app.path('contacts', this.ref.key) : this.app.path('channels', this.ref.channel);
  }

  name() {
    if (this.ref.kind === 'direct') return this.app.name(this.ref.key);
    return this.channelName ?? `Channel ${this.ref.channel}`;
  }

  placeholder() {
    return this.ref.kind === 'direct' ? 'Message' : 'Message to the channel';
  }

  async load() {
    try {
      if (this.ref.kind === 'channel') {
        const channels = await get(this.app.path('channels'));
        const channel = channels.find((c) => c.index === this.ref.channel);
        this.channelName = channel?.name || `Channel ${this.ref.channel}`;
        this.subtitle.textContent = channel ? `${channel.kind} channel, slot ${channel.index}` : '';
      } else {
        // A thread outlives its contact (removed from the radio): its messages still show.
        try {
          this.contact = await get(this.app.path('contacts', this.ref.key));
          this.subtitle.textContent = pathText(this.contact);
        } catch (error) {
          if (error.code !== 'contact_not_found') throw error;
          this.subtitle.textContent = 'no longer a contact of this radio';
        }
      }
      this.title.textContent = this.name();
      const page = await get(`${this.base()}/messages${query({ limit: PAGE })}`);
      clearMessages(this);
      this.addPage(page);
      this.scrollToEnd();
      this.markRead();
    } catch (error) {
      this.app.report(error);
    }
  }

  async loadOlder() {
    if (!this.older) return;
    const before = this.scroller.scrollHeight - this.scroller.scrollTop;
    try {
      this.addPage(await get(`${this.base()}/messages${query({ before: this.older, limit: PAGE })}`));
      this.scroller.scrollTop = this.scroller.scrollHeight - before;
    } catch (error) {
      this.app.report(error);
    }
  }

  addPage(page) {
    for (const m of page.messages) this.upsert(m);
    this.older = page.older ?? null;
    this.olderButton.hidden = !this.older;
  }

  // Adds or updates one message, keeping the list ordered by id (the store's order).
  upsert(message) {
    const known = this.messages.get(message.id);
    const el = renderMessage(this, message);
    this.messages.set(message.id, { message, el });
    if (known) {
      known.el.replaceWith(el);
      return;
    }
    let next = null;
    for (const item of this.list.children) {
      if (Number(item.dataset.id) > message.id) {
        next = item;
        break;
      }
    }
    this.list.insertBefore(el, next);
  }

  async send(text = this.input.value.trim()) {
    if (!text) return;
    this.sendButton.disabled = true;
    try {
      const message = await post(`${this.base()}/messages`, { text });
      if (text === this.input.value.trim()) this.input.value = '';
      const keep = this.messages.get(message.id);
      // An event may already have brought a newer status than the POST's answer.
      if (!keep || rank(keep.message.status) <= rank(message.status)) this.upsert(message);
      this.scrollToEnd();
    } catch (error) {
      this.app.report(error);
    } finally {
      this.sendButton.disabled = false;
      this.input.focus();
    }
  }

  onEvent(event) {
    if (event.type === 'resync') {
      this.load();
      return;
    }
    if (event.radio !== this.app.radio || !event.message) return;
    if (!sameConversation(event.message.conversation, this.ref)) return;
    if (event.type === 'message' || event.type === 'messageStatus') {
      const stick = this.nearEnd();
      this.upsert(event.message);
      if (stick) this.scrollToEnd();
      if (event.type === 'message') this.markRead();
    }
  }

  async sendRead() {
    if (document.hidden) return;
    try {
      await post(`${this.base()}/read`);
      this.app.refreshUnread();
      this.onRead?.();
    } catch (error) {
      if (error.code !== 'radio_not_ready') this.app.report(error);
    }
  }

  nearEnd() {
    return this.scroller.scrollHeight - this.scroller.scrollTop - this.scroller.clientHeight < 80;
  }

  scrollToEnd() {
    this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  dispose() {
    this.unsubscribe();
    this.markRead.cancel();
  }
}

const ORDER = ['pending', 'sending', 'sent', 'delivered', 'failed'];
function rank(status) {
  return ORDER.indexOf(status);
}

function clearMessages(conversation) {
  conversation.messages.clear();
  replace(conversation.list);
}

export function pathText(contact) {
  if (!contact?.path) return '';
  if (contact.path.flood) return 'no known route: messages go flood';
  const hops = contact.path.hops ?? 0;
  return hops === 0 ? 'direct (heard with no repeater)' : `${formatHops(hops)} via ${contact.path.bytes}`;
}

function renderMessage(conversation, m) {
  const out = m.direction === 'out';
  const meta = h('span', { class: 'meta' }, h('time', { datetime: m.timestamp }, formatTime(m.timestamp)));
  if (out) {
    meta.append(h('span', { class: `status ${m.status}`, title: statusText(m) }, statusIcon(m.status), ' ', statusText(m)));
    if (m.heardRepeats) meta.append(h('span', { class: 'repeats' }, `heard ${m.heardRepeats} repeat${m.heardRepeats === 1 ? '' : 's'}`));
  } else {
    if (m.hops !== undefined) meta.append(h('span', {}, formatHops(m.hops)));
    if (m.snr !== undefined) meta.append(h('span', {}, `SNR ${m.snr} dB`));
  }
  const sender = !out && m.conversation.kind === 'channel'
    ? h('span', { class: 'sender' }, m.sender || shortKey(m.senderPrefix) || 'unknown')
    : null;
  const actions = out && m.status === 'failed'
    ? h('button', { class: 'link retry', type: 'button', onclick: () => conversation.send(m.text) }, 'Send again')
    : null;
  return h('li', { class: `msg ${out ? 'out' : 'in'}`, dataset: { id: m.id, status: m.status } },
    h('div', { class: 'bubble' }, sender, h('p', { class: 'text' }, m.text), meta, actions));
}

function statusIcon(status) {
  return { pending: '◷', sending: '↑', sent: '✓', delivered: '✓✓', failed: '✕' }[status] ?? '';
}
