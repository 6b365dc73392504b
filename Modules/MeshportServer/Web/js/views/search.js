// Message search: the server's full-text index, best first, with the matching words marked.
import { get, query } from '../api.js';
import { h, replace, formatTime } from '../dom.js';
import { hrefOf } from './chats.js';

export function mount(app, container, name, params) {
  const input = h('input', { type: 'search', name: 'q', placeholder: 'Search messages', 'aria-label': 'Search messages', autocomplete: 'off' });
  const form = h('form', { class: 'inline search-form', role: 'search' }, input, h('button', { type: 'submit' }, 'Search'));
  const summary = h('p', { class: 'muted', role: 'status' });
  const results = h('ol', { class: 'hits' });
  container.append(h('section', { class: 'page' }, h('h2', {}, 'Search'), form, summary, results));

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text) app.navigate(`#/search/${encodeURIComponent(text)}`);
  });

  async function run(text) {
    input.value = text ?? '';
    replace(results);
    if (!text) {
      summary.textContent = 'Words match whole or as a prefix (range matches ranges); quotes match a phrase.';
      return;
    }
    summary.textContent = 'Searching…';
    try {
      const answer = await get(`${app.path('search')}${query({ q: text, limit: 100 })}`);
      summary.textContent = `${answer.hits.length} message${answer.hits.length === 1 ? '' : 's'} match “${text}”.`;
      replace(results, answer.hits.map((hit) => {
        const m = hit.message;
        const where = m.conversation.kind === 'channel' ? `#${channelName(m)}` : app.name(m.conversation.key);
        return h('li', {}, h('a', { class: 'hit', href: hrefOf(m.conversation) },
          h('span', { class: 'hit-head' }, h('strong', {}, where), ' · ', m.direction === 'out' ? 'you' : (m.sender || app.name(m.conversation.key)), ' · ', h('time', { datetime: m.timestamp }, formatTime(m.timestamp))),
          h('span', { class: 'snippet' }, hit.snippet.map((part) => (part.match ? h('mark', {}, part.text) : part.text)))));
      }));
    } catch (error) {
      summary.textContent = error.message;
    }
  }

  function channelName(m) {
    return `channel ${m.conversation.channel}`;
  }

  run(params[0]);
  input.focus();
  return { update: (_, routeParams) => run(routeParams[0]) };
}
