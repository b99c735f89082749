// The socket: connects to /ws, opens with the handshake's hello (handshake.js), reconnects with
// backoff and jitter, and emits each server message as a 'message' event (detail: the
// object). What the player asks for before the server has welcomed this connection (the
// first connect, a reconnect) waits in an Outbox and goes once it has: a click never
// vanishes. While welcomed it pings every few seconds and keeps the round trip (rtt).
// Cluster mode: moveTo(url) follows a redirect to the node hosting a room; a connection
// there that cannot be opened goes back at once to the address the page came from (the node
// went away: another one takes the player, and that address says where).

import { Handshake } from './handshake.js';

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const PING_MS = 2000;

// The wait before reconnect attempt `attempt` (0-based): the backoff step, less a random part
// of up to half of it, so that the clients of a restarted server do not all come back at once.
export function backoffDelay(attempt, random = Math.random) {
  const step = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
  return Math.round(step * (1 - random() / 2));
}

// Messages waiting for the connection, in order: at most `limit`; a message already waiting
// (the lobby's periodic list, a second click) is not queued twice.
export class Outbox {
  constructor(limit = 32) { this.limit = limit; this.messages = []; }
  // Returns whether msg is (now or already) waiting.
  add(msg) {
    const text = JSON.stringify(msg);
    if (this.messages.some((m) => JSON.stringify(m) === text)) return true;
    if (this.messages.length >= this.limit) return false;
    this.messages.push(msg);
    return true;
  }
  take() { return this.messages.splice(0); }
  clear() { this.messages = []; }
}

// A WebSocket URL from a redirect's url: absolute, or a path on the page's own host.
export function socketUrl(url, base) {
  const resolved = new URL(url, base);
  if (resolved.protocol === 'http:') resolved.protocol = 'ws:';
  if (resolved.protocol === 'https:') resolved.protocol = 'wss:';
  return resolved.href;
}

export class Connection extends EventTarget {
  // storage: a ClientStorage (storage.js), where the name and token are kept (handshake.js).
  constructor(url, storage) {
    super();
    this.home = url;
    this.url = url;
    this.handshake = new Handshake(storage);
    this.socket = null;
    this.attempt = 0;
    this.status = 'idle';
    this.offline = false;       // the last attempt failed or the socket was lost: no server now
    this.welcomed = false;      // the server has said welcome on this socket
    this.outbox = new Outbox();
    this.rtt = null;            // the last round trip, ms
    this.pinging = null;        // {timer, rid, at}
  }

  get name() { return this.handshake.name; }
  get ready() { return this.handshake.ready; }

  // (Re)connects as `name`, with an account's name and password, or with a link code
  // (handshake.js); signed out, nothing waits to be sent.
  open(name) { this.handshake.asName(name); this.connect(); }
  signIn(name, password) { this.handshake.signIn(name, password); this.connect(); }
  link(code) { this.handshake.link(code); this.connect(); }
  forget() { this.handshake.forget(); this.outbox.clear(); }

  connect() {
    if (this.socket) this.socket.onclose = null, this.socket.close();
    this.setWelcomed(false);
    this.setStatus('connecting');
    const socket = new WebSocket(this.url);
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.offline = false;
      this.attempt = 0;
      this.setStatus('open');
      this.transmit(this.handshake.opening());
    };
    socket.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type === 'pong' && msg.rid === this.pinging?.rid) {
        this.rtt = Math.round(performance.now() - this.pinging.at);
        this.pinging.rid = null;
        this.dispatchEvent(new CustomEvent('rtt', { detail: this.rtt }));
        return;
      }
      if (msg.type === 'logged_out') this.outbox.clear();
      const again = this.handshake.answer(msg);
      if (again) this.transmit(again);
      this.dispatchEvent(new CustomEvent('message', { detail: msg }));
      if (msg.type === 'welcome') {
        this.setWelcomed(true);
        for (const waiting of this.outbox.take()) this.transmit(waiting);
      }
    };
    socket.onclose = (event) => {
      this.setWelcomed(false);
      if (event.code === 4003) this.handshake.banned = true;
      this.setStatus(event.code === 4000 ? 'replaced' : this.handshake.banned ? 'banned' : 'closed');
      if (event.code === 4000 || this.handshake.banned) return;  // another tab took over, or a ban
      this.offline = true;
      if (!this.ready) return;          // signed out: nobody to reconnect as
      // A node that cannot be reached: the page's own address knows who took its place.
      if (this.url !== this.home && !opened) this.url = this.home;
      setTimeout(() => this.connect(), backoffDelay(this.attempt++));
    };
  }

  // Welcomed (or not any more): the pings run while it is.
  setWelcomed(welcomed) {
    if (this.welcomed === welcomed) return;
    this.welcomed = welcomed;
    clearInterval(this.pinging?.timer);
    this.pinging = null;
    if (welcomed) {
      let n = 0;
      const ping = () => {
        this.pinging.rid = `rtt${++n}`;
        this.pinging.at = performance.now();
        // With the last round trip measured: the room tells the others when it is long.
        this.transmit({ type: 'ping', rid: this.pinging.rid, ...(this.rtt === null ? {} : { rtt: this.rtt }) });
      };
      this.pinging = { timer: setInterval(ping, PING_MS), rid: null, at: 0 };
      ping();
    }
    this.dispatchEvent(new CustomEvent('welcomed', { detail: welcomed }));
  }

  // Reconnects at once to url (a redirect's), saying hello there with the same token. The
  // backoff goes on from where it is (a redirect to a node that refuses comes back home, and
  // may be sent there again until another node takes over).
  moveTo(url) {
    this.url = socketUrl(url, this.home);
    this.connect();
  }

  // Sends msg once the server has welcomed this connection: now, or from the outbox.
  send(msg) {
    if (this.welcomed) this.transmit(msg);
    else this.outbox.add(msg);
  }

  // Sends msg now if the socket is open; returns whether it went.
  transmit(msg) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(msg));
    return true;
  }

  setStatus(status) {
    this.status = status;
    this.dispatchEvent(new CustomEvent('status', { detail: status }));
  }
}
