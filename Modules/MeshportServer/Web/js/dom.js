// Building DOM nodes. Text always goes in as text nodes, never as HTML: names and messages come
// from the mesh and may hold anything.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttributes(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttributes(el, attrs);
  append(el, children);
  return el;
}

function setAttributes(el, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      el.addEventListener(name.slice(2), value);
    } else if (name === 'dataset') {
      Object.assign(el.dataset, value);
    } else {
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export function replace(el, ...children) {
  clear(el);
  append(el, children);
  return el;
}

// "14:05" today, "Mon 14:05" this week, "3 May 14:05" otherwise.
export function formatTime(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  const now = new Date();
  const time = date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  if (date.toDateString() === now.toDateString()) return time;
  if (now - date < 6 * 86400e3 && now >= date) return `${date.toLocaleDateString([], { weekday: 'short' })} ${time}`;
  return `${date.toLocaleDateString([], { day: 'numeric', month: 'short', year: date.getFullYear() === now.getFullYear() ? undefined : 'numeric' })} ${time}`;
}

// "just now", "5 min ago", "3 h ago", "12 d ago".
/** "direct" with no repeater between, else "1 hop", "3 hops". */
export function formatHops(hops) {
  return hops === 0 ? 'direct' : `${hops} hop${hops === 1 ? '' : 's'}`;
}

export function formatAgo(iso) {
  if (!iso) return 'never';
  const seconds = (Date.now() - new Date(iso)) / 1000;
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86400)} d ago`;
}

export function formatDuration(ms) {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function formatUptime(seconds) {
  const d = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return d > 0 ? `${d} d ${hours} h` : hours > 0 ? `${hours} h ${m} min` : `${m} min`;
}

export function shortKey(key) {
  return key ? key.slice(0, 12) : '';
}

// Calls fn at most once per `ms`, after the last call (for refreshes driven by events).
export function debounce(fn, ms) {
  let timer = null;
  const wrapped = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
  wrapped.cancel = () => clearTimeout(timer);
  return wrapped;
}

const TYPE_LABELS = { chat: 'Companion', repeater: 'Repeater', room: 'Room server', sensor: 'Sensor', none: 'Unknown' };
export function typeLabel(type) {
  return TYPE_LABELS[type] ?? type;
}
