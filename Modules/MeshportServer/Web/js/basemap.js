// The maps' base layer: tiles drawn by Leaflet when the server has Leaflet (GET /api/map) and
// the browser reaches the tile server; null otherwise, and the view draws offline.
import { get } from './api.js';

const PROBE_MS = 4000;
let leaflet = null;

export async function basemap() {
  let config;
  try {
    config = await get('/api/map');
  } catch {
    return null;
  }
  if (!config.leaflet || !config.tiles) return null;
  if (!(await reachable(config.tiles))) return null;
  leaflet ??= Promise.all([style(`${config.leaflet}leaflet.css`), script(`${config.leaflet}leaflet.js`)]).then(() => window.L ?? null, () => null);
  const L = await leaflet;
  return L ? { L, tiles: config.tiles, attribution: config.attribution } : null;
}

// A new Leaflet map in `host` with the tile layer; `offline` is called if no tile ever loads.
export function tileMap(base, host, offline) {
  const map = base.L.map(host, { zoomControl: true, attributionControl: true, worldCopyJump: true });
  let loaded = false;
  base.L.tileLayer(base.tiles, { maxZoom: 19, attribution: base.attribution ?? '' })
    .on('tileload', () => {
      loaded = true;
    })
    .on('tileerror', () => {
      if (!loaded) offline();
    })
    .addTo(map);
  return map;
}

// One tile (the whole world at zoom 0) answers within the probe time.
function reachable(template) {
  const url = template.replace('{s}', 'a').replace('{z}', '0').replace('{x}', '0').replace('{y}', '0').replace('{r}', '');
  return new Promise((resolve) => {
    const image = new Image();
    const timer = setTimeout(() => done(false), PROBE_MS);
    function done(ok) {
      clearTimeout(timer);
      image.onload = image.onerror = null;
      resolve(ok);
    }
    image.onload = () => done(true);
    image.onerror = () => done(false);
    image.src = url;
  });
}

function style(href) {
  if (document.querySelector(`link[href="${href}"]`)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href, onload: resolve, onerror: reject });
    document.head.append(link);
  });
}

function script(src) {
  if (window.L) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const tag = Object.assign(document.createElement('script'), { src, onload: resolve, onerror: reject });
    document.head.append(tag);
  });
}
