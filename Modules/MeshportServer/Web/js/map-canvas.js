// A map of points (nodes, this radio, observers) and lines between them, for the map views.
// It draws on tiles through Leaflet when basemap.js finds them, else offline: an SVG with a
// graticule and a scale bar, equirectangular around the view's latitude (exact enough at mesh
// scale), drag to pan, wheel or +/− to zoom. The view owns the data and the card of a selected
// point; this file only draws.
import { basemap, tileMap } from './basemap.js';
import { h, s, replace } from './dom.js';

const KM_PER_DEGREE = 111.32;
const STEPS = [0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];

// A line's class from its SNR: the colours of app.css's `.link` rules.
export function snrClass(snr) {
  if (typeof snr !== 'number') return 'snr-unknown';
  return snr >= 5 ? 'snr-good' : snr >= 0 ? 'snr-fair' : snr >= -7 ? 'snr-poor' : 'snr-bad';
}

// `label`: the map's accessible name; `onSelect(point or null)`, `onMode(tiled)`: the view's.
// Points: {key, name, type, lat, lon, label?: the accessible name}; lines: {from, to, snr, title} between point keys.
export class MapCanvas {
  constructor(frame, { label, onSelect, onMode }) {
    this.frame = frame;
    this.label = label;
    this.onSelect = onSelect;
    this.onMode = onMode ?? (() => {});
    this.points = [];
    this.lines = [];
    this.selected = null;
    this.view = null; // offline: {lat, lon, k: pixels per degree of latitude, cos}
    this.size = { width: 0, height: 0 };
    this.loaded = false;
    this.tiles = null; // {L, map, layer, host, fitted} while Leaflet draws
    this.disposed = false;
    this.svg = s('svg', { class: 'map', role: 'img', 'aria-label': label });
    this.controls = h('div', { class: 'map-controls' },
      h('button', { type: 'button', 'aria-label': 'Zoom in', onclick: () => this.zoom(2) }, '+'),
      h('button', { type: 'button', 'aria-label': 'Zoom out', onclick: () => this.zoom(0.5) }, '−'),
      h('button', { type: 'button', onclick: () => this.fit() }, 'Fit'));
    frame.prepend(this.svg, this.controls);
    this.listen();
    this.useTiles();
  }

  get tiled() {
    return this.tiles !== null;
  }

  // New data; the first time, the view fits it (`focus`: one point's key to centre on).
  setData(points, lines = [], focus = null) {
    this.points = points;
    this.lines = lines;
    this.focus = focus;
    if (this.selected) this.selected = points.find((p) => p.key === this.selected.key) ?? null;
    const first = !this.loaded;
    this.loaded = true;
    if (first) this.fit();
    else this.draw();
  }

  select(point) {
    this.selected = point ?? null;
    this.onSelect(this.selected);
    this.draw();
  }

  fit(focus = this.focus) {
    this.focus = focus;
    if (!this.loaded) return;
    const target = focus ? this.points.filter((p) => p.key === focus) : this.points;
    const shown = target.length ? target : this.points;
    if (this.tiles) this.fitTiles(shown);
    else this.fitOffline(shown);
    if (focus) this.select(this.points.find((p) => p.key === focus));
  }

  dispose() {
    this.disposed = true;
    this.tiles?.map.remove();
    this.resize.disconnect();
  }

  draw() {
    if (this.tiles) this.drawTiles();
    else this.drawOffline();
  }

  // --- tiles (Leaflet) ---

  // Leaflet takes over the frame once the tiles answer; the first tile that fails before any
  // loaded brings the offline drawing back.
  async useTiles() {
    const base = await basemap();
    if (!base || this.disposed) return;
    const host = h('div', { class: 'map-tiles', role: 'img', 'aria-label': this.label });
    this.frame.prepend(host);
    this.svg.toggleAttribute('hidden', true);
    this.controls.hidden = true;
    const map = tileMap(base, host, () => this.offline());
    this.tiles = { L: base.L, map, host, layer: base.L.layerGroup().addTo(map), fitted: false };
    map.on('click', () => this.select(null));
    this.onMode(true);
    if (this.loaded) this.fit();
  }

