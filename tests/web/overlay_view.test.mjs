import { test } from 'node:test';
import './english.mjs';
import assert from 'node:assert/strict';
import { overlayFor } from '../../web-client/js/overlay_view.js';
import { initialState } from '../../web-client/js/state.js';

const game = (fields) => ({ id: 'g1', mode: 'classic', state: 'playing', won: false, score: 8, ...fields });
const never = () => false;

test('a solo game: nothing while playing, You win! until Keep going, then the end', () => {
  const s = initialState();
  assert.equal(overlayFor(s, game({}), never), null);
  assert.deepEqual(overlayFor(s, game({ won: true }), never), { text: 'You win!', won: true, keepGoing: true, tryAgain: true, share: false });
  assert.equal(overlayFor(s, game({ won: true }), () => true), null);
  assert.deepEqual(overlayFor(s, game({ won: true, state: 'over' }), () => true),
    { text: 'Game over', won: false, keepGoing: false, tryAgain: true, share: false });
  assert.equal(overlayFor(s, game({ mode: 'fifteen', state: 'solved' }), never).text, 'Solved!');
  // A finished daily game offers Share instead of Try again (one attempt counts).
  assert.deepEqual(overlayFor(s, game({ daily: '2026-11-26', state: 'over' }), never),
    { text: 'Game over', won: false, keepGoing: false, tryAgain: false, share: true });
});

test('no overlay in a race, for a racer or a spectator: the result has its own dialog', () => {
  const s = initialState();
  s.me = { id: 'p1' };
  s.role = 'racer';
  s.results = { winner: 'p1' };
  assert.equal(overlayFor(s, game({ state: 'over' }), never), null);
  s.role = 'spectator';
  assert.equal(overlayFor(s, null, never), null);
});
