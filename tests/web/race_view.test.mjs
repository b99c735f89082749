import { test } from 'node:test';
import './english.mjs';
import assert from 'node:assert/strict';
import { ghostMargins, leaderOf, progressTo, fitBoards } from '../../web-client/js/race_view.js';

test('a ghost race says by how much each racer beat or trailed the run', () => {
  const over = {
    standings: [{ player: 'p1', name: 'ann' }, { player: 'p2', name: 'bob' }, { player: 'ghost-g', name: 'olga (ghost)' }],
    ghost: { game: 'g', player: 'o', name: 'olga', score: 1200, margins: { p1: 340, p2: -16 } },
  };
  assert.equal(ghostMargins(over),
    "ann beat olga's run (1200 points) by 340 points. bob trailed olga's run (1200 points) by 16 points.");
  over.ghost.margins = { p1: 0 };
  assert.equal(ghostMargins(over), "ann tied olga's run (1200 points).");
});

test('the leader is the one highest score; nobody while level or before anyone scored', () => {
  const g = (score) => ({ score, mode: 'classic' });
  assert.equal(leaderOf({ a: g(12), b: g(40) }), 'b');
  assert.equal(leaderOf({ a: g(40), b: g(40) }), null);
  assert.equal(leaderOf({ a: g(0), b: g(0) }), null);
  assert.equal(leaderOf({ a: g(8) }), 'a');
  assert.equal(leaderOf({ a: { score: 3, mode: 'fifteen' }, b: { score: 0, mode: 'fifteen' } }), null);
});

test('progress to the target grows with the largest tile, on a log scale, within 0–1', () => {
  assert.equal(progressTo(2048, 2048), 1);
  assert.equal(progressTo(32, 1024), 0.5);
  assert.equal(progressTo(4096, 2048), 1);
  assert.equal(progressTo(0, 2048), 0);
  assert.equal(progressTo(8, 0), 0);  // Fifteen has no target
});

test('boards are fitted equal and as large as the space allows, at most 88px a cell', () => {
  // Two racers on a desktop: side by side at the original's size.
  assert.deepEqual(fitBoards(2, 4, 1000, 500), { cols: 2, cell: 88, gap: 10 });
  // Eight on a 1280×720 screen: four a row, two rows, each board smaller but all the same.
  const eight = fitBoards(8, 4, 1000, 460);
  assert.equal(eight.cols, 4);
  const board = (f) => 4 * f.cell + 5 * f.gap;
  assert.ok(4 * board(eight) + 3 * 24 <= 1000 && 2 * (board(eight) + 56) + 16 <= 460, JSON.stringify(eight));
  // A narrow, tall space stacks them.
  assert.equal(fitBoards(2, 4, 360, 1400).cols, 1);
  // Whatever the shape, the boards fit the width.
  for (const [n, size, w, h] of [[3, 8, 700, 500], [5, 5, 1000, 600], [8, 3, 375, 600], [4, 6, 768, 900]]) {
    const f = fitBoards(n, size, w, h);
    assert.ok(f.cols * (size * f.cell + (size + 1) * f.gap) + (f.cols - 1) * 24 <= w, `${n} boards of ${size} in ${w}: ${JSON.stringify(f)}`);
  }
});
