import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Outbox, backoffDelay, socketUrl } from '../../web-client/js/connection.js';

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
