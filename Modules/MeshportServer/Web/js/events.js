// The server's event stream (/api/events, a WebSocket). Reconnects with backoff; after a
// reconnect (or a 1013 close: this client fell behind) listeners get a `resync` so views reload
// what they show instead of trusting what they missed.

export class EventStream {
  constructor(url) {
    this.url = url;
    this.listeners = new Set();
    this.stateListeners = new Set();
    this.state = 'connecting';
    this.attempt = 0;
    this.socket = null;
    this.everOpened = false;
  }

  // fn(event) for every event; returns a function that removes it.
  subscribe(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  onState(fn) {
    this.stateListeners.add(fn);
    fn(this.state);
    return () => this.stateListeners.delete(fn);
  }

  start() {
    this.connect();
  }

  connect() {
    this.setState(this.everOpened ? 'reconnecting' : 'connecting');
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (error) {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.attempt = 0;
      const reopened = this.everOpened;
      this.everOpened = true;
      this.setState('open');
      if (reopened) this.dispatch({ type: 'resync' });
    });
    socket.addEventListener('message', (message) => {
      let event;
      try {
        event = JSON.parse(message.data);
      } catch {
        console.warn('meshport: an event that is not JSON was ignored', message.data);
        return;
      }
      this.dispatch(event);
    });
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.retry();
    });
  }

  retry() {
    this.setState('reconnecting');
    const delay = Math.min(10000, 250 * 2 ** this.attempt);
    this.attempt += 1;
    setTimeout(() => this.connect(), delay);
  }

  dispatch(event) {
    for (const fn of this.listeners) {
      try {
        fn(event);
      } catch (error) {
        console.error('meshport: an event listener failed', event.type, error);
      }
    }
  }

  setState(state) {
    this.state = state;
    for (const fn of this.stateListeners) fn(state);
  }
}
