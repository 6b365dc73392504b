// Small SVG line charts for readings over time (repeater status, telemetry). No library: an
// axis with the range, the first and last time, and one line per series.
import { h, s } from './dom.js';

const WIDTH = 600;
const HEIGHT = 160;
const PAD = { left: 48, right: 12, top: 12, bottom: 22 };

// series: [{name, points: [{t: Date, v: number}]}], all in one unit.
export function lineChart(title, unit, series) {
  const all = series.flatMap((x) => x.points);
  const figure = h('figure', { class: 'chart' }, h('figcaption', {}, title, unit ? ` (${unit})` : ''));
  if (all.length === 0) {
    figure.append(h('p', { class: 'muted' }, 'No readings stored yet.'));
    return figure;
  }
  const times = all.map((p) => p.t.getTime());
  const values = all.map((p) => p.v);
  let [t0, t1] = [Math.min(...times), Math.max(...times)];
  let [v0, v1] = [Math.min(...values), Math.max(...values)];
  if (t0 === t1) [t0, t1] = [t0 - 60e3, t1 + 60e3];
  if (v0 === v1) [v0, v1] = [v0 - 1, v1 + 1];
  const x = (t) => PAD.left + ((t - t0) / (t1 - t0)) * (WIDTH - PAD.left - PAD.right);
  const y = (v) => HEIGHT - PAD.bottom - ((v - v0) / (v1 - v0)) * (HEIGHT - PAD.top - PAD.bottom);
  const svg = s('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': `${title}: ${series.map((x2) => `${x2.name} latest ${x2.points.at(-1)?.v ?? 'none'}`).join(', ')}` },
    s('g', { class: 'axis' },
      s('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: HEIGHT - PAD.bottom, y2: HEIGHT - PAD.bottom }),
      s('line', { x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: HEIGHT - PAD.bottom }),
      s('text', { x: PAD.left - 4, y: y(v1) + 4, 'text-anchor': 'end' }, format(v1)),
      s('text', { x: PAD.left - 4, y: y(v0) + 4, 'text-anchor': 'end' }, format(v0)),
      s('text', { x: PAD.left, y: HEIGHT - 6 }, new Date(t0).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' })),
      s('text', { x: WIDTH - PAD.right, y: HEIGHT - 6, 'text-anchor': 'end' }, new Date(t1).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' }))));
  series.forEach((line, i) => {
    const sorted = [...line.points].sort((a, b) => a.t - b.t);
    const points = sorted.map((p) => `${x(p.t.getTime()).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ');
    svg.append(s('polyline', { class: `series s${i % 4}`, points }),
      ...sorted.map((p) => s('circle', { class: `series s${i % 4}`, cx: x(p.t.getTime()), cy: y(p.v), r: 2.5 }, s('title', {}, `${line.name}: ${format(p.v)} at ${p.t.toLocaleString()}`))));
  });
  figure.append(svg);
  if (series.length > 1) {
    figure.append(h('p', { class: 'chart-legend' }, series.map((line, i) => h('span', { class: `key s${i % 4}` }, line.name))));
  }
  return figure;
}

function format(v) {
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);
}