  offline() {
    if (!this.tiles) return;
    this.tiles.map.remove();
    this.tiles.host.remove();
    this.tiles = null;
    this.svg.toggleAttribute('hidden', false);
    this.controls.hidden = false;
    this.view = null;
    this.onMode(false);
    if (this.loaded && this.size.width) this.fit();
  }

  fitTiles(shown) {
    const { map } = this.tiles;
    this.tiles.fitted = true;
    if (shown.length === 0) map.setView([0, 0], 1);
    else if (shown.length === 1) map.setView([shown[0].lat, shown[0].lon], 13);
    else map.fitBounds(shown.map((p) => [p.lat, p.lon]), { padding: [30, 30] });
    this.drawTiles();
  }

  drawTiles() {
    const { L, layer } = this.tiles;
    layer.clearLayers();
    const byKey = new Map(this.points.map((p) => [p.key, p]));
    for (const line of this.lines) {
      const a = byKey.get(line.from);
      const b = byKey.get(line.to);
      if (!a || !b) continue;
      const path = L.polyline([[a.lat, a.lon], [b.lat, b.lon]], { className: `link ${snrClass(line.snr)}`, weight: 2 });
      if (line.title) path.bindTooltip(line.title, { sticky: true });
      layer.addLayer(path);
    }
    for (const p of this.points) {
      const chosen = this.selected?.key === p.key;
      const marker = L.circleMarker([p.lat, p.lon], { radius: p.type === 'self' || p.type === 'observer' ? 8 : 6, className: `marker ${p.type}${chosen ? ' selected' : ''}` });
      marker.bindTooltip(p.name, { permanent: p.type === 'self' || chosen, direction: 'right' });
      marker.on('click', (e) => {
        L.DomEvent.stopPropagation(e);
        this.select(p);
      });
      layer.addLayer(marker);
    }
  }

  // --- offline (SVG) ---

  project(lat, lon) {
    const { view, size } = this;
    return [size.width / 2 + (lon - view.lon) * view.cos * view.k, size.height / 2 - (lat - view.lat) * view.k];
  }

  unproject(x, y) {
    const { view, size } = this;
    return [view.lat - (y - size.height / 2) / view.k, view.lon + (x - size.width / 2) / (view.cos * view.k)];
  }

