import { test } from 'node:test';
import assert from 'node:assert/strict';
import { socketUrl } from '../../web-client/js/connection.js';

test('a redirect to a path stays on the host the page came from, with the socket scheme', () => {
  assert.equal(socketUrl('/node/b/ws', 'ws://play.example:8080/ws'), 'ws://play.example:8080/node/b/ws');
  assert.equal(socketUrl('/node/b/ws', 'wss://play.example/ws'), 'wss://play.example/node/b/ws');
});

test('an absolute redirect is taken as it is; http(s) becomes ws(s)', () => {
  assert.equal(socketUrl('ws://10.0.0.2:8080/ws', 'ws://play.example/ws'), 'ws://10.0.0.2:8080/ws');
  assert.equal(socketUrl('https://b.play.example/ws', 'wss://play.example/ws'), 'wss://b.play.example/ws');
});
