// Who a connection says it is, and what the server's answers mean for that: the first
// message of every connection (a hello with the kept name and token; once, a login with a
// password or a hello with a link code), the name and token kept from a welcome, and the
// refusals that send the player back to the name screen, start afresh or stop reconnecting.
// No socket: Connection sends what this returns.

// How this device names itself in the sessions list: "Firefox on Linux" and the like.
export function deviceLabel(agent = globalThis.navigator?.userAgent ?? '') {
  const browser = /Edg\//.test(agent) ? 'Edge' : /Firefox\//.test(agent) ? 'Firefox'
    : /Chrom(e|ium)\//.test(agent) ? 'Chrome' : /Safari\//.test(agent) ? 'Safari' : 'A browser';
  const system = /Android/.test(agent) ? 'Android' : /iPhone|iPad/.test(agent) ? 'iOS'
    : /Windows/.test(agent) ? 'Windows' : /Mac OS/.test(agent) ? 'macOS'
    : /Linux/.test(agent) ? 'Linux' : '';
  return system ? `${browser} on ${system}` : browser;
}

export class Handshake {
  // storage: a ClientStorage (storage.js), where the name and token are kept.
  constructor(storage) {
    this.storage = storage;
    this.first = null;    // a login or link hello to open the next connection with, once
    this.banned = false;  // the server said banned: no reconnecting
  }

  get name() { return this.storage.name; }
  get token() { return this.storage.token; }
  // Whether the page has someone to connect as.
  get ready() { return !!this.name || !!this.first; }

  // A name of my own (a new name is a new player).
  asName(name) {
    this.storage.name = name;
    this.first = null;
  }
  // An account's name and password (never kept), or a link code from another device; the
  // welcome brings the token and the name to keep.
  signIn(name, password) {
    this.storage.forget();
    this.first = { type: 'login', name, password, device: deviceLabel() };
    if (this.storage.deviceMark) this.first.device_mark = this.storage.deviceMark;
  }
  link(code) {
    this.storage.forget();
    this.first = { type: 'hello', link_code: code, device: deviceLabel() };
  }
  // Signed out (logout): the name and token are forgotten; the name screen comes back.
  forget() {
    this.storage.forget();
    this.first = null;
  }

  // The message that opens a connection.
  opening() {
    const hello = { type: 'hello', name: this.name, device: deviceLabel() };
    if (this.token) hello.token = this.token;
    return this.token || !this.first ? hello : this.first;
  }

  // Folds in a server message; returns a message to send at once (a fresh hello when the
  // server has forgotten the token), else null.
  answer(msg) {
    if (msg.type === 'welcome') {
      this.storage.signedIn(msg.player.name, msg.token);
      if (msg.device_mark) this.storage.deviceMark = msg.device_mark;
      this.first = null;  // the password is not kept, even here
    }
    if (msg.type === 'logged_out') this.forget();
    if (msg.type === 'renamed') this.storage.signedIn(msg.player.name, this.token);
    if (msg.type !== 'error') return null;
    if (this.first && !this.token && (msg.code === 'bad_credentials' || msg.code === 'rate_limited')) {
      this.first = null;  // back to the name screen, where the notice says why
    }
    if (msg.code === 'banned') this.banned = true;
    // A name that is taken or refused: back to the name screen, where the notice says why.
    if (!this.token && (msg.code === 'name_taken' || (msg.code === 'bad_field' && msg.field === 'name'))) {
      this.storage.forget();
    }
    if (msg.code === 'bad_token') {
      this.storage.token = null;  // forgotten by the server: start afresh
      return { type: 'hello', name: this.name };
    }
    return null;
  }
}
