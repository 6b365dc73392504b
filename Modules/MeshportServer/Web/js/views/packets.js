// The packet log: every packet the radio heard on air, newest first; live ones join the top as
// `packet` events arrive. #/packets/KEY shows one node's packets (a node's page links here).
import { get, query } from '../api.js';
import { h, replace } from '../dom.js';

const TYPES = ['advert', 'grouptext', 'text', 'ack', 'path', 'trace', 'request', 'response', 'anonrequest', 'groupdata', 'control', 'multipart', 'raw'];
// Live rows kept on screen beyond the loaded pages: enough to watch, bounded on a busy mesh.
const MAX_ROWS = 500;

export function mount(app, container, name, params) {
  let node = null;
  let older = null;
  const typeSelect = h('select', { name: 'type', 'aria-label': 'Payload type' },
    h('option', { value: '' }, 'All types'), TYPES.map((t) => h('option', { value: t }, t)));
  const title = h('h2', {}, 'Packets');
  const summary = h('p', { class: 'muted', role: 'status' });
  const body = h('tbody');
  const olderButton = h('button', { class: 'link older', type: 'button', hidden: true, onclick: () => load(true) }, 'Load older packets');
  container.append(h('section', { class: 'page packets' }, title,
    h('p', { class: 'muted' }, 'What this radio hears on air, as it hears it: every advert, message, ACK and trace, with its signal.'),
    h('form', { class: 'inline' }, typeSelect), summary,
    h('div', { class: 'table-scroll' }, h('table', { class: 'packet-table' },
      h('thead', {}, h('tr', {}, ['Time', 'SNR', 'RSSI', 'Type', 'Route', 'Hash', 'What'].map((c) => h('th', { scope: 'col' }, c)))), body)),
    olderButton));
  typeSelect.addEventListener('change', () => load(false));

  function describe(p) {
    const from = p.node ? ` from ${app.name(p.node)}` : '';
    switch (p.kind) {
      case 'advert': return `advert of ${p.name || app.name(p.node)}`;
      case 'groupText': return p.channel !== undefined ? `channel text on #${p.channel}` : `channel text (channel hash ${p.channelHash})`;
      case 'groupData': return p.channel !== undefined ? `channel data on #${p.channel}` : `channel data (channel hash ${p.channelHash})`;
      case 'ack': return `ACK ${p.code}`;
      case 'path': return `path return to ${p.destination}${from}`;
      case 'trace': return `trace ${p.tag.toString(16)}`;
      case 'request': case 'response': case 'text': return `${p.kind} to ${p.destination}${from}`;
      case 'anonymousRequest': return `anonymous request to ${p.destination}${from}`;
      default: return 'other';
    }
  }

  function row(p) {
    const hops = p.path.length;
    return h('tr', { class: 'packet', dataset: { kind: p.kind, hash: p.hash, id: p.id ?? '' } },
      h('td', {}, h('time', { datetime: p.heardAt }, new Date(p.heardAt).toLocaleTimeString())),
      h('td', { class: 'num' }, `${p.snr} dB`),
      h('td', { class: 'num' }, `${p.rssi} dBm`),
      h('td', {}, p.payloadType),
      h('td', {}, `${p.route.endsWith('lood') ? 'flood' : 'direct'}${hops ? ` · ${hops} hop${hops === 1 ? '' : 's'}` : ''}`),
      h('td', { class: 'key' }, p.hash),
      h('td', {}, p.node ? h('a', { href: `#/packets/${p.node}` }, describe(p)) : describe(p)));
  }

  function matches(p) {
    return (!typeSelect.value || p.payloadType === typeSelect.value) && (!node || p.node === node);
  }

  async function load(more) {
    if (!more) older = null;
    try {
      const page = await get(`${app.path('packets')}${query({ type: typeSelect.value, node, before: more ? older : undefined, limit: 100 })}`);
      if (more) body.append(...page.packets.map(row));
      else replace(body, page.packets.map(row));
      older = page.older ?? null;
      olderButton.hidden = !older;
      summary.textContent = body.rows.length ? '' : 'No packets heard yet.';
    } catch (error) {
      summary.textContent = error.message;
    }
  }

  function update(_, routeParams) {
    node = /^[0-9a-f]{64}$/.test(routeParams[0] ?? '') ? routeParams[0] : null;
    title.textContent = node ? `Packets from ${app.name(node)}` : 'Packets';
    load(false);
  }

  const unsubscribe = app.events.subscribe((event) => {
    if (event.type === 'resync') load(false);
    if (event.type !== 'packet' || event.radio !== app.radio || !matches(event.packet)) return;
    body.prepend(row(event.packet));
    while (body.rows.length > MAX_ROWS) body.lastElementChild.remove();
    summary.textContent = '';
  });
  update(name, params);
  return { update, dispose: unsubscribe };
}
