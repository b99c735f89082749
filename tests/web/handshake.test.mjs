import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Handshake } from '../../web-client/js/handshake.js';
import { ClientStorage } from '../../web-client/js/storage.js';

function memory() {
  const items = new Map();
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, String(v)), removeItem: (k) => items.delete(k) };
}

test('a hello with the kept name and token; the welcome keeps what the server says', () => {
  const storage = new ClientStorage(memory());
  const h = new Handshake(storage);
  assert.equal(h.ready, false);
  h.asName('ann');
  assert.deepEqual({ ...h.opening(), device: null }, { type: 'hello', name: 'ann', device: null });
  assert.equal(h.answer({ type: 'welcome', player: { id: 'p1', name: 'ann' }, token: 'tok' }), null);
  assert.equal(storage.token, 'tok');
  assert.equal(h.opening().token, 'tok');
});

test('a login opens one connection, its password never kept; a wrong one goes back to the name screen', () => {
  const storage = new ClientStorage(memory());
  const h = new Handshake(storage);
  h.signIn('bob', 'secret-password');
  assert.equal(h.opening().type, 'login');
  assert.equal(h.ready, true);
  h.answer({ type: 'error', code: 'bad_credentials', message: 'wrong name or password' });
  assert.equal(h.ready, false, 'nobody to connect as');
  h.signIn('bob', 'secret-password');
  h.answer({ type: 'welcome', player: { id: 'p2', name: 'bob' }, token: 't2' });
  assert.equal(h.first, null);
  assert.equal(h.opening().type, 'hello');
  assert.ok(!JSON.stringify(h.opening()).includes('secret'));
});

test('a forgotten token starts afresh; a ban stops reconnecting; a taken name forgets the name', () => {
  const storage = new ClientStorage(memory());
  const h = new Handshake(storage);
  storage.signedIn('cat', 'old');
  assert.deepEqual(h.answer({ type: 'error', code: 'bad_token' }), { type: 'hello', name: 'cat' });
  assert.equal(storage.token, null);
  h.answer({ type: 'error', code: 'name_taken', field: 'name' });
  assert.equal(storage.name, null);
  h.answer({ type: 'error', code: 'banned', reason: 'spam' });
  assert.equal(h.banned, true);
  storage.signedIn('dan', 't');
  h.answer({ type: 'renamed', player: { name: 'dana' } });
  assert.equal(storage.name, 'dana');
  assert.equal(storage.token, 't');
  h.answer({ type: 'logged_out' });
  assert.equal(storage.name, null);
});

test('the device mark a welcome brings goes back with the next login, even after signing out', () => {
  const storage = new ClientStorage(memory());
  const h = new Handshake(storage);
  h.signIn('eve', 'secret-password');
  assert.equal(h.opening().device_mark, undefined, 'no mark yet');
  h.answer({ type: 'welcome', player: { id: 'p5', name: 'eve' }, token: 't5', device_mark: 'mark-1' });
  assert.equal(h.opening().device_mark, undefined, 'a hello carries no mark');
  h.answer({ type: 'logged_out' });
  h.signIn('eve', 'secret-password');
  assert.equal(h.opening().device_mark, 'mark-1');
  h.answer({ type: 'welcome', player: { id: 'p5', name: 'eve' }, token: 't6' });
  assert.equal(storage.deviceMark, 'mark-1', 'a welcome without one keeps the mark');
});
