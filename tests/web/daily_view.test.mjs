import { test } from 'node:test';
import './english.mjs';
import assert from 'node:assert/strict';
import { shareText } from '../../web-client/js/daily_view.js';
import { initialState, applyMessage } from '../../web-client/js/state.js';

test('the share text: day, mode, score, largest tile, moves and the board by size class only', () => {
  const game = { daily: '2026-11-26', size: 3, score: 1234, max_tile: 256, moves: 210,
    board: [[0, 2, 8], [16, 64, 128], [512, 1024, 4096]] };
  assert.equal(shareText(game),
    'tilerace daily 2026-11-26 · classic 3×3\nScore 1234 · best tile 256 · 210 moves\n' +
    '⬜🟨🟨\n🟧🟧🟥\n🟥🟪🟪');
  assert.doesNotMatch(shareText(game), /\b(1024|4096|128|64)\b/, 'no tile values');
});

test('the daily board arrives under its own rid and leaves the lobby\'s leaderboard alone', () => {
  const s = initialState();
  applyMessage(s, { type: 'leaderboard', rid: 'daily', board: 'daily', period: '2026-11-26', entries: [], me: null });
  assert.equal(s.daily.period, '2026-11-26');
  assert.equal(s.leaderboard, null);
});
