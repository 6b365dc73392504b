// A remote node's readings: repeater status and telemetry, each a card with a "request" button,
// the latest answer and charts of what the store kept plus the answers heard since (the store
// writes samples in batches, so a fresh answer may not be stored yet).
import { get, post, query } from '../api.js';
import { h, replace, formatUptime } from '../dom.js';
import { lineChart } from '../chart.js';

// The stored items, then the live ones newer than the newest stored.
function merged(stored, live) {
  const newest = stored.length ? Math.max(...stored.map((x) => Date.parse(x.recordedAt))) : 0;
  return [...stored, ...live.filter((x) => Date.parse(x.recordedAt) > newest)];
}

// One card: title, request button, the latest answer, charts.
function readingsCard(app, { title, label, ask, storedPath, storedOf, render, chart, liveOf }) {
  const latest = h('div', { class: 'latest' });
  const charts = h('div', { class: 'charts' });
  const button = h('button', { type: 'button' }, label);
  const el = h('section', { class: 'card', 'aria-label': title }, h('div', { class: 'card-head' }, h('h3', {}, title), button), latest, charts);
  let items = [];
  let lastShown = 0;

  function show(answer) {
    // The POST's answer and the event it causes are the same reading: keep one.
    const now = Date.now();
    if (now - lastShown > 1000) {
      items.push(...liveOf(answer, new Date(now).toISOString()));
      replace(charts, chart(items));
    }
    lastShown = now;
    replace(latest, render(answer));
  }

  button.addEventListener('click', async () => {
    button.disabled = true;
    latest.textContent = 'Asking the node over the mesh…';
    try {
      show(await post(ask));
    } catch (error) {
      replace(latest, h('p', { class: 'result error' }, error.message));
    } finally {
      button.disabled = false;
    }
  });

  async function load() {
    try {
      items = merged(storedOf(await get(storedPath)), items);
      replace(charts, chart(items));
    } catch (error) {
      app.report(error);
    }
  }
  return { el, load, show };
}

export function statusCard(app, key) {
  return readingsCard(app, {
    title: 'Status',
    label: 'Request status',
    ask: app.path('remote', key, 'status'),
    storedPath: `${app.path('stats')}${query({ node: key, limit: 200 })}`,
    storedOf: (answer) => answer.samples,
    liveOf: (st, at) => [{ recordedAt: at, batteryMillivolts: st.batteryMillivolts, noiseFloor: st.noiseFloor, lastRSSI: st.lastRSSI }],
    render: renderStatus,
    chart: (samples) => {
      const series = (field, name, scale = 1) => ({ name, points: samples.filter((x) => x[field] !== undefined).map((x) => ({ t: new Date(x.recordedAt), v: x[field] * scale })) });
      return [lineChart('Battery', 'V', [series('batteryMillivolts', 'battery', 0.001)]),
        lineChart('Signal', 'dBm', [series('noiseFloor', 'noise floor'), series('lastRSSI', 'last RSSI')])];
    },
  });
}

export function telemetryCard(app, key) {
  return readingsCard(app, {
    title: 'Telemetry',
    label: 'Request telemetry',
    ask: app.path('remote', key, 'telemetry'),
    storedPath: `${app.path('remote', key, 'telemetry')}${query({ limit: 500 })}`,
    storedOf: (answer) => answer.readings,
    liveOf: (answer, at) => answer.readings.map((r) => ({ ...r, recordedAt: at })),
    render: (answer) => renderReadings(answer.readings),
    chart: telemetryCharts,
  });
}

function renderStatus(st) {
  const rows = [
    ['Battery', st.batteryMillivolts !== undefined ? `${(st.batteryMillivolts / 1000).toFixed(2)} V` : null],
    ['Uptime', st.uptimeSeconds !== undefined ? formatUptime(st.uptimeSeconds) : null],
    ['Noise floor', st.noiseFloor !== undefined ? `${st.noiseFloor} dBm` : null],
    ['Last RSSI', st.lastRSSI !== undefined ? `${st.lastRSSI} dBm` : null],
    ['Last SNR', st.lastSNR !== undefined ? `${st.lastSNR} dB` : null],
    ['Queue', st.queueLength],
    ['Packets received / sent', `${st.packetsReceived ?? '?'} / ${st.packetsSent ?? '?'}`],
    ['Flood / direct sent', `${st.sentFlood ?? '?'} / ${st.sentDirect ?? '?'}`],
    ['Airtime tx / rx', `${st.airtimeSeconds ?? '?'} s / ${st.rxAirtimeSeconds ?? '?'} s`],
    ['Receive errors', st.receiveErrors],
  ].filter(([, v]) => v !== null && v !== undefined);
  return h('dl', { class: 'facts status-table' }, rows.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

function renderReadings(readings) {
  if (readings.length === 0) return h('p', { class: 'muted' }, 'The node sent no readings (its telemetry may be denied to this radio).');
  return h('dl', { class: 'facts readings' }, readings.map((r) => [h('dt', {}, `${r.type} (channel ${r.channel})`), h('dd', {}, r.values.join(', '))]));
}

// One chart per reading type with one line per channel; readings of several values (GPS) are left out.
function telemetryCharts(readings) {
  const groups = new Map();
  for (const r of readings) {
    if (!r.recordedAt || r.values.length !== 1) continue;
    if (!groups.has(r.type)) groups.set(r.type, new Map());
    const byChannel = groups.get(r.type);
    const name = `channel ${r.channel}`;
    if (!byChannel.has(name)) byChannel.set(name, []);
    byChannel.get(name).push({ t: new Date(r.recordedAt), v: r.values[0] });
  }
  if (groups.size === 0) return h('p', { class: 'muted' }, 'No stored readings yet.');
  return [...groups].map(([type, byChannel]) => lineChart(type, '', [...byChannel].map(([name, points]) => ({ name, points }))));
}
