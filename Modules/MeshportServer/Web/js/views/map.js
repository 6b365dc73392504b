// Contacts' positions and this radio's on one map (map-canvas.js: tiles when reachable, else
// drawn offline); a marker's card gives the distance from this radio.
import { get } from '../api.js';
import { MapCanvas } from '../map-canvas.js';
import { h, replace, debounce, typeLabel, shortKey, formatAgo } from '../dom.js';

export function mount(app, container, name, params) {
  const info = h('div', { class: 'map-info card', hidden: true });
  const legend = h('p', { class: 'map-legend' });
  const frame = h('div', { class: 'map-frame' }, info);
  container.append(h('section', { class: 'map-view' }, frame, legend));

  let points = [];
  let counts = '';
  const canvas = new MapCanvas(frame, { label: 'Map of contacts', onSelect: show, onMode: writeLegend });

  function writeLegend() {
    legend.textContent = `${counts} Drag to pan, wheel or +/− to zoom. ${canvas.tiled ? 'Map tiles from the tile server.' : 'No map tiles are loaded.'}`;
  }

  async function load() {
    try {
      const [contacts, self] = await Promise.all([get(`${app.path('contacts')}?limit=5000`), get(app.path('self')).catch(() => null)]);
      points = contacts.filter(hasPosition).map((c) => ({ key: c.key, name: c.name || shortKey(c.key), type: c.type, lat: c.latitude, lon: c.longitude, lastAdvert: c.lastAdvert, label: `${c.name || shortKey(c.key)}, ${typeLabel(c.type)}` }));
      if (self && hasPosition(self)) points.push({ key: self.publicKey, name: self.name, type: 'self', lat: self.latitude, lon: self.longitude, label: `${self.name}, this radio` });
      const without = contacts.length - points.filter((p) => p.type !== 'self').length;
      counts = `${points.length} position${points.length === 1 ? '' : 's'} from adverts${without ? `; ${without} contact${without === 1 ? '' : 's'} share none` : ''}.`;
      writeLegend();
      canvas.setData(points, [], params[0] ?? null);
    } catch (error) {
      if (error.status !== 401) app.report(error);
    }
  }

  function show(p) {
    info.hidden = !p;
    if (!p) return;
    const self = points.find((q) => q.type === 'self');
    const distance = self && self !== p ? `${formatKm(haversine(self, p))} from this radio` : null;
    replace(info,
      h('button', { class: 'close link', type: 'button', 'aria-label': 'Close', onclick: () => canvas.select(null) }, '×'),
      h('h3', {}, p.name),
      h('p', {}, p.type === 'self' ? 'This radio' : typeLabel(p.type), distance ? ` · ${distance}` : ''),
      h('p', { class: 'muted' }, `${p.lat.toFixed(5)}, ${p.lon.toFixed(5)}${p.lastAdvert ? ` · advert ${formatAgo(p.lastAdvert)}` : ''}`),
      p.type === 'self' ? null : h('a', { href: `#/contacts/${p.key}` }, 'Details'));
  }

  const reload = debounce(load, 500);
  const unsubscribe = app.events.subscribe((event) => {
    if (event.type === 'resync' || (event.radio === app.radio && event.type === 'contact')) reload();
  });
  load();
  return {
    update(_, routeParams) {
      canvas.fit(routeParams[0] ?? null);
    },
    dispose() {
      canvas.dispose();
      unsubscribe();
      reload.cancel();
    },
  };
}

export function hasPosition(c) {
  return typeof c.latitude === 'number' && typeof c.longitude === 'number' && (c.latitude !== 0 || c.longitude !== 0);
}

export function haversine(a, b) {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const x = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(x));
}

export function formatKm(km) {
  return km < 1 ? `${Math.round(km * 1000)} m` : `${km.toFixed(km < 10 ? 1 : 0)} km`;
}
