// The region: what many gateways heard, from the PostgreSQL history `meshport serve --history`
// reads (Docs/region.md). A map of nodes and observers with a line from each observer to each
// node it hears directly, coloured by SNR; then the packets, the public channels' messages and
// the observers. #/region/KEY opens one node with its observations.
import { get, query } from '../api.js';
import { MapCanvas } from '../map-canvas.js';
import { h, replace, shortKey, typeLabel, formatAgo } from '../dom.js';
import { hasPosition } from './map.js';

const TYPES = ['advert', 'grouptext', 'text', 'ack', 'path', 'trace', 'request', 'response', 'anonrequest', 'groupdata', 'control', 'multipart', 'raw'];
const TABS = [['packets', 'Packets'], ['channels', 'Channel messages'], ['observers', 'Observers']];

export function mount(app, container, name, params) {
  const summary = h('p', { class: 'muted', role: 'status' });
  const info = h('div', { class: 'map-info card', hidden: true });
  const frame = h('div', { class: 'map-frame region-map' }, info);
  const legend = h('p', { class: 'map-legend' });
  const tabBar = h('div', { class: 'region-tabs', role: 'tablist' });
  const panel = h('div', { class: 'region-panel' });
  container.append(h('section', { class: 'page region' }, h('h2', {}, 'Region'), summary, frame, legend, tabBar, panel));

  let nodes = new Map();
  let observers = [];
  let tab = 'packets';
  let focus = /^[0-9a-f]{64}$/.test(params[0] ?? '') ? params[0] : null;
  const canvas = new MapCanvas(frame, { label: 'Map of the region', onSelect: select, onMode: () => writeLegend() });

  function writeLegend(extra = '') {
    legend.textContent = `Squares are observers (gateways); lines join an observer to the nodes it hears directly, green to red by SNR.${extra} ${canvas.tiled ? 'Map tiles from the tile server.' : 'No map tiles are loaded.'}`;
  }

  async function loadMap() {
    try {
      const [total, nodePage, observerList, links] = await Promise.all([
        get('/api/region/summary'), get('/api/region/nodes?limit=5000'), get('/api/region/observers'), get('/api/region/links')]);
      summary.textContent = `${total.observers} observer${total.observers === 1 ? '' : 's'}, ${total.nodes} node${total.nodes === 1 ? '' : 's'}, `
        + `${total.packets} packet${total.packets === 1 ? '' : 's'} heard ${total.observations} time${total.observations === 1 ? '' : 's'}`
        + `${total.lastHeard ? `; last ${formatAgo(total.lastHeard)}` : ''}.`;
      nodes = new Map(nodePage.nodes.map((n) => [n.key, n]));
      observers = observerList.observers;
      const observerKeys = new Set(observers.map((o) => o.key));
      const points = nodePage.nodes.filter(hasPosition).map((n) => ({
        key: n.key, name: n.name || shortKey(n.key), type: observerKeys.has(n.key) ? 'observer' : n.kind,
        lat: n.latitude, lon: n.longitude, label: `${n.name || shortKey(n.key)}, ${observerKeys.has(n.key) ? 'observer' : typeLabel(n.kind)}` }));
      const lines = links.links.map((l) => ({ from: l.observer, to: l.node, snr: l.bestSNR,
        title: `${nameOf(l.observer)} hears ${nameOf(l.node)}: best ${l.bestSNR} dB, ${l.hearings} time${l.hearings === 1 ? '' : 's'}` }));
      const unplaced = nodePage.nodes.length - points.length;
      writeLegend(unplaced ? ` ${unplaced} node${unplaced === 1 ? '' : 's'} without a position are only in the tables.` : '');
      canvas.setData(points, lines, focus);
      if (focus && !points.some((p) => p.key === focus) && nodes.has(focus)) select({ key: focus });
    } catch (error) {
      summary.textContent = error.code === 'region_off' ? 'This server keeps no region history: start it with --history postgres://...' : error.message;
    }
  }

  function nameOf(key) {
    return nodes.get(key)?.name || observers.find((o) => o.key === key)?.name || shortKey(key);
  }

  function select(point) {
    info.hidden = !point;
    if (!point) {
      focus = null;
      return;
    }
    focus = point.key;
    const node = nodes.get(point.key);
    const observer = observers.find((o) => o.key === point.key);
    replace(info,
      h('button', { class: 'close link', type: 'button', 'aria-label': 'Close', onclick: () => canvas.select(null) }, '×'),
      h('h3', {}, nameOf(point.key)),
      h('p', {}, observer ? `Observer in ${observer.region}` : typeLabel(node?.kind ?? 'none'), node?.lastSeen ? ` · last heard ${formatAgo(node.lastSeen)}` : ''),
      node?.best ? h('p', { class: 'best' }, `Heard best by ${node.best.observerName || shortKey(node.best.observer)}: ${node.best.snr} dB`) : null,
      h('p', { class: 'muted key' }, point.key),
      h('button', { class: 'link', type: 'button', onclick: () => showTab('node') }, 'Observations'));
    if (tab === 'node') showTab('node');
  }

  function showTab(name) {
    tab = name;
    replace(tabBar, [...TABS, ...(focus ? [['node', `${nameOf(focus)}'s observations`]] : [])].map(([key, label]) =>
      h('button', { type: 'button', role: 'tab', class: key === tab ? 'active' : '', 'aria-selected': String(key === tab), dataset: { tab: key }, onclick: () => showTab(key) }, label)));
    replace(panel);
    if (tab === 'packets') packetTable();
    else if (tab === 'channels') channelTable();
    else if (tab === 'observers') observerTable();
    else nodeTable(focus);
  }

  // A table filled page by page from `path` (newest first); `key` names the page's list.
  function paged(head, path, key, row, filters = null) {
    const body = h('tbody');
    const status = h('p', { class: 'muted', role: 'status' });
    let older = null;
    const more = h('button', { class: 'link older', type: 'button', hidden: true, onclick: () => load(true) }, 'Load older');
    async function load(next) {
      if (!next) older = null;
      try {
        const page = await get(`${path}${query({ ...(filters?.() ?? {}), before: next ? older : undefined, limit: 100 })}`);
        if (next) body.append(...page[key].map(row));
        else replace(body, page[key].map(row));
        older = page.older ?? null;
        more.hidden = !older;
        status.textContent = body.rows.length ? '' : 'Nothing heard yet.';
      } catch (error) {
        status.textContent = error.message;
      }
    }
    panel.append(h('div', { class: 'table-scroll' }, h('table', { class: `region-table ${key}` },
      h('thead', {}, h('tr', {}, head.map((c) => h('th', { scope: 'col' }, c)))), body)), status, more);
    load(false);
    return () => load(false);
  }

  function packetTable() {
    const type = h('select', { name: 'type', 'aria-label': 'Payload type' }, h('option', { value: '' }, 'All types'), TYPES.map((t) => h('option', { value: t }, t)));
    panel.append(h('form', { class: 'inline' }, type));
    const reload = paged(['Last heard', 'Type', 'Hash', 'Heard', 'By', 'Size'], '/api/region/packets', 'packets', (p) =>
      h('tr', { class: 'region-packet', dataset: { hash: p.hash, type: p.payloadType } },
        h('td', {}, h('time', { datetime: p.lastSeen }, new Date(p.lastSeen).toLocaleString())),
        h('td', {}, p.payloadType),
        h('td', { class: 'key' }, p.hash),
        h('td', { class: 'num' }, `${p.observations}×`),
        h('td', { class: 'num' }, `${p.observers} observer${p.observers === 1 ? '' : 's'}`),
        h('td', { class: 'num' }, `${p.length} B`)), () => ({ type: type.value }));
    type.addEventListener('change', reload);
  }

  function channelTable() {
    paged(['Sent', 'Channel', 'From', 'Text'], '/api/region/channels/messages', 'messages', (m) =>
      h('tr', { class: 'region-message' },
        h('td', {}, h('time', { datetime: m.sentAt }, new Date(m.sentAt).toLocaleString())),
        h('td', {}, m.channel),
        h('td', {}, m.sender ?? '—'),
        h('td', { class: 'text' }, m.text)));
  }

  function observerTable() {
    const body = h('tbody', {}, observers.map((o) =>
      h('tr', { class: 'region-observer', dataset: { key: o.key } },
        h('td', {}, h('button', { class: 'link', type: 'button', onclick: () => canvas.fit(o.key) }, o.name || shortKey(o.key))),
        h('td', {}, o.region),
        h('td', {}, o.online ? 'online' : 'offline'),
        h('td', {}, o.lastSeen ? formatAgo(o.lastSeen) : '—'),
        h('td', { class: 'num' }, String(o.nodesHeard)),
        h('td', {}, [o.model, o.firmware].filter(Boolean).join(' · ')))));
    panel.append(h('div', { class: 'table-scroll' }, h('table', { class: 'region-table observers' },
      h('thead', {}, h('tr', {}, ['Observer', 'Region', 'State', 'Last seen', 'Nodes heard directly', 'Radio'].map((c) => h('th', { scope: 'col' }, c)))), body)),
    observers.length ? null : h('p', { class: 'muted' }, 'No observer has reported yet.'));
  }

  function nodeTable(key) {
    if (!key) return;
    paged(['Heard', 'Observer', 'SNR', 'RSSI', 'Path', 'Type', 'Hash'], `/api/region/nodes/${key}/observations`, 'observations', (o) =>
      h('tr', { class: 'region-observation' },
        h('td', {}, h('time', { datetime: o.heardAt }, new Date(o.heardAt).toLocaleString())),
        h('td', {}, o.observerName || shortKey(o.observer)),
        h('td', { class: 'num' }, o.snr === undefined ? '—' : `${o.snr} dB`),
        h('td', { class: 'num' }, o.rssi === undefined ? '—' : `${o.rssi} dBm`),
        h('td', { class: 'key' }, o.path || 'direct'),
        h('td', {}, o.payloadType),
        h('td', { class: 'key' }, o.packetHash)));
  }

  loadMap();
  showTab(focus ? 'node' : 'packets');
  return {
    update(_, routeParams) {
      focus = /^[0-9a-f]{64}$/.test(routeParams[0] ?? '') ? routeParams[0] : null;
      canvas.fit(focus);
      showTab(focus ? 'node' : tab === 'node' ? 'packets' : tab);
    },
    dispose() {
      canvas.dispose();
    },
  };
}
