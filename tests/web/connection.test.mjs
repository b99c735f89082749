import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Connection, Outbox, backoffDelay, socketUrl } from '../../web-client/js/connection.js';

test('a redirect to a path stays on the host the page came from, with the socket scheme', () => {
  assert.equal(socketUrl('/node/b/ws', 'ws://play.example:8080/ws'), 'ws://play.example:8080/node/b/ws');
  assert.equal(socketUrl('/node/b/ws', 'wss://play.example/ws'), 'wss://play.example/node/b/ws');
});

test('an absolute redirect is taken as it is; http(s) becomes ws(s)', () => {
  assert.equal(socketUrl('ws://10.0.0.2:8080/ws', 'ws://play.example/ws'), 'ws://10.0.0.2:8080/ws');
  assert.equal(socketUrl('https://b.play.example/ws', 'wss://play.example/ws'), 'wss://b.play.example/ws');
});

test('reconnects back off up to 8 s, each wait shortened by a random part of up to half', () => {
  assert.equal(backoffDelay(0, () => 0), 250);
  assert.equal(backoffDelay(0, () => 0.999), 125);
  assert.equal(backoffDelay(3, () => 0.5), 1500);
  assert.equal(backoffDelay(40, () => 0), 8000);
  const waits = new Set(Array.from({ length: 50 }, () => backoffDelay(5)));
  assert.ok(waits.size > 1, 'the waits differ');
  for (const w of waits) assert.ok(w >= 4000 && w <= 8000);
});

test('the outbox keeps what waits for the connection in order, once each, up to its limit', () => {
  const box = new Outbox(3);
  assert.equal(box.add({ type: 'new_game', size: 4 }), true);
  assert.equal(box.add({ type: 'list_rooms' }), true);
  assert.equal(box.add({ type: 'list_rooms' }), true);  // already waiting: not twice
  assert.equal(box.add({ type: 'quick_match' }), true);
  assert.equal(box.add({ type: 'emote', emote: 'hi' }), false);  // full
  assert.deepEqual(box.take(), [{ type: 'new_game', size: 4 }, { type: 'list_rooms' }, { type: 'quick_match' }]);
  assert.deepEqual(box.take(), []);
});

// A WebSocket stand-in: records the sockets made; the test opens or refuses them.
class FakeSocket {
  static OPEN = 1;
  static made = [];
  constructor(url) { this.url = url; this.readyState = 0; this.sent = []; FakeSocket.made.push(this); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() {}
  open() { this.readyState = FakeSocket.OPEN; this.onopen(); }
  refuse() { this.readyState = 3; this.onclose({ code: 1006 }); }
}

test('a redirect to a node that refuses comes back to the page\'s address at the next attempt, backing off', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  globalThis.WebSocket = FakeSocket;
  FakeSocket.made = [];
  const storage = { name: 'ann', token: 't', forget() {}, signedIn() {} };
  const c = new Connection('ws://home.example/ws', storage);
  c.connect();
  FakeSocket.made.at(-1).open();
  c.moveTo('ws://node-b.example/ws');
  assert.equal(FakeSocket.made.at(-1).url, 'ws://node-b.example/ws');
  FakeSocket.made.at(-1).refuse();  // node b is gone
  assert.equal(FakeSocket.made.length, 2, 'not at once: after the backoff');
  t.mock.timers.tick(250);
  assert.equal(FakeSocket.made.at(-1).url, 'ws://home.example/ws');
  // Sent there again (its lease not yet over) and refused again: the wait grows.
  c.moveTo('ws://node-b.example/ws');
  FakeSocket.made.at(-1).refuse();
  t.mock.timers.tick(249);
  assert.equal(FakeSocket.made.at(-1).url, 'ws://node-b.example/ws', 'the second wait is longer');
  t.mock.timers.tick(251);
  assert.equal(FakeSocket.made.at(-1).url, 'ws://home.example/ws');
  delete globalThis.WebSocket;
});