  fitOffline(shown) {
    const { size } = this;
    if (!size.width) return;
    if (shown.length === 0) {
      this.view = { lat: 0, lon: 0, k: Math.max(1, size.width / 360), cos: 1 };
      this.drawOffline();
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
    this.view = { lat, lon, k: this.focus && shown.length === 1 ? k / 3 : k, cos };
    this.drawOffline();
  }

  drawOffline() {
    const { view, size, svg } = this;
    if (!view || !size.width) return;
    svg.setAttribute('viewBox', `0 0 ${size.width} ${size.height}`);
    const [north, west] = this.unproject(0, 0);
    const [south, east] = this.unproject(size.width, size.height);
    const step = STEPS.find((st) => st * view.k >= 70) ?? 30;
    const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
    const grid = s('g', { class: 'graticule' });
    for (let lat = Math.ceil(south / step) * step; lat <= north; lat += step) {
      const [, y] = this.project(lat, view.lon);
      grid.append(s('line', { x1: 0, x2: size.width, y1: y, y2: y }), s('text', { x: 4, y: y - 3 }, `${lat.toFixed(digits)}°`));
    }
    const lonStep = STEPS.find((st) => st * view.k * view.cos >= 70) ?? 30;
    const lonDigits = Math.max(0, -Math.floor(Math.log10(lonStep) + 1e-9));
    for (let lon = Math.ceil(west / lonStep) * lonStep; lon <= east; lon += lonStep) {
      const [x] = this.project(view.lat, lon);
      grid.append(s('line', { x1: x, x2: x, y1: 0, y2: size.height }), s('text', { x: x + 3, y: size.height - 4 }, `${lon.toFixed(lonDigits)}°`));
    }
    const byKey = new Map(this.points.map((p) => [p.key, p]));
    const links = s('g', { class: 'links' });
    for (const line of this.lines) {
      const a = byKey.get(line.from);
      const b = byKey.get(line.to);
      if (!a || !b) continue;
      const [x1, y1] = this.project(a.lat, a.lon);
      const [x2, y2] = this.project(b.lat, b.lon);
      links.append(s('line', { class: `link ${snrClass(line.snr)}`, x1, y1, x2, y2 }, line.title ? s('title', {}, line.title) : null));
    }
    const markers = s('g', { class: 'markers' });
    // Names above every marker, so no marker hides a name.
    const labels = s('g', { class: 'labels', 'aria-hidden': 'true' });
    const labelled = this.labelPlan();
    for (const p of this.points) {
      const [x, y] = this.project(p.lat, p.lon);
      if (x < -50 || y < -50 || x > size.width + 50 || y > size.height + 50) continue;
      const square = p.type === 'self' || p.type === 'observer';
      const marker = s('g', { class: `marker ${p.type}${this.selected?.key === p.key ? ' selected' : ''}`, transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`, tabindex: 0, role: 'button', 'aria-label': p.label ?? p.name, dataset: { key: p.key } },
        square ? s('rect', { x: -6, y: -6, width: 12, height: 12, transform: 'rotate(45)' }) : s('circle', { r: 6 }),
        s('title', {}, p.name));
      if (labelled.has(p.key)) labels.append(s('text', { x: (x + 9).toFixed(1), y: (y + 4).toFixed(1) }, p.name));
      marker.addEventListener('click', (e) => {
        e.stopPropagation();
        this.select(p);
      });
      marker.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') this.select(p);
      });
      markers.append(marker);
    }
    replace(svg, s('rect', { class: 'sea', width: size.width, height: size.height }), grid, links, markers, labels, this.scaleBar());
  }

  // Which markers get a name beside them: this radio, observers and the selected one first,
  // then servers, then the rest, each only where its label overlaps none already placed (a
  // crowded map would otherwise be unreadable; every marker names itself on hover and click).
  labelPlan() {
    const rank = (p) => (p.type === 'self' || p.type === 'observer' ? 0 : this.selected?.key === p.key ? 1 : p.type === 'chat' ? 3 : 2);
    const placed = [];
    const keys = new Set();
    for (const p of [...this.points].sort((a, b) => rank(a) - rank(b))) {
      const [x, y] = this.project(p.lat, p.lon);
      const box = { x0: x + 8, y0: y - 8, x1: x + 12 + 7 * p.name.length, y1: y + 8 };
      if (placed.some((o) => box.x0 < o.x1 && o.x0 < box.x1 && box.y0 < o.y1 && o.y0 < box.y1)) continue;
      placed.push(box);
      keys.add(p.key);
    }
    return keys;
  }

  scaleBar() {
    const { view, size } = this;
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

  zoom(factor, x = this.size.width / 2, y = this.size.height / 2) {
    const { view, size } = this;
    if (!view) return;
    const [lat, lon] = this.unproject(x, y);
    view.k = Math.min(5e6, Math.max(0.5, view.k * factor));
    // Keep the point under the cursor where it was.
    view.lat = lat + (y - size.height / 2) / view.k;
    view.lon = lon - (x - size.width / 2) / (view.cos * view.k);
    this.drawOffline();
  }

  listen() {
    const { svg } = this;
    let drag = null;
    svg.addEventListener('pointerdown', (e) => {
      drag = { x: e.clientX, y: e.clientY, lat: this.view?.lat, lon: this.view?.lon };
      svg.setPointerCapture(e.pointerId);
    });
    svg.addEventListener('pointermove', (e) => {
      if (!drag || !this.view) return;
      this.view.lat = drag.lat + (e.clientY - drag.y) / this.view.k;
      this.view.lon = drag.lon - (e.clientX - drag.x) / (this.view.cos * this.view.k);
      this.drawOffline();
    });
    svg.addEventListener('pointerup', () => {
      drag = null;
    });
    svg.addEventListener('wheel', (e) => {
      e.preventDefault();
      const box = svg.getBoundingClientRect();
      this.zoom(e.deltaY < 0 ? 1.25 : 0.8, e.clientX - box.left, e.clientY - box.top);
    }, { passive: false });
    this.resize = new ResizeObserver(([entry]) => {
      const first = !this.size.width;
      this.size = { width: Math.round(entry.contentRect.width), height: Math.round(entry.contentRect.height) };
      if (this.tiles || !this.loaded || !this.size.width) return;
      if (first || !this.view) this.fit();
      else this.drawOffline();
    });
    this.resize.observe(svg);
  }
}
