// The socket: connects to /ws, says hello with the saved name and token, reconnects with
// backoff, and emits each server message as a 'message' event (detail: the object).
// Cluster mode: moveTo(url) follows a redirect to the node hosting a room; a connection
// there that fails NODE_ATTEMPTS times in a row goes back to the address the page came from
// (the node went away: another one takes the player).

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const NODE_ATTEMPTS = 5;  // about 8 s of backoff: long enough for that node's restart

// A WebSocket URL from a redirect's url: absolute, or a path on the page's own host.
export function socketUrl(url, base) {
  const resolved = new URL(url, base);
  if (resolved.protocol === 'http:') resolved.protocol = 'ws:';
  if (resolved.protocol === 'https:') resolved.protocol = 'wss:';
  return resolved.href;
}

// How this device names itself in the sessions list: "Firefox on Linux" and the like.
export function deviceLabel(agent = globalThis.navigator?.userAgent ?? '') {
  const browser = /Edg\//.test(agent) ? 'Edge' : /Firefox\//.test(agent) ? 'Firefox'
    : /Chrom(e|ium)\//.test(agent) ? 'Chrome' : /Safari\//.test(agent) ? 'Safari' : 'A browser';
  const system = /Android/.test(agent) ? 'Android' : /iPhone|iPad/.test(agent) ? 'iOS'
    : /Windows/.test(agent) ? 'Windows' : /Mac OS/.test(agent) ? 'macOS'
    : /Linux/.test(agent) ? 'Linux' : '';
  return system ? `${browser} on ${system}` : browser;
}

export class Connection extends EventTarget {
  // storage: a ClientStorage (storage.js), where the name and token are kept.
  constructor(url, storage) {
    super();
    this.home = url;
    this.url = url;
    this.storage = storage;
    this.socket = null;
    this.attempt = 0;
    this.status = 'idle';
  }

  get name() { return this.storage.name; }
  get token() { return this.storage.token; }

  // Starts (or restarts) the connection as `name` (a new name is a new player).
  open(name) {
    this.storage.name = name;
    this.first = null;
    this.connect();
  }

  // Signs in with an account's name and password instead (never kept), or with a link code
  // from another device; the welcome brings the token and the name to keep.
  signIn(name, password) {
    this.storage.forget();
    this.first = { type: 'login', name, password, device: deviceLabel() };
    this.connect();
  }
  link(code) {
    this.storage.forget();
    this.first = { type: 'hello', link_code: code, device: deviceLabel() };
    this.connect();
  }
  // Signed out (logout): the name and token are forgotten; the name screen comes back.
  forget() {
    this.storage.forget();
    this.first = null;
  }
  // Whether the page has someone to connect as.
  get ready() { return !!this.name || !!this.first; }

  connect() {
    if (this.socket) this.socket.onclose = null, this.socket.close();
    this.setStatus('connecting');
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.setStatus('open');
      const hello = { type: 'hello', name: this.name, device: deviceLabel() };
      if (this.token) hello.token = this.token;
      this.send(this.token || !this.first ? hello : this.first);
    };
    socket.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type === 'welcome') {
        this.storage.signedIn(msg.player.name, msg.token);
        this.first = null;  // the password is not kept, even here
      }
      if (msg.type === 'logged_out') this.forget();
      if (msg.type === 'renamed') this.storage.signedIn(msg.player.name, this.token);
      if (msg.type === 'error' && this.first && !this.token &&
          (msg.code === 'bad_credentials' || msg.code === 'rate_limited')) {
        this.first = null;  // back to the name screen, where the notice says why
      }
      if (msg.type === 'error' && msg.code === 'banned') this.banned = true;  // no reconnecting
      if (msg.type === 'error' && msg.code === 'bad_token') {
        this.storage.token = null;  // forgotten by the server: start afresh
        this.send({ type: 'hello', name: this.name });
      }
      // A name that is taken or refused: back to the name screen, where the notice says why.
      if (msg.type === 'error' && !this.token &&
          (msg.code === 'name_taken' || (msg.code === 'bad_field' && msg.field === 'name'))) {
        this.storage.forget();
      }
      this.dispatchEvent(new CustomEvent('message', { detail: msg }));
    };
    socket.onclose = (event) => {
      if (event.code === 4003) this.banned = true;
      this.setStatus(event.code === 4000 ? 'replaced' : this.banned ? 'banned' : 'closed');
      if (event.code === 4000 || this.banned) return;  // another tab took over, or a ban
      if (!this.ready) return;          // signed out: nobody to reconnect as
      if (this.url !== this.home && this.attempt >= NODE_ATTEMPTS) this.url = this.home;
      const delay = BACKOFF_MS[Math.min(this.attempt++, BACKOFF_MS.length - 1)];
      setTimeout(() => this.connect(), delay);
    };
  }

  // Reconnects at once to url (a redirect's), saying hello there with the same token.
  moveTo(url) {
    this.url = socketUrl(url, this.home);
    this.attempt = 0;
    this.connect();
  }

  send(msg) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(msg));
  }

  setStatus(status) {
    this.status = status;
    this.dispatchEvent(new CustomEvent('status', { detail: status }));
  }
}
