// Contacts' positions: on map tiles through Leaflet when the server and the network allow
// (basemap.js), else drawn offline as an SVG with a graticule and a scale bar. The offline
// projection is equirectangular around the view's latitude, exact enough at mesh scale.
import { get } from '../api.js';
import { basemap, tileMap } from '../basemap.js';
import { h, s, replace, debounce, typeLabel, shortKey, formatAgo } from '../dom.js';

const KM_PER_DEGREE = 111.32;
const STEPS = [0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];

export function mount(app, container, name, params) {
  const svg = s('svg', { class: 'map', role: 'img', 'aria-label': 'Map of contacts' });
  const info = h('div', { class: 'map-info card', hidden: true });
  const legend = h('p', { class: 'map-legend' });
  const controls = h('div', { class: 'map-controls' },
    h('button', { type: 'button', 'aria-label': 'Zoom in', onclick: () => zoom(2) }, '+'),
    h('button', { type: 'button', 'aria-label': 'Zoom out', onclick: () => zoom(0.5) }, '−'),
    h('button', { type: 'button', onclick: () => fit() }, 'Fit'));
  const frame = h('div', { class: 'map-frame' }, svg, controls, info);
  container.append(h('section', { class: 'map-view' }, frame, legend));

  let points = [];
  let view = null; // {lat, lon, k: pixels per degree of latitude, cos}
  let focus = params[0] ?? null;
  let size = { width: 0, height: 0 };
  let loaded = false;
  let tiles = null; // {map, layer, host} while Leaflet draws
  let disposed = false;

  // Fits once both the positions and the frame's size are known; draws after that.
  function show() {
    if (loaded && tiles) return tiles.fitted ? drawTiles() : fitTiles();
    if (!loaded || !size.width) return;
    if (view) draw();
    else fit();
  }

  async function load() {
    try {
      const [contacts, self] = await Promise.all([get(`${app.path('contacts')}?limit=5000`), get(app.path('self')).catch(() => null)]);
      points = contacts.filter(hasPosition).map((c) => ({ key: c.key, name: c.name || shortKey(c.key), type: c.type, lat: c.latitude, lon: c.longitude, lastAdvert: c.lastAdvert }));
      if (self && hasPosition(self)) points.push({ key: self.publicKey, name: self.name, type: 'self', lat: self.latitude, lon: self.longitude });
      const without = contacts.length - points.filter((p) => p.type !== 'self').length;
      counts = `${points.length} position${points.length === 1 ? '' : 's'} from adverts${without ? `; ${without} contact${without === 1 ? '' : 's'} share none` : ''}.`;
      writeLegend();
      loaded = true;
      show();
    } catch (error) {
      if (error.status !== 401) app.report(error);
    }
  }

  let counts = '';
  function writeLegend() {
    legend.textContent = `${counts} Drag to pan, wheel or +/− to zoom. ${tiles ? 'Map tiles from the tile server.' : 'No map tiles are loaded.'}`;
  }

  function fit() {
    if (tiles) return fitTiles();
    const target = focus ? points.filter((p) => p.key === focus) : points;
    const shown = target.length ? target : points;
    if (shown.length === 0) {
      view = { lat: 0, lon: 0, k: Math.max(1, size.width / 360), cos: 1 };
      draw();
      return;
    }
    const lats = shown.map((p) => p.lat);
    const lons = shown.map((p) => p.lon);
    const lat = (Math.min(...lats) + Math.max(...lats)) / 2;
    const lon = (Math.min(...lons) + Math.max(...lons)) / 2;
    const cos = Math.max(0.05, Math.cos((lat * Math.PI) / 180));
    const spanLat = Math.max(Math.max(...lats) - Math.min(...lats), 0.01);
    const spanLon = Math.max((Math.max(...lons) - Math.min(...lons)) * cos, 0.01);
    const k = Math.min((size.width * 0.8) / spanLon, (size.height * 0.8) / spanLat);
    view = { lat, lon, k: focus && shown.length === 1 ? k / 3 : k, cos };
    draw();
    if (focus) select(points.find((p) => p.key === focus));
  }

  const project = (lat, lon) => [size.width / 2 + (lon - view.lon) * view.cos * view.k, size.height / 2 - (lat - view.lat) * view.k];
  const unproject = (x, y) => [view.lat - (y - size.height / 2) / view.k, view.lon + (x - size.width / 2) / (view.cos * view.k)];

  function draw() {
    if (tiles) return drawTiles();
    if (!view || !size.width) return;
    svg.setAttribute('viewBox', `0 0 ${size.width} ${size.height}`);
    const [north, west] = unproject(0, 0);
    const [south, east] = unproject(size.width, size.height);
    const step = STEPS.find((st) => st * view.k >= 70) ?? 30;
    const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
    const grid = s('g', { class: 'graticule' });
    for (let lat = Math.ceil(south / step) * step; lat <= north; lat += step) {
      const [, y] = project(lat, view.lon);
      grid.append(s('line', { x1: 0, x2: size.width, y1: y, y2: y }), s('text', { x: 4, y: y - 3 }, `${lat.toFixed(digits)}°`));
    }
    const lonStep = STEPS.find((st) => st * view.k * view.cos >= 70) ?? 30;
    const lonDigits = Math.max(0, -Math.floor(Math.log10(lonStep) + 1e-9));
    for (let lon = Math.ceil(west / lonStep) * lonStep; lon <= east; lon += lonStep) {
      const [x] = project(view.lat, lon);
      grid.append(s('line', { x1: x, x2: x, y1: 0, y2: size.height }), s('text', { x: x + 3, y: size.height - 4 }, `${lon.toFixed(lonDigits)}°`));
    }
    const markers = s('g', { class: 'markers' });
    // Names above every marker, so no marker hides a name.
    const labels = s('g', { class: 'labels', 'aria-hidden': 'true' });
    const labelled = labelPlan(points.map((p) => ({ p, xy: project(p.lat, p.lon) })));
    for (const p of points) {
      const [x, y] = project(p.lat, p.lon);
      if (x < -50 || y < -50 || x > size.width + 50 || y > size.height + 50) continue;
      const marker = s('g', { class: `marker ${p.type}${selected?.key === p.key ? ' selected' : ''}`, transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`, tabindex: 0, role: 'button', 'aria-label': `${p.name}, ${p.type === 'self' ? 'this radio' : typeLabel(p.type)}`, dataset: { key: p.key } },
        p.type === 'self' ? s('rect', { x: -6, y: -6, width: 12, height: 12, transform: 'rotate(45)' }) : s('circle', { r: 6 }),
        s('title', {}, p.name));
      if (labelled.has(p.key)) labels.append(s('text', { x: (x + 9).toFixed(1), y: (y + 4).toFixed(1) }, p.name));
      marker.addEventListener('click', (e) => {
        e.stopPropagation();
        select(p);
      });
      marker.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') select(p);
      });
      markers.append(marker);
    }
    replace(svg, s('rect', { class: 'sea', width: size.width, height: size.height }), grid, markers, labels, scaleBar());
  }

  // Which markers get a name beside them: this radio and the selected one first, then servers,
  // then the rest, each only where its label overlaps none already placed (a crowded map
  // would otherwise be unreadable; every marker still names itself on hover and click).
  function labelPlan(items) {
    const rank = (p) => (p.type === 'self' ? 0 : selected?.key === p.key ? 1 : p.type === 'chat' ? 3 : 2);
    const placed = [];
    const keys = new Set();
    for (const { p, xy: [x, y] } of [...items].sort((a, b) => rank(a.p) - rank(b.p))) {
      const box = { x0: x + 8, y0: y - 8, x1: x + 12 + 7 * p.name.length, y1: y + 8 };
      if (placed.some((o) => box.x0 < o.x1 && o.x0 < box.x1 && box.y0 < o.y1 && o.y0 < box.y1)) continue;
      placed.push(box);
      keys.add(p.key);
    }
    return keys;
  }

  function scaleBar() {
    const kmPerPixel = KM_PER_DEGREE / view.k;
    const target = kmPerPixel * Math.min(160, size.width / 3);
    const magnitude = 10 ** Math.floor(Math.log10(target));
    const km = [5, 2, 1].map((f) => f * magnitude).find((d) => d <= target) ?? magnitude;
    const width = km / kmPerPixel;
    const label = km >= 1 ? `${km} km` : `${Math.round(km * 1000)} m`;
    const x = size.width - width - 16;
    const y = size.height - 22;
    return s('g', { class: 'scale', 'aria-label': `scale: ${label}` },
      s('rect', { class: 'scale-back', x: x - 6, y: y - 16, width: width + 12, height: 26 }),
      s('path', { d: `M${x} ${y - 4}v6h${width}v-6` }),
      s('text', { x: x + width / 2, y: y - 6, 'text-anchor': 'middle' }, label));
  }

  // Leaflet takes over the frame once the tiles answer; the first tile that fails before any
  // loaded brings the offline drawing back.
  async function useTiles() {
    const base = await basemap();
    if (!base || disposed) return;
    const host = h('div', { class: 'map-tiles', role: 'img', 'aria-label': 'Map of contacts' });
    frame.prepend(host);
    svg.toggleAttribute('hidden', true);
    controls.hidden = true;
    tiles = { map: tileMap(base, host, offline), host };
    tiles.layer = base.L.layerGroup().addTo(tiles.map);
    tiles.L = base.L;
    tiles.map.on('click', () => select(null));
    writeLegend();
    show();
  }

  function offline() {
    if (!tiles) return;
    tiles.map.remove();
    tiles.host.remove();
    tiles = null;
    svg.toggleAttribute('hidden', false);
    controls.hidden = false;
    writeLegend();
    view = null;
    show();
  }

  function fitTiles() {
    tiles.fitted = true;
    const target = focus ? points.filter((p) => p.key === focus) : points;
    const shown = target.length ? target : points;
    if (shown.length === 0) tiles.map.setView([0, 0], 1);
    else if (shown.length === 1) tiles.map.setView([shown[0].lat, shown[0].lon], 13);
    else tiles.map.fitBounds(shown.map((p) => [p.lat, p.lon]), { padding: [30, 30] });
    drawTiles();
    if (focus) select(points.find((p) => p.key === focus));
  }

  function drawTiles() {
    const { L, layer } = tiles;
    layer.clearLayers();
    for (const p of points) {
      const marker = L.circleMarker([p.lat, p.lon], { radius: p.type === 'self' ? 8 : 6, className: `marker ${p.type}${selected?.key === p.key ? ' selected' : ''}` });
      marker.bindTooltip(p.name, { permanent: p.type === 'self' || selected?.key === p.key, direction: 'right' });
      marker.on('click', (e) => {
        L.DomEvent.stopPropagation(e);
        select(p);
      });
      layer.addLayer(marker);
    }
  }

  let selected = null;
  function select(p) {
    selected = p ?? null;
    info.hidden = !p;
    if (!p) {
      draw();
      return;
    }
    const self = points.find((q) => q.type === 'self');
    const distance = self && self !== p ? `${formatKm(haversine(self, p))} from this radio` : null;
    replace(info,
      h('button', { class: 'close link', type: 'button', 'aria-label': 'Close', onclick: () => select(null) }, '×'),
      h('h3', {}, p.name),
      h('p', {}, p.type === 'self' ? 'This radio' : typeLabel(p.type), distance ? ` · ${distance}` : ''),
      h('p', { class: 'muted' }, `${p.lat.toFixed(5)}, ${p.lon.toFixed(5)}${p.lastAdvert ? ` · advert ${formatAgo(p.lastAdvert)}` : ''}`),
      p.type === 'self' ? null : h('a', { href: `#/contacts/${p.key}` }, 'Details'));
    draw();
  }

  function zoom(factor, x = size.width / 2, y = size.height / 2) {
    if (!view) return;
    const [lat, lon] = unproject(x, y);
    view.k = Math.min(5e6, Math.max(0.5, view.k * factor));
    // Keep the point under the cursor where it was.
    view.lat = lat + (y - size.height / 2) / view.k;
    view.lon = lon - (x - size.width / 2) / (view.cos * view.k);
    draw();
  }

  let drag = null;
  svg.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY, lat: view?.lat, lon: view?.lon, moved: false };
    svg.setPointerCapture(e.pointerId);
  });
  svg.addEventListener('pointermove', (e) => {
    if (!drag || !view) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    view.lat = drag.lat + dy / view.k;
    view.lon = drag.lon - dx / (view.cos * view.k);
    draw();
  });
  svg.addEventListener('pointerup', () => {
    drag = null;
  });
  svg.addEventListener('wheel', (e) => {
    e.preventDefault();
    const box = svg.getBoundingClientRect();
    zoom(e.deltaY < 0 ? 1.25 : 0.8, e.clientX - box.left, e.clientY - box.top);
  }, { passive: false });

  const resize = new ResizeObserver(([entry]) => {
    size = { width: Math.round(entry.contentRect.width), height: Math.round(entry.contentRect.height) };
    show();
  });
  resize.observe(svg);
  const reload = debounce(load, 500);
  const unsubscribe = app.events.subscribe((event) => {
    if (event.type === 'resync' || (event.radio === app.radio && event.type === 'contact')) reload();
  });
  load();
  useTiles();
  return {
    update(_, routeParams) {
      focus = routeParams[0] ?? null;
      fit();
    },
    dispose() {
      disposed = true;
      tiles?.map.remove();
      resize.disconnect();
      unsubscribe();
      reload.cancel();
    },
  };
}

function hasPosition(c) {
  return typeof c.latitude === 'number' && typeof c.longitude === 'number' && (c.latitude !== 0 || c.longitude !== 0);
}

function haversine(a, b) {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const x = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(x));
}

function formatKm(km) {
  return km < 1 ? `${Math.round(km * 1000)} m` : `${km.toFixed(km < 10 ? 1 : 0)} km`;
}
