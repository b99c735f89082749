import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClientStorage } from '../../web-client/js/storage.js';

// A Web Storage in memory.
function memory() {
  const items = new Map();
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, String(v)), removeItem: (k) => items.delete(k), items };
}

test('a new name is a new player: its token goes; the same name keeps it', () => {
  const store = memory();
  const s = new ClientStorage(store);
  s.name = 'ann';
  s.token = 't1';
  s.name = 'ann';
  assert.equal(s.token, 't1');
  s.name = 'bob';
  assert.equal(s.token, null);
  assert.equal(store.items.get('tilerace.name'), 'bob');
  s.token = 't2';
  s.token = null;
  assert.equal(store.items.has('tilerace.token'), false);
});

test('sound, keep going and muted emotes are kept under their keys', () => {
  const store = memory();
  const s = new ClientStorage(store);
  assert.equal(s.soundOn, false);
  s.soundOn = true;
  assert.equal(new ClientStorage(store).soundOn, true);
  assert.equal(s.keptGoing('g1'), false);
  s.keepGoing('g1');
  assert.equal(s.keptGoing('g1'), true);
  assert.equal(s.keptGoing('g2'), false);
  assert.equal(s.keptGoing(undefined), false);
  s.emotesMuted = true;
  assert.equal(store.items.get('tilerace.muteEmotes'), '1');
  assert.equal(new ClientStorage(store).emotesMuted, true);
});
