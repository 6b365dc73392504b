// Settings: the radio's identity, every setting with its value read from the radio (each write is
// read back by the server and the result shown beside the field), and the channel slots.
import { get, put, post, del } from '../api.js';
import { h, replace } from '../dom.js';

export function mount(app, container) {
  const identity = h('section', { class: 'card', 'aria-label': 'This radio' });
  const settingsList = h('form', { class: 'settings', 'aria-label': 'Settings' });
  const channels = h('section', { class: 'card', id: 'channels', 'aria-label': 'Channels' });
  container.append(h('section', { class: 'page' }, h('h2', {}, 'Settings'), identity,
    h('section', { class: 'card' }, h('h3', {}, 'Radio settings'), h('p', { class: 'muted' }, 'Each change is written to the radio, read back and compared.'), settingsList),
    channels,
    h('section', { class: 'card' }, h('h3', {}, 'History'), h('p', {}, 'The whole database, copied while the radios keep writing: ', h('a', { href: '/api/backup', download: true }, 'download a backup'), '.'))));

  async function loadIdentity() {
    try {
      const self = await get(app.path('self'));
      const radio = app.radios.get(app.radio);
      replace(identity, h('h3', {}, 'This radio'), h('dl', { class: 'facts' },
        h('dt', {}, 'Name'), h('dd', {}, self.name),
        h('dt', {}, 'Public key'), h('dd', { class: 'key' }, self.publicKey),
        h('dt', {}, 'Connection'), h('dd', {}, radio?.url ?? ''),
        h('dt', {}, 'LoRa'), h('dd', {}, `${self.radio.frequencyMHz} MHz, ${self.radio.bandwidthKHz} kHz, SF${self.radio.spreadingFactor}, CR 4/${self.radio.codingRate}`),
        h('dt', {}, 'Transmit power'), h('dd', {}, `${self.txPower} dBm (max ${self.maxTxPower})`)),
        advertControls());
    } catch (error) {
      replace(identity, h('h3', {}, 'This radio'), h('p', { class: 'result error' }, error.message));
    }
  }

  // The apps' "Advert" button: zero-hop reaches radios in direct range, flood every repeater too.
  function advertControls() {
    const result = h('p', { class: 'result', role: 'status', id: 'advert-result' });
    const send = async (flood, button) => {
      button.disabled = true;
      result.className = 'result pending';
      result.textContent = 'Sending the advert…';
      try {
        const advert = await post(app.path('advert'), { flood });
        const where = advert.latitude === undefined ? 'without a position (advert_loc_policy is none)' : `at ${advert.latitude}, ${advert.longitude}`;
        result.className = 'result ok';
        result.textContent = `Sent ${flood ? 'a flood' : 'a zero-hop'} advert as ${advert.name}, ${where}.`;
      } catch (error) {
        result.className = 'result error';
        result.textContent = error.message;
      } finally {
        button.disabled = false;
      }
    };
    const zeroHop = h('button', { type: 'button', class: 'small', id: 'advert-zero-hop' }, 'Advert (zero-hop)');
    const flood = h('button', { type: 'button', class: 'small', id: 'advert-flood' }, 'Advert (flood)');
    zeroHop.addEventListener('click', () => send(false, zeroHop));
    flood.addEventListener('click', () => send(true, flood));
    return h('div', { class: 'advert' }, h('p', { class: 'muted' }, 'Announce this radio: radios in direct range hear a zero-hop advert; a flood one goes through every repeater.'),
      h('div', { class: 'actions' }, zeroHop, flood), result);
  }

  async function loadSettings() {
    try {
      const settings = await get(app.path('settings'));
      replace(settingsList, settings.map(settingRow));
    } catch (error) {
      replace(settingsList, h('p', { class: 'result error' }, error.message));
    }
  }

  function settingRow(setting) {
    const id = `setting-${setting.name}`;
    const input = h('input', { id, name: setting.name, value: setting.value ?? '', readonly: !setting.writable, autocomplete: 'off', spellcheck: 'false' });
    const result = h('p', { class: 'result', role: 'status', id: `${id}-result` });
    const save = h('button', { type: 'button', class: 'small', hidden: !setting.writable, 'aria-label': `Save ${setting.name}` }, 'Save');
    // Values offered by name (radio: the regional presets): choosing one fills the field,
    // which stays editable for any other value. Several presets share values: the first shows.
    const current = setting.choices?.find((c) => c.value === setting.value);
    const presets = setting.writable && setting.choices ? h('select', { 'aria-label': `${setting.name} presets`, class: 'presets' },
      h('option', { value: '' }, 'Preset…'),
      setting.choices.map((c) => h('option', { value: c.value, selected: c === current }, c.label))) : null;
    presets?.addEventListener('change', () => {
      if (presets.value) input.value = presets.value;
    });
    const row = h('div', { class: 'setting', dataset: { name: setting.name } },
      h('label', { for: id }, h('span', { class: 'setting-name' }, setting.name), h('span', { class: 'muted' }, ` ${setting.summary}`)),
      h('div', { class: 'setting-edit' }, presets, input, save),
      h('p', { class: 'hint' }, setting.range), result);
    const write = async () => {
      if (!setting.writable) return;
      save.disabled = true;
      result.className = 'result pending';
      result.textContent = 'Writing and reading back…';
      try {
        const change = await put(app.path('settings', setting.name), { value: input.value.trim() });
        input.value = change.after;
        setting.value = change.after;
        result.className = 'result ok';
        result.textContent = change.before === change.after ? `Unchanged: the radio reports ${change.after}.` : `Saved: the radio now reports ${change.after} (was ${change.before}).`;
        if (['name', 'radio', 'freq', 'bw', 'sf', 'cr', 'tx'].includes(setting.name)) loadIdentity();
      } catch (error) {
        result.className = 'result error';
        result.textContent = error.message;
      } finally {
        save.disabled = false;
      }
    };
    save.addEventListener('click', write);
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        write();
      }
    });
    return row;
  }

  async function loadChannels() {
    const name = h('input', { name: 'channel-name', placeholder: '#hashtag or a name', 'aria-label': 'Channel name', required: true });
    const secret = h('input', { name: 'channel-secret', placeholder: 'secret (32 hex) or passphrase, for a private channel', 'aria-label': 'Secret or passphrase', autocomplete: 'off' });
    const result = h('p', { class: 'result', role: 'status' });
    const form = h('form', { class: 'inline' }, name, secret, h('button', { type: 'submit' }, 'Join'));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const body = { name: name.value.trim() };
      const given = secret.value.trim();
      if (given) body[/^[0-9a-fA-F]{32}$/.test(given) ? 'secret' : 'passphrase'] = given;
      try {
        const channel = await post(app.path('channels'), body);
        result.className = 'result ok';
        result.textContent = `Joined ${channel.name} in slot ${channel.index}.`;
        name.value = '';
        secret.value = '';
        showSlots();
      } catch (error) {
        result.className = 'result error';
        result.textContent = error.message;
      }
    });
    const slots = h('ul', { class: 'slots' });
    async function showSlots() {
      try {
        const list = await get(app.path('channels'));
        replace(slots, list.map((c) => h('li', { dataset: { kind: c.kind } },
          h('span', { class: 'slot' }, `${c.index}`),
          c.kind === 'empty' ? h('span', { class: 'muted' }, 'empty') : h('a', { href: `#/chat/channel/${c.index}` }, c.name),
          h('span', { class: 'muted' }, c.kind === 'empty' ? '' : ` ${c.kind}`),
          c.kind === 'empty' || c.index === 0 ? null : h('button', { type: 'button', class: 'link danger', onclick: async () => {
            if (!confirm(`Leave ${c.name}? The slot is emptied on the radio; its messages stay in the history.`)) return;
            try {
              await del(app.path('channels', c.index));
              showSlots();
            } catch (error) {
              app.report(error);
            }
          } }, 'Leave'))));
      } catch (error) {
        replace(slots, h('li', { class: 'result error' }, error.message));
      }
    }
    replace(channels, h('h3', {}, 'Channels'), slots, form, result);
    showSlots();
  }

  const unsubscribe = app.events.subscribe((event) => {
    if (event.type === 'resync' || (event.radio === app.radio && event.type === 'connection' && event.state === 'ready')) {
      loadIdentity();
      loadSettings();
    }
  });
  loadIdentity();
  loadSettings();
  loadChannels();
  return { dispose: unsubscribe };
}
