import { test } from 'node:test';
import './english.mjs';
import assert from 'node:assert/strict';
import { caption } from '../../web-client/js/leaderboard_view.js';

test('the caption names the board and the period the server answered', () => {
  assert.equal(caption({ kind: 'score', mode: 'classic', size: 4, period: 'all-time' }), 'classic 4×4, all time');
  assert.equal(caption({ kind: 'score', mode: 'classic', size: 5, period: '2026-W48' }), 'classic 5×5, week 2026-W48');
  assert.equal(caption({ kind: 'score', mode: 'fifteen', size: 4, period: '2026-11-24' }), 'fifteen 4×4, day 2026-11-24');
  assert.equal(caption({ kind: 'score', mode: 'classic', size: 4 }), 'classic 4×4, all time');
  assert.equal(caption({ kind: 'rating', mode: 'classic', size: 4, period: 'all-time' }), 'Ratings');
  assert.equal(caption({ kind: 'rating', mode: 'classic', size: 3, variant: 'classic-3' }), 'Ratings · classic 3×3');
});
